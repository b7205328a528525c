// The issue gates every SM may carry (models/sm/issue_gate.h): the scheduling
// policy's veto of instruction classes (CCWS-style throttling) and the
// allocators' issue checks (sharing locks). The SM adds each only when the
// policy or allocator says it can ever say no (Policy::vetoes_issue,
// Allocator::gates_issue), so a baseline SM has no gate at all.
#pragma once

#include "models/regfile/allocator.h"
#include "models/sched/policy.h"
#include "models/sm/inst_timing.h"
#include "models/sm/issue_gate.h"
#include "models/smem/allocator.h"

namespace simtlm::models {

// A load whose lanes may be served by the L1D (what CCWS and DAWS throttle).
inline bool loads_through_l1d(const InstTiming& t) {
  if (t.cls != functional::ExecClass::Load) return false;
  return t.path == MemPath::Local || t.path == MemPath::Generic ||
         (t.path == MemPath::Global && !t.global_skips_l1d);
}

class PolicyVetoGate final : public IssueGate {
 public:
  explicit PolicyVetoGate(sched::Policy& policy) : policy_(policy) {}
  const char* name() const override { return "policy veto"; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override {
    if (policy_.allows(q.warp_slot, q.timing->cls) &&
        (!loads_through_l1d(*q.timing) || policy_.allows_l1d_load(q.warp_slot))) {
      return true;
    }
    stall = sched::StallKind::Throttled;
    return false;
  }

 private:
  sched::Policy& policy_;
};

// Either allocator's may_issue (both have the same query interface).
template <typename AllocatorT>
class AllocatorGate final : public IssueGate {
 public:
  AllocatorGate(AllocatorT& allocator, const char* name) : allocator_(allocator), name_(name) {}
  const char* name() const override { return name_; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override {
    IssueQuery iq;
    iq.warp_slot = q.warp_slot;
    iq.cta_slot = q.cta_slot;
    iq.cta_id = q.cta_id;
    iq.warp_in_cta = q.warp_in_cta;
    iq.pc = q.pc;
    iq.inst = q.inst;
    iq.timing = q.timing;
    iq.warp = q.warp;
    iq.ctx = q.ctx;
    if (allocator_.may_issue(iq) != IssueCheck::Blocked) return true;
    stall = sched::StallKind::Throttled;
    return false;
  }

 private:
  AllocatorT& allocator_;
  const char* name_;
};

}  // namespace simtlm::models
