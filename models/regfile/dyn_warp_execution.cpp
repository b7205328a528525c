// Dynamic Warp Execution (see dyn_warp_execution.h).
#include "models/regfile/dyn_warp_execution.h"

#include <algorithm>
#include <cmath>

#include "models/sm/inst_timing.h"

namespace simtlm::models::regfile {

DynWarpController::DynWarpController(unsigned num_sms, double step)
    : p_(num_sms, kDynOne), step_(static_cast<uint64_t>(std::llround(step * static_cast<double>(kDynOne)))) {
  reset();
}

void DynWarpController::reset() {
  std::fill(p_.begin(), p_.end(), kDynOne);
  if (!p_.empty()) p_[0] = 0;  // the reference SM issues no gated instruction
  windows_ = 0;
}

void DynWarpController::end_window(const std::vector<uint64_t>& stalls) {
  ++windows_;
  for (unsigned i = 1; i < p_.size() && i < stalls.size(); ++i) {
    if (stalls[i] > stalls[0]) {
      p_[i] = p_[i] > step_ ? p_[i] - step_ : 0;
    } else if (stalls[i] < stalls[0]) {
      p_[i] = std::min(kDynOne, p_[i] + step_);
    }
  }
}

bool dyn_gated_path(MemPath path) {
  return path == MemPath::Global || path == MemPath::Local || path == MemPath::Generic;
}

DynWarpGate::DynWarpGate(const DynWarpController& controller, unsigned sm, const SharingAllocator& registers)
    : controller_(controller), sm_(sm), registers_(registers) {}

bool DynWarpGate::allows(const GateQuery& q, sched::StallKind& stall) {
  if (q.timing == nullptr || !q.timing->is_memory() || !dyn_gated_path(q.timing->path)) return true;
  if (registers_.sharing_class(q.cta_slot) != sched::SharingClass::NonOwner) return true;
  credit_ += controller_.probability(sm_);
  if (credit_ >= kDynOne) {
    credit_ -= kDynOne;
    ++passed_;
    return true;
  }
  ++gated_;
  stall = sched::StallKind::Throttled;
  return false;
}

void DynWarpGate::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("sharing").child("dyn");
  g.counter("gated_memory_instructions", &gated_, "checks",
            "issue checks refused by Dynamic Warp Execution: a global/local memory instruction of a warp whose "
            "partner CTA holds shared registers");
  g.counter("passed_memory_instructions", &passed_, "instructions",
            "global/local memory instructions of such warps that Dynamic Warp Execution let through");
}

}  // namespace simtlm::models::regfile
