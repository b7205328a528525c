// The SM's LD/ST unit: turns an issued memory instruction into its timing.
// Shared-memory lanes go through the banks (conflict degree = passes),
// constant lanes through the constant cache (one word per pass), parameters
// take a fixed latency; global and local lanes are coalesced into one
// transaction per line touched and sent, in order, over TLM AT ports:
//   port 0  the L1D (when gpu.l1d.enabled)
//   port 1  around the L1D (atomics, bypassed loads; the only port without L1D)
//   port 2+ one per extra memory space of the SM (SmParams::memory_spaces,
//           e.g. communication buffers), used by extension instructions whose
//           timing names that space (models/sm/extension_timing.h)
// The L1D's downstream traffic and port 1 are merged by a MemMux into the
// SM's memory socket. A memory instruction completes when all its pieces
// (one per transaction, one for the fixed-latency part) are done.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "functional/warp.h"
#include "models/cache/cache.h"
#include "models/common/at_initiator_port.h"
#include "models/common/payload_pool.h"
#include "models/sm/coalescer.h"
#include "models/sm/exec_units.h"
#include "models/sm/fixed_latency_cache.h"
#include "models/sm/inst_timing.h"
#include "models/sm/mem_mux.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/sm/same_cycle_smem.h"
#include "models/smem/banks.h"

namespace simtlm::models {

class LdstUnit {
 public:
  static constexpr unsigned kL1dPort = 0;
  static constexpr unsigned kBypassPort = 1;
  static constexpr unsigned kFirstSpacePort = 2;
  // Warp slot of a mechanism's own access (issue_mechanism): no warp.
  static constexpr uint32_t kMechanismSlot = ~0u;
  // Global-memory areas mechanisms reserve for themselves (timing only: no
  // functional data lives there), below the local and shared windows
  // (functional/launch.h): FineReg's live-register vectors, one area per
  // kernel, and Reg+DRAM's register contexts, one area per SM.
  static constexpr uint64_t kReservedWindowBase = 0x0000'7D00'0000'0000ull;
  static constexpr uint64_t kVectorAreaBase = kReservedWindowBase;
  static constexpr uint64_t kContextAreaBase = kReservedWindowBase + (1ull << 39);

  // Builds the L1D, the mux and the ports; must run while the SM module is
  // being constructed (the sockets become its children).
  LdstUnit(const SmParams& p, uint32_t max_warps, SmStats& stats, AtInitiatorPort::Listener& listener,
           const char* sm_name);
  ~LdstUnit();

  AtInitiatorPort::socket_type& mem_socket() { return mux_ ? mux_->initiator_socket() : bypass_port_->socket; }
  // The socket of an extra memory space (Error(Internal) if the SM has none of that name).
  AtInitiatorPort::socket_type& space_socket(const std::string& space);
  Cache* l1d() { return l1d_.get(); }
  const Cache* l1d() const { return l1d_.get(); }

  // Times the memory instruction warp `slot` issued (record `rec`, static
  // facts `info`, operands collected and unit accepting at `exec`); sets
  // `unit_free` to when the LD/ST pipeline takes the next one. Returns the
  // operation id and whether it has transactions (destinations then wait
  // for memory); the fixed-latency part is queued on `wb`.
  struct Issued {
    uint32_t op;
    uint32_t transactions;
  };
  Issued issue(uint32_t slot, uint64_t cta_id, const functional::ExecRecord& rec, const InstTiming& info,
               uint64_t exec, uint64_t& unit_free, WritebackQueue& wb);

  // An access a mechanism makes on its own, not an instruction (FineReg's
  // live-vector fetches, Reg+DRAM's register contexts): the bytes
  // [addr, addr + bytes) of global memory as line transactions queued behind
  // the instructions' ones (they share the SM's memory port), loads through
  // the L1D when `via_l1d` and the SM has one, stores and the rest around it;
  // first sendable at `start`. Returns the operation id; its completion is
  // an operation whose InstTiming is null (piece_done), which the SM hands
  // back to the mechanism.
  uint32_t issue_mechanism(uint64_t addr, uint32_t bytes, bool write, bool via_l1d, uint64_t start);

  // Sends the head transaction if it is due and its port is free.
  void send(uint64_t c, sc_core::sc_time now);
  // A response arrived: its piece completes at `ready` (a cycle of `clock`,
  // the SM's, which also dates the request's sending for the latency figures).
  void accept_response(tlm::tlm_generic_payload& trans, uint64_t ready, const Clock& clock);
  // Responses that are due, as operation ids (in arrival order).
  template <typename Done>
  void deliver_responses(uint64_t c, Done&& done) {
    while (responses_head_ < responses_.size() && responses_[responses_head_].ready <= c) {
      done(responses_[responses_head_].op);
      ++responses_head_;
    }
    if (responses_head_ == responses_.size()) {
      responses_.clear();
      responses_head_ = 0;
    }
  }
  // One piece of operation `op` is done; returns true (and frees the
  // operation) when it was the last. `slot`/`info` are the operation's warp
  // and instruction.
  bool piece_done(uint32_t op, uint32_t& slot, const InstTiming*& info) {
    MemOp& m = memops_[op];
    if (--m.remaining != 0) return false;
    slot = m.slot;
    info = m.info;
    m.in_use = false;
    free_memops_.push_back(op);
    return true;
  }

  // A memory instruction waits while transactions of earlier instructions
  // wait to be sent. With SmParams::coalesce_same_cycle only those of earlier
  // cycles count: the slices' instructions of one cycle are one access.
  bool backlog_busy() const { return backlog_head_ < (p_.coalesce_same_cycle ? cycle_first_ : backlog_.size()); }
  size_t backlog_size() const { return backlog_.size() - backlog_head_; }
  // Next cycle the unit needs the SM's clock for (kNeverCycle: none; the
  // port's END_REQ wakes the SM when the head waits for it).
  uint64_t next_wake(uint64_t c) const;
  std::string describe() const;
  size_t in_flight() const { return memops_.size() - free_memops_.size(); }
  const FixedLatencyCache& const_cache() const { return const_cache_; }

 private:
  struct MemOp {
    uint32_t slot = 0;
    const InstTiming* info = nullptr;
    uint32_t remaining = 0;
    uint32_t transactions = 0;
    bool in_use = false;
  };
  struct Txn {
    uint64_t addr = 0;
    uint32_t sectors = 0;
    uint32_t op = 0;
    uint32_t slot = 0;
    uint32_t pc = 0;
    uint64_t cta_id = 0;
    uint64_t ready = 0;
    AccessKind kind = AccessKind::Load;
    StateSpace space = StateSpace::Global;
    uint8_t port = kBypassPort;
    bool evict_first = false;  // cache operator .cs/.lu (global lanes)
    uint32_t join = kNoJoin;   // with coalesce_same_cycle: joins_ entry of the ops sharing it
  };
  static constexpr uint32_t kNoJoin = ~0u;
  // request_id of a transaction shared by several operations: this bit plus
  // its joins_ index.
  static constexpr uint64_t kJoinedRequest = uint64_t(1) << 63;
  struct Response {
    uint32_t op;
    uint64_t ready;
  };
  struct FixedPart {
    bool any = false;
    uint64_t done = 0;
    uint32_t passes = 1;
  };

  AtInitiatorPort& port(unsigned index) const;
  uint32_t new_memop();
  uint64_t local_address(uint32_t slot, unsigned lane, uint64_t offset) const;
  // `merge`: timed with the same cycle's other shared accesses as one
  // (SameCycleBanks).
  void time_shared(const functional::ExecRecord& rec, uint64_t lanes, uint64_t base, uint64_t start, uint64_t cta_id,
                   bool merge, bool store, FixedPart& f);
  void time_const(const functional::ExecRecord& rec, uint64_t lanes, uint64_t start, FixedPart& f);
  void emit(const Txn& proto);
  // emit() with SmParams::coalesce_same_cycle: a line that an unsent
  // transaction of the same kind, port and start cycle already asks for is
  // added to it (its index goes to joined_) instead of being sent again.
  void emit_coalescing(const Txn& proto);
  uint32_t new_join(uint32_t leader_op);

  const SmParams& p_;
  SmStats& stats_;
  const char* sm_name_;
  uint32_t max_warps_;
  size_t backlog_head_ = 0;
  size_t responses_head_ = 0;
  size_t cycle_first_ = 0;                // coalesce_same_cycle: first transaction of this cycle's instructions
  uint64_t blocked_since_ = kNeverCycle;  // head transaction refused since this cycle
  std::vector<Txn> backlog_;              // transactions not yet sent
  std::vector<Response> responses_;
  std::vector<MemOp> memops_;
  std::vector<uint32_t> free_memops_;
  std::unique_ptr<Cache> l1d_;
  std::unique_ptr<MemMux> mux_;
  std::unique_ptr<AtInitiatorPort> l1d_port_;
  std::unique_ptr<AtInitiatorPort> bypass_port_;
  std::vector<std::unique_ptr<AtInitiatorPort>> space_ports_;
  PayloadPool pool_;
  smem::Banks smem_banks_;
  SameCycleBanks same_cycle_smem_;
  Coalescer coalescer_;
  FixedLatencyCache const_cache_;
  std::vector<uint64_t> const_words_;  // scratch
  std::vector<uint32_t> joined_;       // scratch: backlog indices the issuing op joined
  std::vector<std::vector<uint32_t>> joins_;  // ops sharing one transaction (coalesce_same_cycle)
  std::vector<uint32_t> free_joins_;
};

}  // namespace simtlm::models
