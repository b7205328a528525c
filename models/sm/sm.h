// Streaming multiprocessor timing model: one SC_METHOD (ClockedModule) per SM
// that ticks on the core clock while the SM has work; warps are data.
//
//   fetch -> I-buffer -> scoreboard -> scheduler policy -> issue (functional
//   execute) -> operand collection (register banks) -> execution pipelines
//   -> writeback; LD/ST: coalescer -> shared memory | constant cache |
//   L1D/bypass (TLM AT) -> responses -> writeback
//
// Memory side: the SM owns its L1D (a models::Cache, when gpu.l1d.enabled)
// and a MemMux that merges the L1D's downstream traffic with the LD/ST unit's
// L1-bypass port (atomics/reductions, and global loads when
// gpu.l1d.cache_global = false). The platform binds mem_socket() to its
// interconnect. Without an L1D, mem_socket() is the LD/ST unit's own port.
//
// Platform protocol:
//   Sm sm("sm0", sm_params_from_config(cfg, 0));
//   sm.mem_socket().bind(xbar.target_socket(0));
//   sm.set_cta_done_callback([&](Sm& s, const LaunchContext& ctx, uint64_t cta) {...});
//   if (sm.can_admit(CtaShape::of(ctx))) sm.launch_cta(ctx, cta_id);
// launch_cta() reserves the CTA's resources at once; the CTA starts at the
// SM's next clock edge. The CTA-done callback runs inside the SM's tick once
// all warps of the CTA finished and all their memory operations returned
// (it may call launch_cta()). A device fault raised by the functional model
// stops the SM; the fault callback (default: sc_stop()) is called and
// fault() returns the exception for the platform to rethrow.
// Timing rules and decisions: docs/sm-model.md.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "models/cache/cache.h"
#include "models/common/at_initiator_port.h"
#include "models/common/clock_domain.h"
#include "models/common/payload_pool.h"
#include "models/regfile/allocator.h"
#include "models/regfile/register_banks.h"
#include "models/sched/policy.h"
#include "models/sm/coalescer.h"
#include "models/sm/fixed_latency_cache.h"
#include "models/sm/inst_timing.h"
#include "models/sm/mem_mux.h"
#include "models/sm/resources.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/smem/allocator.h"
#include "models/smem/banks.h"

namespace simtlm::models {

// One issued instruction (issue observer: traces and tests).
struct IssueRecord {
  uint64_t cycle = 0;
  uint32_t scheduler = 0;
  uint32_t warp_slot = 0;
  uint64_t cta_id = 0;
  uint32_t warp_in_cta = 0;
  uint32_t pc = 0;
  functional::ExecClass cls = functional::ExecClass::Nop;
};

class Sm : public ClockedModule, private AtInitiatorPort::Listener {
 public:
  using CtaDoneCallback = std::function<void(Sm&, const functional::LaunchContext&, uint64_t cta_id)>;
  using IdleCallback = std::function<void(Sm&)>;
  using FaultCallback = std::function<void(Sm&, std::exception_ptr)>;
  using IssueObserver = std::function<void(const IssueRecord&)>;

  Sm(const sc_core::sc_module_name& name, const SmParams& params);
  ~Sm() override;

  // ---- memory side ----------------------------------------------------------
  // The SM's memory socket (L1D misses, writes, atomics, bypassed loads).
  AtInitiatorPort::socket_type& mem_socket();
  Cache* l1d() { return l1d_.get(); }

  // ---- CTA admission --------------------------------------------------------
  // CTAs of this shape that fit in an empty SM (0: never fits).
  uint32_t max_resident_ctas(const CtaShape& shape) const;
  // One more CTA of this shape fits now (CTA slot, warps, threads, registers,
  // shared memory).
  bool can_admit(const CtaShape& shape) const;
  // Places CTA `linear_cta_id` of the launch on this SM (requires can_admit).
  // `ctx` must outlive the CTA. Throws Error(Internal) if it does not fit.
  void launch_cta(functional::LaunchContext& ctx, uint64_t linear_cta_id);

  // ---- notifications --------------------------------------------------------
  void set_cta_done_callback(CtaDoneCallback cb) { cta_done_cb_ = std::move(cb); }
  void set_idle_callback(IdleCallback cb) { idle_cb_ = std::move(cb); }
  void set_fault_callback(FaultCallback cb) { fault_cb_ = std::move(cb); }
  void set_issue_observer(IssueObserver cb) { issue_obs_ = std::move(cb); }
  // Notified (delta) whenever a CTA completes.
  const sc_core::sc_event& cta_done_event() const { return cta_done_event_; }

  // ---- state ------------------------------------------------------------------
  uint32_t id() const { return p_.id; }
  const SmParams& params() const { return p_; }
  uint32_t resident_ctas() const { return resident_ctas_; }
  uint32_t resident_warps() const { return resident_warps_; }
  // CTAs placed and not completed (including those waiting for the next edge).
  uint32_t busy_ctas() const { return busy_ctas_; }
  bool busy() const { return busy_ctas_ != 0; }
  // Watchdog: warp instructions issued so far, and the cycle of the last issue.
  uint64_t progress() const { return stats_.warp_instructions; }
  uint64_t last_issue_cycle() const { return last_issue_cycle_; }
  // One line per resident warp saying what it waits on (barrier, register,
  // memory, pipeline, fetch), plus LD/ST and policy state.
  std::string describe_stall() const;
  // Counters, with the cycle-dependent ones brought up to the current time.
  SmStats& stats();
  // Registers the SM's counters and formulas, and its L1D's, under `g`
  // (gpu.sm[i]); defined in sm_stats_registration.cpp.
  void register_stats(const stats::Group& g);
  std::exception_ptr fault() const { return fault_; }

  regfile::Allocator& register_allocator() { return *regs_; }
  smem::Allocator& shared_allocator() { return *smem_alloc_; }
  sched::Policy& policy() { return *policy_; }

 private:
  static constexpr uint64_t kNever = ~0ull;
  static constexpr uint32_t kNone = ~0u;

  // Slot reasons (index into the slot counters).
  enum Reason : uint8_t { kIssued, kIdle, kFetch, kBarrier, kScoreboard, kPipeline, kMemory, kThrottled, kReasons };
  uint64_t& slot_counter(uint8_t reason);
  static int reason_priority(uint8_t reason);

  // The first cache line holds what the issue scan reads on every
  // examination (check_ready); the rest is touched on issue, fetch and CTA
  // events. One warp per line start, so an examination costs one line.
  struct alignas(64) WarpState {
    functional::Warp* warp = nullptr;
    // Scoreboard (bit sets over registers, in `scoreboard`): registers with a
    // write in flight, and those of them that wait for memory.
    uint64_t* pending = nullptr;
    uint64_t* pending_long = nullptr;
    const KernelTiming* timing = nullptr;  // the CTA's table (CtaState::timing keeps it alive)
    // I-buffer: instructions [ib_pc, ib_pc + ib_count) are decoded.
    uint32_t ib_pc = 0;
    uint32_t ib_count = 0;
    uint64_t eligible_from = 0;  // a warp released from a barrier issues from the next cycle
    // The functional warp's pc and barrier wait, mirrored after each of its
    // CTA's instructions (only they change them), so that examining a warp
    // does not touch the functional state. Valid while live.
    uint32_t pc = 0;
    // Last examination (describe_stall): reason and blocking register.
    uint32_t blocking_reg = kNone;
    bool waiting = false;
    // A scoreboard stall stays until one of the warp's writebacks lands:
    // cached so stalled warps cost almost nothing to re-examine.
    bool sb_blocked = false;
    sched::StallKind sb_kind = sched::StallKind::Scoreboard;
    sched::StallKind last_stall = sched::StallKind::Fetch;
    bool live = false;  // resident and not finished
    // ---- second line
    std::vector<uint64_t> scoreboard;  // pending words, then pending_long words
    bool resident = false;  // slot holds a warp of a resident CTA
    bool fetch_inflight = false;
    bool at_barrier = false;
    uint32_t cta_slot = 0;
    uint32_t warp_in_cta = 0;
    uint32_t scheduler = 0;
    uint32_t outstanding = 0;  // writebacks and memory operations in flight
    uint64_t age = 0;
    uint64_t fetch_ready = 0;
    uint32_t fetch_pc = 0;
    uint32_t fetch_count = 0;
  };

  struct CtaState {
    enum class Status : uint8_t { Free, Pending, Active };
    Status status = Status::Free;
    std::unique_ptr<functional::Cta> cta;
    functional::LaunchContext* ctx = nullptr;
    std::shared_ptr<const KernelTiming> timing;
    CtaShape shape;
    uint64_t linear_id = 0;
    std::vector<uint32_t> warp_slots;
    uint32_t warps_left = 0;   // unfinished warps
    uint32_t outstanding = 0;  // sum of its warps' outstanding operations
    uint64_t launch_cycle = 0;
  };

  // A memory instruction in flight: completes when all its pieces (one per
  // transaction, one for the fixed-latency part) are done.
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
    bool bypass = false;
    bool evict_first = false;  // cache operator .cs/.lu (global lanes)
  };

  struct Event {
    uint64_t cycle;
    uint64_t seq;
    uint32_t slot;     // ALU writeback: warp slot; memory piece: kNone
    uint32_t op;       // memory piece: MemOp id
    const InstTiming* info;
    bool operator>(const Event& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };

  struct Response {
    uint32_t op;
    uint64_t ready;
  };

  // ClockedModule / TLM.
  uint64_t tick(uint64_t cycle) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;

  // Stages.
  void credit_until(uint64_t cycle);
  void activate_pending(uint64_t c);
  void process_completions(uint64_t c);
  void process_fetch_arrivals(uint64_t c);
  void send_transactions(uint64_t c);
  void issue_stage(uint64_t c);
  void fetch_stage(uint64_t c);
  void finish_ctas(uint64_t c);
  uint64_t next_wake(uint64_t c) const;

  // Issue helpers.
  Reason check_ready(uint32_t slot, uint64_t c, sched::StallKind& stall);
  bool issue(uint32_t slot, uint64_t c);
  void issue_memory(uint32_t slot, WarpState& w, CtaState& cta, const functional::ExecRecord& rec,
                    const InstTiming& info, uint64_t exec, uint64_t& unit_free);
  void flush_ibuffer(WarpState& w);
  void want_fetch(uint32_t slot);
  bool wants_fetch(uint32_t slot) const { return (fetch_mask_[slot >> 6] >> (slot & 63)) & 1u; }
  bool any_wants_fetch() const {
    for (uint64_t word : fetch_mask_) {
      if (word != 0) return true;
    }
    return false;
  }
  void set_wants_fetch(uint32_t slot, bool on);
  // First slot >= from whose warp wants a fetch, or max_warps_.
  uint32_t next_wanting_fetch(uint32_t from) const;
  void set_pending(WarpState& w, const InstTiming& info, bool long_latency);
  void clear_pending(WarpState& w, const InstTiming& info);
  void op_done(uint32_t slot);
  void memop_piece_done(uint32_t op);
  uint32_t new_memop();
  uint64_t local_address(uint32_t slot, unsigned lane, uint64_t offset) const;
  std::shared_ptr<const KernelTiming> timing_for(const functional::LaunchContext& ctx);
  void raise_fault(std::exception_ptr e);
  void complete_cta(uint32_t cta_slot, uint64_t c);
  std::string describe_warp(uint32_t slot) const;

  // Parking: a warp found blocked by a condition that only a known event can
  // clear is not re-examined until that event (issue scans touch one byte
  // per parked warp instead of its state). parked_[slot] is kIssued (0) when
  // the warp must be examined, else the reason it keeps reporting:
  //   kScoreboard  mirrors WarpState::sb_blocked (cleared by a writeback)
  //   kBarrier     waiting at a barrier (cleared by a release or exit in its CTA)
  //   kFetch       empty I-buffer (cleared by the fetch arrival)
  //   kMemory      memory instruction behind a non-empty LD/ST backlog
  //                (holds while the backlog is not empty; only when no policy
  //                or allocator can veto issue, so the reason cannot change)
  //   kParkedDead  slot without a live warp
  // A structural stall (execution unit or operand collector busy until a
  // known cycle; units' free cycles never move earlier) parks the warp until
  // that cycle with kPipeline or kMemory; the scan still takes the cycle as
  // the SM's structural wake-up, as the examination would have.
  static constexpr uint8_t kParkedDead = kReasons;
  // Parks that last until an event (no deadline, no dependence on the LD/ST
  // backlog), as a bit per reason: an issue scan skips such warps with one
  // test, their reasons having distinct priorities (reason_priority).
  static constexpr uint32_t kEventReasons = (1u << kScoreboard) | (1u << kBarrier) | (1u << kFetch);
  static constexpr uint32_t kWaitsForEvent = kEventReasons | (1u << kParkedDead);
  void park(uint32_t slot, uint8_t reason) {
    parked_[slot] = reason;
    parked_until_[slot] = kNever;
    forget_scan(slot);
  }
  void park_until(uint32_t slot, uint8_t reason, uint64_t cycle) {
    parked_[slot] = reason;
    parked_until_[slot] = cycle;
    forget_scan(slot);
  }
  void unpark(uint32_t slot, uint8_t reason) {
    if (parked_[slot] == reason) {
      parked_[slot] = kIssued;
      forget_scan(slot);
    }
  }

  // Scan memo: when a scheduler's issue scan issued nothing and every warp it
  // offered was parked, the next scan repeats that result (same reason, same
  // structural wake-up) until one of those parks can change: a park or unpark
  // of one of its warps (which also covers warps arriving and leaving), a
  // structural park running out (until), or the LD/ST backlog emptying when a
  // warp is parked behind it (needs_backlog). Used only when the
  // scan has no other effects: nothing can veto issue, the policy takes no
  // stall events and its order changes only through events.
  struct ScanMemo {
    bool valid = false;
    bool needs_backlog = false;
    uint64_t until = kNever;
  };
  void forget_scan(uint32_t slot) { scan_memo_[warps_[slot].scheduler].valid = false; }
  // Records a warp the scan left parked: its structural deadline, or that it
  // waits behind the LD/ST backlog.
  void note_parked(uint32_t slot, uint64_t& until, bool& needs_backlog) const {
    const uint64_t u = parked_until_[slot];
    if (u != kNever) {
      until = std::min(until, u);
    } else if (parked_[slot] == kMemory) {
      needs_backlog = true;
    }
  }
  bool memo_holds(const ScanMemo& m, uint64_t c) const {
    return m.valid && c < m.until && (!m.needs_backlog || backlog_head_ < backlog_.size());
  }
  uint32_t slot_of(const WarpState& w) const { return static_cast<uint32_t>(&w - warps_.data()); }

  static bool reg_set(const uint64_t* bits, uint32_t r) {
    return (bits[r >> 6] >> (r & 63)) & 1u;
  }

  SmParams p_;
  uint32_t max_warps_;

  // Read on every tick: kept together, so a tick touches a few cache lines
  // of the SM for its own state (the SMs' ticks evict each other's).
  bool faulted_ = false;
  bool issued_this_cycle_ = false;
  bool throttled_this_cycle_ = false;
  bool no_issue_veto_ = false;        // no policy/allocator can veto issue: memory and structural stalls may park
  bool scan_memo_usable_ = false;     // see ScanMemo
  bool policy_wants_stalls_ = false;
  bool policy_vetoes_ = false;        // policy_->vetoes_issue()
  bool allocators_gate_ = false;      // an allocator's gates_issue()
  uint32_t resident_ctas_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t accounted_ = 0;            // first cycle not yet accounted
  uint64_t structural_wake_ = kNever; // earliest cycle a structural stall clears
  uint64_t now_cycle_ = 0;
  size_t backlog_head_ = 0;
  size_t responses_head_ = 0;
  std::unique_ptr<sched::Policy> policy_;
  std::vector<WarpState> warps_;
  std::vector<uint8_t> parked_;                   // per warp slot, see park()
  std::vector<uint64_t> parked_until_;            // per warp slot: parked while cycle < this
  std::vector<ScanMemo> scan_memo_;               // per scheduler
  std::vector<uint32_t> sched_live_;              // live warps per scheduler
  std::vector<uint8_t> last_reason_;              // per scheduler, for skipped cycles
  std::vector<uint32_t> pending_ctas_;            // CTA slots waiting for the next edge
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::vector<Txn> backlog_;                      // LD/ST transactions not yet sent
  std::vector<Response> responses_;
  std::vector<uint32_t> fetching_;                // slots with a fetch in flight
  std::vector<uint64_t> fetch_mask_;              // bit per slot: the warp wants a fetch (empty I-buffer, none in flight)
  std::vector<uint32_t> cta_check_;               // CTA slots that may have completed
  SmStats stats_;

  // Memory side.
  std::unique_ptr<Cache> l1d_;
  std::unique_ptr<MemMux> mux_;
  std::unique_ptr<AtInitiatorPort> l1d_port_;     // to the L1D (index 0)
  std::unique_ptr<AtInitiatorPort> bypass_port_;  // around the L1D (index 1)
  PayloadPool pool_;

  // Resources.
  std::unique_ptr<regfile::Allocator> regs_;
  std::unique_ptr<smem::Allocator> smem_alloc_;

  // Pipeline state touched per issue, per CTA or per memory operation.
  std::vector<CtaState> ctas_;
  std::vector<std::vector<uint64_t>> unit_free_;  // per ExecUnit: cycle each pipeline accepts the next instruction
  std::vector<std::vector<uint64_t>> cu_free_;    // per CollectorSet: cycle each unit is free
  uint64_t event_seq_ = 0;
  std::vector<MemOp> memops_;
  std::vector<uint32_t> free_memops_;
  uint32_t fetch_rr_ = 0;
  std::vector<std::shared_ptr<const KernelTiming>> timings_;
  // Shapes max_resident_ctas() was asked about, with their answers (the SM's
  // parameters never change, so the answer for a shape never does). A run
  // has a few kernels that launch again and again, often alternating.
  mutable std::vector<std::pair<CtaShape, uint32_t>> fit_memo_;

  // Accounting.
  bool accounting_started_ = false;
  uint32_t busy_ctas_ = 0;
  uint32_t reserved_warps_ = 0;    // warps of busy CTAs
  uint32_t reserved_threads_ = 0;  // padded threads of busy CTAs
  uint64_t age_counter_ = 0;
  uint64_t last_issue_cycle_ = 0;
  uint64_t blocked_since_ = kNever;  // LD/ST head transaction refused since this cycle

  // Touched per issue or fetch, not per tick (kept after the per-tick state).
  regfile::RegisterBanks banks_;
  smem::Banks smem_banks_;
  Coalescer coalescer_;
  FixedLatencyCache icache_;
  FixedLatencyCache const_cache_;
  std::vector<uint64_t> const_words_;             // scratch

  // Notifications.
  CtaDoneCallback cta_done_cb_;
  IdleCallback idle_cb_;
  FaultCallback fault_cb_;
  IssueObserver issue_obs_;
  sc_core::sc_event cta_done_event_;
  std::exception_ptr fault_;
};

}  // namespace simtlm::models
