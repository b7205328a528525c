#include "models/spu/tile_mover.h"

#include <algorithm>
#include <utility>

#include "simtlm/error.h"

namespace simtlm::models::spu {

namespace {
constexpr uint32_t kLine = 128;
}

TileMover::TileMover(const sc_core::sc_module_name& name, const sc_core::sc_time& period, int32_t node,
                     uint32_t cb_latency)
    : ClockedModule(name, period),
      port_("mem", static_cast<AtInitiatorPort::Listener&>(*this)),
      node_(node),
      cb_latency_(cb_latency) {}

void TileMover::start(uint64_t addr, uint32_t bytes, bool to_memory, std::function<void()> done) {
  if (busy_ || bytes == 0 || bytes % kLine != 0) {
    throw Error(ErrorKind::Internal, std::string(name()) + ": a transfer of " + std::to_string(bytes) +
                                         " bytes while " + (busy_ ? "busy" : "idle"));
  }
  busy_ = true;
  to_memory_ = to_memory;
  addr_ = addr;
  to_send_ = bytes / kLine;
  outstanding_ = 0;
  done_ = std::move(done);
  started_at_ = clock().registration_cycle_now();
  // A spill reads the CB before its first write goes out.
  send_from_ = started_at_ + (to_memory ? cb_latency_ : 0);
  ends_at_ = 0;
  ++transfers_;
  wake_at(send_from_);
}

uint64_t TileMover::tick(uint64_t c) {
  if (!busy_) return kSleep;
  if (to_send_ != 0 && c >= send_from_ && port_.request_ready()) {
    tlm::tlm_generic_payload* t = pool_.allocate();
    t->acquire();
    t->set_command(to_memory_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t->set_address(addr_);
    t->set_data_length(kLine);
    t->set_streaming_width(kLine);
    MemExtension& ext = *static_cast<PooledPayload*>(t)->ext;
    ext.kind = to_memory_ ? AccessKind::Store : AccessKind::Load;
    ext.space = StateSpace::Global;
    ext.sector_mask = 0xF;
    ext.sm_id = node_;
    ext.issue_time = sim_time();
    addr_ += kLine;
    --to_send_;
    ++outstanding_;
    ++transactions_;
    send_from_ = c + 1;
    port_.send_request(*t);
  }
  if (to_send_ == 0 && outstanding_ == 0) {
    if (ends_at_ == 0) ends_at_ = c + (to_memory_ ? 0 : cb_latency_);  // a restore then writes the CB
    if (c >= ends_at_) {
      busy_ = false;
      cycles_ += c - started_at_;
      auto done = std::move(done_);
      done_ = nullptr;
      if (done) done();
      return busy_ ? std::max(send_from_, c + 1) : kSleep;
    }
    return ends_at_;
  }
  if (to_send_ != 0 && port_.request_ready()) return std::max(send_from_, c + 1);
  return kSleep;  // woken by END_REQ or a response
}

void TileMover::on_request_accepted(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

bool TileMover::on_response(unsigned, tlm::tlm_generic_payload& trans) {
  --outstanding_;
  trans.release();
  wake_next();
  return true;
}

void TileMover::register_stats(const stats::Group& g) {
  g.counter("viu_transfers", &transfers_, "faces", "faces the virtual IU on this node moved (spills + restores)");
  g.counter("viu_transactions", &transactions_, "transactions",
            "128-byte global-memory transactions of the virtual IU's spills and restores");
  g.counter("viu_transfer_cycles", &cycles_, "core cycles", "cycles the virtual IU's spills and restores took");
}

}  // namespace simtlm::models::spu
