// FineReg's comparison mechanisms (Oh et al., MICRO 2018, §VI; seed note 004
// §2.10; docs/finereg.md "Comparison mechanisms"), the register allocator of
// gpu.sm.regfile.alloc_policy = vt and (regdram_allocator.h) = regdram.
//
// Virtual Thread (Yoon et al., ISCA 2016) keeps more CTAs resident than the
// scheduling limit (gpu.sm.max_ctas, warps, threads) by switching CTA
// CONTEXTS only: every resident CTA keeps its whole register allocation in
// the register file (all gpu.sm.registers, no liveness), so CTAs are
// admitted until the register file, shared memory or the resident limits
// (finereg.max_resident_*) are full. An active CTA whose warps all wait for
// memory (cta_stall.h) leaves the pipeline: its pipeline context
// (vt.context_bytes_per_warp per warp) is saved in shared memory, where the
// pending CTAs' backups and the CTAs' shared-memory allocations must fit
// together; its active slot goes to a ready pending CTA (a swap) or, when
// the platform has CTAs waiting and the register file holds one more, to a
// new CTA. Saving or restoring a context takes
// ceil(warps x context_bytes_per_warp / context_bytes_per_cycle) cycles.
//
// Reg+DRAM (the paper's Zorua-like comparison) adds: when the register file
// cannot hold one more CTA, a stalled CTA's whole register context goes off
// chip (at most regdram.max_offchip_ctas per SM; offchip_context.h for the
// cost and the accounting of its traffic), freeing its registers for a new
// CTA or a ready off-chip CTA, which comes back the same way.
//
// Ready pending CTAs go back to the pipeline when an active slot frees (and,
// for an off-chip CTA, the register file has room), those with registers on
// chip first, the longest pending first; new CTAs wait while one is ready,
// except for room a switch-out made for a new CTA (as FineReg's
// restore_first).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/finereg/offchip_context.h"
#include "models/regfile/allocator.h"
#include "models/sm/cycle_hook.h"

namespace simtlm::models::finereg {

class VtAllocator : public regfile::Allocator, public SmCycleHook {
 public:
  // `offchip`: Reg+DRAM (RegDramAllocator).
  VtAllocator(const regfile::AllocatorParams& params, bool offchip);
  ~VtAllocator() override;
  const char* name() const override { return offchip_ ? "regdram" : "vt"; }

  // ---- regfile::Allocator (the whole register file and the active limits)
  uint32_t max_ctas(const CtaShape& shape) const override { return rf_.max_ctas(shape); }
  bool can_admit(const CtaShape& shape) const override;
  void admit(uint32_t cta_slot, const CtaShape& shape) override;
  void release(uint32_t cta_slot) override;
  void suspend(uint32_t cta_slot) override;
  void resume(uint32_t cta_slot) override;
  uint64_t capacity() const override { return rf_.capacity(); }
  uint64_t in_use() const override { return rf_.in_use(); }
  void register_stats(const stats::Group& group) override;
  SmCycleHook* bind_sm(const SmInternals& sm) override;

  // ---- SmCycleHook (switching)
  void on_cycle(uint64_t cycle) override;
  uint64_t next_cycle() const override;
  void on_access_done(uint32_t ticket, uint64_t cycle) override;

  // Where a resident CTA's context and registers are.
  enum class Where : uint8_t { Free, Active, PendRf, PendOff };
  Where where(uint32_t slot) const;
  uint32_t active_ctas() const { return active_ctas_; }
  uint32_t offchip_ctas() const { return offchip_ctas_; }
  uint64_t backup_bytes() const { return backup_bytes_; }
  // Register file, active limits, shared memory with the backups, off-chip
  // count, agreement with the CTA table: Error(Internal).
  void check_invariants() const;

  struct Counters {
    uint64_t switches_out = 0;      // contexts out of the pipeline
    uint64_t switches_in = 0;       // and back
    uint64_t swaps = 0;             // switch-outs paired with a switch-in
    uint64_t outs_for_launch = 0;   // switch-outs that made room for a new CTA
    uint64_t context_bytes = 0;     // pipeline contexts saved + restored (shared memory)
    uint64_t context_passes = 0;    // their 128-byte shared-memory passes
    uint64_t switch_cycles = 0;     // cycles of context and register movement
    uint64_t offchip_out = 0;       // register contexts sent off chip (Reg+DRAM)
    uint64_t offchip_in = 0;        // and brought back
    uint64_t offchip_bytes_out = 0; // bytes of those contexts, each way
    uint64_t offchip_bytes_in = 0;
    uint64_t offchip_regs_out = 0;  // warp-registers read from the register file to go off chip
    uint64_t offchip_regs_in = 0;   // and written back
    uint64_t offchip_transfer_cycles = 0;  // issue to last response, summed over transfers
    uint64_t depletion_stall_cycles = 0;
    uint64_t backup_refusals = 0;   // switch-outs shared memory had no room for
    uint64_t active_cta_cycles = 0;
    uint64_t pending_cta_cycles = 0;
    uint64_t offchip_cta_cycles = 0;
    uint64_t max_resident = 0;
    uint64_t max_pending = 0;
    uint64_t max_backup_bytes = 0;
    uint64_t checked_registers = 0;
    uint64_t storage_bits = kVtLogicBits;  // the switching logic's storage (§V-F)
  };
  const Counters& counters() const { return n_; }

 private:
  struct Slot;
  enum class Out : uint8_t { Swap, Launch, Offchip };
  uint64_t ctx_bytes(uint32_t slot) const;
  uint64_t ctx_cycles(uint32_t slot) const;
  uint64_t reg_bytes(uint32_t slot) const;
  void move_context(uint32_t slot);
  bool backup_fits(uint64_t extra) const;
  bool ready(uint32_t slot) const;
  bool active_fit(uint32_t out, uint32_t in) const;
  uint32_t select(bool (VtAllocator::*ok)(uint32_t, uint32_t) const, uint32_t arg) const;
  bool can_activate(uint32_t slot, uint32_t unused) const;
  bool swap_fits(uint32_t out, uint32_t in) const;
  bool ready_any(uint32_t slot, uint32_t unused) const;
  void switch_out(uint32_t slot, uint64_t c, Out how, bool offchip);
  void switch_in(uint32_t slot, uint64_t c, uint32_t after);
  void begin_move(uint32_t slot, uint64_t c);
  void end_move(uint32_t slot, uint64_t c);
  bool finish_timers(uint64_t c);
  void switch_in_ready(uint64_t c);
  void decide_stalled(uint64_t c);
  void account(uint64_t c);
  std::vector<functional::Warp*> warps_of(uint32_t slot) const;

  regfile::AllocatorParams p_;
  bool offchip_;
  regfile::BaselineAllocator rf_;
  OffchipContexts off_;
  std::vector<Slot> slots_;
  std::unique_ptr<SmInternals> sm_;
  uint32_t active_ctas_ = 0;
  uint32_t active_warps_ = 0;
  uint32_t active_threads_ = 0;
  uint32_t offchip_ctas_ = 0;
  uint64_t backup_bytes_ = 0;
  std::vector<uint32_t> access_slot_;  // by access ticket: the slot whose off-chip transfer it is
  mutable bool probing_ = false;
  mutable bool refused_ = false;
  bool launching_ = false;
  bool depleted_ = false;
  uint64_t last_cycle_ = 0;
  bool empty_ = true;  // no CTA at the end of the last on_cycle (account)
  Counters n_;
};

}  // namespace simtlm::models::finereg
