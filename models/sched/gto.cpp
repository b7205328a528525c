#include "models/sched/gto.h"

#include <algorithm>

namespace simtlm::models::sched {

GtoPolicy::GtoPolicy(const PolicyParams& params) : sched_(params.schedulers), owner_(params.max_warps, 0) {}

void GtoPolicy::warp_added(const WarpInfo& warp) {
  if (warp.slot >= owner_.size()) owner_.resize(warp.slot + 1, 0);
  owner_[warp.slot] = warp.scheduler;
  auto& v = sched_[warp.scheduler].by_age;
  const Entry e{warp.age, warp.slot};
  v.insert(std::upper_bound(v.begin(), v.end(), e, [](const Entry& a, const Entry& b) { return a.age < b.age; }), e);
  sched_[warp.scheduler].stale = true;
}

void GtoPolicy::warp_removed(uint32_t slot) {
  Sched& s = sched_[owner_[slot]];
  s.by_age.erase(std::remove_if(s.by_age.begin(), s.by_age.end(), [slot](const Entry& e) { return e.slot == slot; }),
                 s.by_age.end());
  if (s.greedy == static_cast<int64_t>(slot)) s.greedy = -1;
  s.stale = true;
}

const std::vector<uint32_t>& GtoPolicy::order(unsigned scheduler, uint64_t) {
  Sched& s = sched_[scheduler];
  if (s.stale) {
    s.order.clear();
    if (s.greedy >= 0) s.order.push_back(static_cast<uint32_t>(s.greedy));
    for (const Entry& e : s.by_age) {
      if (static_cast<int64_t>(e.slot) != s.greedy) s.order.push_back(e.slot);
    }
    s.stale = false;
  }
  return s.order;
}

void GtoPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass, uint64_t) {
  Sched& s = sched_[scheduler];
  if (s.greedy != static_cast<int64_t>(slot)) {
    s.greedy = slot;
    s.stale = true;
  }
}

std::string GtoPolicy::describe(unsigned scheduler) const {
  const Sched& s = sched_[scheduler];
  return "gto: " + std::to_string(s.by_age.size()) + " warps, greedy slot " +
         (s.greedy < 0 ? std::string("none") : std::to_string(s.greedy));
}

}  // namespace simtlm::models::sched
