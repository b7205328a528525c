// What an SM asks of the allocator of one per-CTA resource (the register
// file: models/regfile/allocator.h; shared memory: models/smem/allocator.h):
// how many CTAs of a shape fit, admitting and releasing a CTA, an issue-time
// check, the CTA and warp life cycle, its statistics and, for sharing
// allocators, the owner-warp-first class of a CTA.
#pragma once

#include <cstdint>

#include "models/sched/policy.h"
#include "models/sm/resources.h"
#include "simtlm/stats.h"

namespace simtlm::models {

class SmCycleHook;   // models/sm/cycle_hook.h
struct SmInternals;

class CtaAllocator {
 public:
  virtual ~CtaAllocator() = default;
  virtual const char* name() const = 0;

  // CTAs of this shape that fit in an empty SM as far as this resource goes.
  virtual uint32_t max_ctas(const CtaShape& shape) const = 0;
  // True when one more CTA of this shape fits now.
  virtual bool can_admit(const CtaShape& shape) const = 0;
  // Reserves the share of a CTA placed in `cta_slot` (can_admit was true).
  virtual void admit(uint32_t cta_slot, const CtaShape& shape) = 0;
  // Returns the share of the CTA in `cta_slot`.
  virtual void release(uint32_t cta_slot) = 0;
  // Consulted before every issue (sharing locks); the baselines never block.
  virtual IssueCheck may_issue(const IssueQuery& query) {
    (void)query;
    return IssueCheck::Ok;
  }
  // True when may_issue() can ever block (an implementation that overrides
  // may_issue must also override this). When false the SM skips the call
  // and may park warps stalled on memory (models/sm/sm.h).
  virtual bool gates_issue() const { return false; }

  // Life cycle beyond admission (sharing locks, FineReg): warp `warp_in_cta`
  // of the CTA in `cta_slot` executed its exit; the CTA's warps stopped /
  // started being offered to the schedulers (Sm::suspend_cta/resume_cta).
  // release() is the CTA's completion.
  virtual void warp_finished(uint32_t cta_slot, uint32_t warp_in_cta) { (void)cta_slot, (void)warp_in_cta; }
  virtual void suspend(uint32_t cta_slot) { (void)cta_slot; }
  virtual void resume(uint32_t cta_slot) { (void)cta_slot; }
  // True when the CTA admitted in `cta_slot` (admit() was just called)
  // starts suspended: it holds its resources and is resident, but its warps
  // are not offered to the schedulers until Sm::resume_cta (FineReg's launch
  // beyond the scheduling limits into free ACRF space, PEND_ACRF). Asked of
  // the register allocator once per admission; false (the default): the CTA
  // starts issuing at the next clock edge.
  virtual bool starts_suspended(uint32_t cta_slot) const {
    (void)cta_slot;
    return false;
  }
  // An allocator that acts by itself every cycle (FineReg's CTA switching)
  // returns its hook, bound to the SM's parts; called once by the SM's
  // constructor. nullptr (the default): no per-cycle work.
  virtual SmCycleHook* bind_sm(const SmInternals& sm) {
    (void)sm;
    return nullptr;
  }
  // Adds the allocator's own counters under the SM's group (e.g. lock stalls).
  virtual void register_stats(const stats::Group& group) { (void)group; }
  // Owner / unshared / non-owner class of a CTA's warps, for OWF (sharing
  // allocators; nullptr when the allocator never pairs CTAs).
  virtual const sched::SharingClassifier* sharing_classifier() const { return nullptr; }
  // With register and scratchpad sharing both on, each allocator sees the
  // other's locks: a CTA does not take a lock against a partner that holds a
  // lock of the other kind on the same pair, so one pair's two kinds cannot
  // wait on each other.
  virtual void set_other_sharing(const sched::SharingClassifier* other) { (void)other; }

  // In the resource's unit (registers, bytes).
  virtual uint64_t capacity() const = 0;
  virtual uint64_t in_use() const = 0;
};

}  // namespace simtlm::models
