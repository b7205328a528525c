#include "models/sched/swl.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::models::sched {

SwlPolicy::SwlPolicy(const PolicyParams& params)
    : gto_(params),
      limit_(params.warp_limit),
      warps_(params.max_warps),
      allowed_(params.max_warps, 0),
      order_(params.schedulers) {
  if (limit_ == 0) {
    throw Error(ErrorKind::Config, "policy swl needs gpu.sm.scheduler.swl.warp_limit > 0");
  }
}

void SwlPolicy::warp_added(const WarpInfo& warp) {
  gto_.warp_added(warp);
  if (warp.slot >= warps_.size()) {
    warps_.resize(warp.slot + 1);
    allowed_.resize(warp.slot + 1, 0);
  }
  warps_[warp.slot] = Warp{true, false, warp.age, warp.cta_slot};
  dirty_ = true;
}

void SwlPolicy::warp_removed(uint32_t slot) {
  gto_.warp_removed(slot);
  if (slot < warps_.size()) warps_[slot].live = false;
  dirty_ = true;
}

void SwlPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) {
  gto_.on_issue(slot, scheduler, cls, cycle);
}

void SwlPolicy::on_barrier(uint32_t slot, BarrierEvent event, uint64_t) {
  if (slot >= warps_.size()) return;
  warps_[slot].at_barrier = event == BarrierEvent::Arrive;
  dirty_ = true;
}

void SwlPolicy::recompute() {
  by_age_.clear();
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    if (warps_[s].live) by_age_.push_back(s);
  }
  std::sort(by_age_.begin(), by_age_.end(), [&](uint32_t a, uint32_t b) { return warps_[a].age < warps_[b].age; });
  std::fill(allowed_.begin(), allowed_.end(), 0);
  const size_t n = std::min<size_t>(limit_, by_age_.size());
  for (size_t i = 0; i < n; ++i) allowed_[by_age_[i]] = 1;
  // The barrier exception: the rest of a CTA one of whose allowed warps waits.
  for (size_t i = 0; i < n; ++i) {
    const Warp& w = warps_[by_age_[i]];
    if (!w.at_barrier) continue;
    for (size_t j = n; j < by_age_.size(); ++j) {
      if (warps_[by_age_[j]].cta_slot == w.cta_slot) allowed_[by_age_[j]] = 1;
    }
  }
  dirty_ = false;
}

const std::vector<uint32_t>& SwlPolicy::order(unsigned scheduler, uint64_t cycle) {
  if (dirty_) recompute();
  std::vector<uint32_t>& out = order_[scheduler];
  out.clear();
  for (uint32_t slot : gto_.order(scheduler, cycle)) {
    if (allowed_[slot]) out.push_back(slot);
  }
  return out;
}

std::string SwlPolicy::describe(unsigned scheduler) const {
  uint32_t n = 0;
  for (uint8_t a : allowed_) n += a;
  return "swl: limit " + std::to_string(limit_) + ", " + std::to_string(n) + " warps allowed; " +
         gto_.describe(scheduler);
}

}  // namespace simtlm::models::sched
