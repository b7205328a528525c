#include "models/spu/tile_mover.h"

#include <algorithm>
#include <utility>

#include "simtlm/error.h"

namespace simtlm::models::spu {

namespace {
constexpr uint32_t kLine = 128, kSector = 32;
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
  lines_.clear();
  for (uint32_t i = 0; i < bytes / kLine; ++i) lines_.emplace_back(addr + uint64_t(i) * kLine, 0xFu);
  begin(to_memory, false, std::move(done));
}

void TileMover::start_spans(const std::vector<Span>& spans, bool to_memory, std::function<void()> done) {
  if (busy_) throw Error(ErrorKind::Internal, std::string(name()) + ": a DMA transfer while busy");
  lines_.clear();
  for (const Span& s : spans) {
    for (uint64_t a = s.addr; a < s.addr + s.bytes;) {
      const uint64_t line = a / kLine * kLine, end = std::min<uint64_t>(line + kLine, s.addr + s.bytes);
      uint32_t mask = 0;
      for (uint64_t b = a; b < end; b = b / kSector * kSector + kSector) mask |= 1u << ((b - line) / kSector);
      if (!lines_.empty() && lines_.back().first == line) {
        lines_.back().second |= mask;  // two spans in one line: one transaction
      } else {
        lines_.emplace_back(line, mask);
      }
      a = end;
    }
  }
  if (lines_.empty()) throw Error(ErrorKind::Internal, std::string(name()) + ": an empty DMA transfer");
  begin(to_memory, true, std::move(done));
}

void TileMover::begin(bool to_memory, bool dma, std::function<void()> done) {
  busy_ = true;
  to_memory_ = to_memory;
  dma_ = dma;
  next_line_ = 0;
  outstanding_ = 0;
  done_ = std::move(done);
  started_at_ = clock().registration_cycle_now();
  // A spill reads the CB before its first write goes out.
  send_from_ = started_at_ + (to_memory ? cb_latency_ : 0);
  ends_at_ = 0;
  ++(dma ? dma_transfers_ : transfers_);
  wake_at(send_from_);
}

uint64_t TileMover::tick(uint64_t c) {
  if (!busy_) return kSleep;
  const bool to_send = next_line_ < lines_.size();
  if (to_send && c >= send_from_ && port_.request_ready()) {
    tlm::tlm_generic_payload* t = pool_.allocate();
    t->acquire();
    t->set_command(to_memory_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t->set_address(lines_[next_line_].first);
    t->set_data_length(kLine);
    t->set_streaming_width(kLine);
    MemExtension& ext = *static_cast<PooledPayload*>(t)->ext;
    ext.kind = to_memory_ ? AccessKind::Store : AccessKind::Load;
    ext.space = StateSpace::Global;
    ext.sector_mask = lines_[next_line_].second;
    ext.sm_id = node_;
    ext.issue_time = sim_time();
    ++next_line_;
    ++outstanding_;
    ++(dma_ ? dma_transactions_ : transactions_);
    send_from_ = c + 1;
    port_.send_request(*t);
  }
  if (next_line_ == lines_.size() && outstanding_ == 0) {
    if (ends_at_ == 0) ends_at_ = c + (to_memory_ ? 0 : cb_latency_);  // a restore then writes the CB
    if (c >= ends_at_) {
      busy_ = false;
      (dma_ ? dma_cycles_ : cycles_) += c - started_at_;
      auto done = std::move(done_);
      done_ = nullptr;
      if (done) done();
      return busy_ ? std::max(send_from_, c + 1) : kSleep;
    }
    return ends_at_;
  }
  if (next_line_ < lines_.size() && port_.request_ready()) return std::max(send_from_, c + 1);
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

void TileMover::register_dma_stats(const stats::Group& g) {
  g.counter("dma_transfers", &dma_transfers_, "faces", "faces the DMA interface unit on this node moved");
  g.counter("dma_transactions", &dma_transactions_, "transactions",
            "global-memory transactions (one per 128-byte line a face row touches) of the DMA interface unit");
  g.counter("dma_transfer_cycles", &dma_cycles_, "core cycles", "cycles the DMA interface unit's face transfers took");
}

}  // namespace simtlm::models::spu
