#include "models/sched/owf.h"

#include <algorithm>

namespace simtlm::models::sched {

OwfPolicy::OwfPolicy(const PolicyParams& params)
    : by_age_(params.schedulers), scheduler_of_(params.max_warps, 0) {}

void OwfPolicy::warp_added(const WarpInfo& warp) {
  if (warp.slot >= scheduler_of_.size()) scheduler_of_.resize(warp.slot + 1, 0);
  scheduler_of_[warp.slot] = warp.scheduler;
  std::vector<Entry>& v = by_age_[warp.scheduler];
  const Entry e{warp.age, warp.slot, warp.cta_slot};
  v.insert(std::upper_bound(v.begin(), v.end(), e, [](const Entry& a, const Entry& b) { return a.age < b.age; }), e);
}

void OwfPolicy::warp_removed(uint32_t slot) {
  std::vector<Entry>& v = by_age_[scheduler_of_[slot]];
  v.erase(std::remove_if(v.begin(), v.end(), [slot](const Entry& e) { return e.slot == slot; }), v.end());
}

const std::vector<uint32_t>& OwfPolicy::order(unsigned scheduler, uint64_t) {
  // Ownership changes with lock acquisitions the policy does not see: the
  // order is rebuilt on every call, one pass per class over the age order.
  const std::vector<Entry>& v = by_age_[scheduler];
  order_.clear();
  for (SharingClass c : {SharingClass::Owner, SharingClass::Unshared, SharingClass::NonOwner}) {
    for (const Entry& e : v) {
      if (class_of(e.cta_slot) == c) order_.push_back(e.slot);
    }
  }
  return order_;
}

std::string OwfPolicy::describe(unsigned scheduler) const {
  return "owf: " + std::to_string(by_age_[scheduler].size()) + " warps" +
         (classes_ ? "" : " (no sharing allocator: oldest first)");
}

}  // namespace simtlm::models::sched
