// Register sharing between CTA pairs (Jatala §2.2.1/§2.2.3, seed note 000
// §2.3), selected by gpu.sm.regfile.alloc_policy = sharing.
//
// Admission: CtaPairs (models/sm/cta_pairs.h) with R = registers per SM and
// R_tb = the CTA's registers as the baseline counts them; more CTAs than the
// baseline are admitted only when the occupancy equation allows it.
//
// Access check (the allocator's issue gate, next to the scoreboard): warp k
// of a CTA is paired with warp k of its partner CTA. Register number n
// (1-based, InstTiming::max_reg_number: the physical register numbering of
// the kernel's register allocation, FunctionAnalysis::phys_regs, stands for
// the declaration order, or the first-use order of the pass
// reorder_registers, §2.6) is private when n <= floor(regs_per_thread x t);
// the others belong to the
// warp pair's shared pool, under one lock per warp pair. A warp whose
// instruction touches a shared register must hold the lock or take it; it
// may take a free lock only when no warp of the partner CTA holds a lock
// (canAcquire, the deadlock-avoidance rule of §2.2.3), otherwise it is not
// ready this cycle (a throttled stall, counted as a lock stall). A lock is
// released when its holding warp finishes. A CTA with no partner takes locks
// freely (it owns the whole pool); a CTA that pairs with it later finds them
// taken, as the new non-owner.
#pragma once

#include <cstdint>
#include <vector>

#include "models/regfile/allocator.h"
#include "models/sm/cta_pairs.h"

namespace simtlm::models::regfile {

class SharingAllocator final : public Allocator, public sched::SharingClassifier {
 public:
  explicit SharingAllocator(const AllocatorParams& params);
  const char* name() const override { return "sharing"; }

  uint32_t max_ctas(const CtaShape& shape) const override;
  bool can_admit(const CtaShape& shape) const override;
  void admit(uint32_t cta_slot, const CtaShape& shape) override;
  void release(uint32_t cta_slot) override;
  IssueCheck may_issue(const IssueQuery& query) override;
  bool gates_issue() const override { return true; }
  void warp_finished(uint32_t cta_slot, uint32_t warp_in_cta) override;
  void register_stats(const stats::Group& group) override;
  const sched::SharingClassifier* sharing_classifier() const override { return this; }
  sched::SharingClass sharing_class(uint32_t cta_slot) const override;
  uint64_t capacity() const override { return pairs_.capacity(); }
  uint64_t in_use() const override { return pairs_.in_use(); }

  // Registers 1..private_registers(slot) of each thread of the CTA are private.
  uint32_t private_registers(uint32_t cta_slot) const { return ctas_[cta_slot].private_regs; }
  // True when warp `warp_in_cta` of the CTA in `cta_slot` holds its pair's lock.
  bool warp_holds_lock(uint32_t cta_slot, uint32_t warp_in_cta) const;
  bool holds_lock_against(uint32_t holder, uint32_t partner) const override {
    return ctas_[holder].holders > 0 && pairs_.partner(holder) == partner;
  }
  void set_other_sharing(const sched::SharingClassifier* other) override { other_ = other; }
  uint32_t partner(uint32_t cta_slot) const { return pairs_.partner(cta_slot); }

 private:
  struct Cta {
    uint32_t private_regs = 0;
    uint32_t holders = 0;       // unfinished warps holding a lock
    std::vector<uint8_t> holds;  // per warp: holds its pair's lock
  };
  uint64_t units(const CtaShape& shape) const;
  // canAcquire: no warp of the partner CTA holds a lock (of either kind
  // when scratchpad sharing is on too).
  bool may_acquire(uint32_t cta_slot) const;

  uint32_t granularity_;
  uint64_t t_;
  bool deadlock_rule_;
  CtaPairs pairs_;
  std::vector<Cta> ctas_;
  const sched::SharingClassifier* other_ = nullptr;
  uint64_t lock_acquisitions_ = 0;
  uint64_t lock_stalls_ = 0;       // checks refused: the partner warp holds the lock
  uint64_t deadlock_rule_stalls_ = 0;  // checks refused: lock free, but canAcquire says no
  uint64_t pairs_formed_ = 0;
};

}  // namespace simtlm::models::regfile
