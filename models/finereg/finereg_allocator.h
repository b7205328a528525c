// FineReg (Oh et al., MICRO 2018; seed note 004; docs/finereg.md): the
// register allocator of gpu.sm.regfile.alloc_policy = finereg and its CTA
// switching, as one SM part.
//
// As an allocator it manages the ACRF (acrf_bytes of the register file):
// a CTA is admitted active when its full allocation fits in the ACRF and it
// fits in the ACTIVE limits (gpu.sm.max_ctas, warps and threads); with
// launch_beyond_limit, one whose allocation fits in the ACRF while the active
// limits are full is admitted pending in PEND_ACRF (1,2), suspended from its
// first cycle (starts_suspended), its initial context in shared memory. The
// SM's CTA table holds up to max_resident_ctas / max_resident_warps CTAs, the
// pending ones beyond the active limits.
//
// As a per-cycle hook (models/sm/cycle_hook.h) it switches CTAs (§2.7):
//  - an active CTA whose unfinished warps all wait for memory or at a
//    barrier (with memory operations in flight) is switched out when that
//    makes room. With context_only_switch, when a ready pending CTA or a new
//    CTA fits in the ACRF beside its registers, only its context leaves
//    (it rests in PEND_ACRF, registers in place). Otherwise its context
//    leaves the pipeline (Sm::suspend_cta) and its
//    live registers (live_vectors.h, looked up through the vector cache)
//    move to the PCRF (pcrf.h), either to swap with a ready pending CTA
//    (PCRF free + that CTA's entries >= the live count) or, when the
//    platform has CTAs waiting and the PCRF has room, to free its ACRF
//    space for a new CTA;
//  - a pending CTA is ready when its operations in flight have all returned;
//    ready CTAs are switched in when the ACRF and the active limits allow,
//    those whose registers are still in the ACRF first (cta_status.h);
//    with switch_order = restore_first, new CTAs wait while a ready pending
//    CTA waits for room, except for the room a switch-out made for a new
//    CTA, which is offered to the platform first.
// A switch-out takes pcrf_latency + live x cycles_per_register cycles (+ the
// vector fetch on a vector-cache miss) before its ACRF space is free; a
// switch-in as long before the CTA's warps are offered to the schedulers.
// The checking mode (live_check.h) sends the functional registers through
// the PCRF.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/finereg/cta_status.h"
#include "models/finereg/live_check.h"
#include "models/finereg/live_vectors.h"
#include "models/finereg/pcrf.h"
#include "models/finereg/vector_cache.h"
#include "models/regfile/allocator.h"
#include "models/sm/cycle_hook.h"

namespace simtlm::functional {
class LaunchContext;
}

namespace simtlm::models::finereg {

class FineRegAllocator : public regfile::Allocator, public SmCycleHook {
 public:
  explicit FineRegAllocator(const regfile::AllocatorParams& params);
  ~FineRegAllocator() override;
  const char* name() const override { return "finereg"; }

  // ---- regfile::Allocator (the ACRF and the active limits)
  uint32_t max_ctas(const CtaShape& shape) const override { return acrf_.max_ctas(shape); }
  bool can_admit(const CtaShape& shape) const override;
  void admit(uint32_t cta_slot, const CtaShape& shape) override;
  void release(uint32_t cta_slot) override;
  void suspend(uint32_t cta_slot) override;
  void resume(uint32_t cta_slot) override;
  // A CTA admitted beyond the active limits rests in PEND_ACRF (1,2).
  bool starts_suspended(uint32_t cta_slot) const override;
  uint64_t capacity() const override { return acrf_.capacity(); }
  uint64_t in_use() const override { return acrf_.in_use(); }
  void register_stats(const stats::Group& group) override;
  SmCycleHook* bind_sm(const SmInternals& sm) override;

  // ---- SmCycleHook (switching)
  void on_cycle(uint64_t cycle) override;
  uint64_t next_cycle() const override;
  void on_access_done(uint32_t ticket, uint64_t cycle) override;

  // ---- state (tests)
  const CtaStatusMonitor& monitor() const { return monitor_; }
  const Pcrf& pcrf() const { return pcrf_; }
  const VectorCache& vector_cache() const { return vcache_; }
  uint32_t active_ctas() const { return active_ctas_; }
  uint32_t active_warps() const { return active_warps_; }
  uint64_t backup_bytes() const { return backup_bytes_; }
  // Invariants 4-9 of the note's §7 over the current state; Error(Internal).
  void check_invariants() const;

  struct Counters {
    uint64_t switches_out = 0;       // CTAs switched out
    uint64_t switches_in = 0;        // CTAs switched in
    uint64_t swaps = 0;              // switch-outs paired with a switch-in
    uint64_t outs_for_launch = 0;    // switch-outs that made room for a new CTA
    uint64_t context_only_outs = 0;  // switch-outs whose registers stayed in the ACRF (PEND_ACRF)
    uint64_t launches_pending = 0;   // CTAs admitted beyond the active limits as PEND_ACRF
    uint64_t registers_out = 0;      // warp-registers moved ACRF -> PCRF
    uint64_t registers_in = 0;       // and back
    uint64_t move_cycles = 0;        // cycles of register movement (both ways)
    uint64_t depletion_stall_cycles = 0;  // cycles with a stalled CTA and no room while CTAs wait
    uint64_t active_cta_cycles = 0;  // integral of the counts over cycles
    uint64_t pending_cta_cycles = 0;
    uint64_t pcrf_entry_cycles = 0;
    uint64_t max_resident = 0;
    uint64_t max_pending = 0;
    uint64_t max_pcrf_entries = 0;
    uint64_t vector_hits = 0;
    uint64_t vector_misses = 0;
    uint64_t vector_bytes = 0;       // fetched from the reserved global-memory area
    uint64_t vector_fetch_cycles = 0; // switch-outs' waits for their vector reads
    uint64_t context_bytes = 0;      // pipeline contexts to and from shared memory
    uint64_t context_passes = 0;     // their 128-byte shared-memory passes
    uint64_t backup_refusals = 0;    // switch-outs shared memory had no room for
    uint64_t max_backup_bytes = 0;
    uint64_t checked_registers = 0;  // registers compared by the checking mode
    uint64_t wide_kernel_stalls = 0; // stalled CTAs of kernels beyond the 64-bit vector, not switched
    uint64_t storage_bits = 0;       // added storage per SM (§V-F), from the configuration
  };
  const Counters& counters() const { return n_; }

 private:
  struct Slot;
  enum class Admission : uint8_t { None, Active, Pending };
  Admission admission(const CtaShape& shape) const;
  bool pending_launch_fits(const CtaShape& shape) const;
  bool ready_in_pcrf_waiting() const;
  bool context_swap_fits(uint32_t out, uint32_t in) const;
  void context_out(uint32_t slot, uint64_t c, bool for_launch);
  void leave_pipeline(uint32_t slot);
  bool stalled(uint32_t slot) const;
  bool ready(uint32_t slot) const;
  bool can_activate(uint32_t slot) const;
  uint32_t live_count(uint32_t slot);
  void switch_out(uint32_t slot, uint64_t c, bool for_launch);
  void switch_in(uint32_t slot, uint64_t c, uint32_t after, const std::vector<PcrfItem>& items);
  void start_timer(uint32_t slot, uint64_t c);
  uint64_t ctx_bytes(uint32_t slot) const;
  uint64_t ctx_cycles(uint32_t slot) const;
  void move_context(uint32_t slot);
  bool backup_fits(uint64_t extra) const;
  std::vector<PcrfItem> take_out(uint32_t slot);
  bool finish_timers(uint64_t c);
  bool swap_fits(uint32_t out, uint32_t in, uint32_t live) const;
  bool room_after_out(uint32_t slot) const;
  bool ready_waiting() const;
  void switch_in_ready(uint64_t c);
  void decide_stalled(uint64_t c);
  void account(uint64_t c);
  const LiveVectorTable& table_for(uint32_t slot);

  regfile::AllocatorParams p_;
  regfile::BaselineAllocator acrf_;
  Pcrf pcrf_;
  CtaStatusMonitor monitor_;
  VectorCache vcache_;
  LiveCheck check_;
  std::vector<Slot> slots_;
  std::unique_ptr<SmInternals> sm_;
  uint32_t active_ctas_ = 0;
  uint32_t active_warps_ = 0;
  uint32_t active_threads_ = 0;
  uint64_t backup_bytes_ = 0;               // pending CTAs' pipeline contexts in shared memory
  std::vector<uint32_t> fetch_slot_;        // by access ticket: the slot whose switch-out waits for it
  mutable bool probing_ = false;   // can_admit asked for the resident limits only
  mutable bool refused_ = false;   // can_admit held a new CTA back (restore_first)
  bool launching_ = false;         // room made for a new CTA is being offered
  bool depleted_ = false;          // last cycle: a stalled CTA found no room
  uint64_t last_cycle_ = 0;
  bool empty_ = true;  // no CTA at the end of the last on_cycle (account)
  uint64_t table_ids_ = 0;
  Counters n_;
};

}  // namespace simtlm::models::finereg
