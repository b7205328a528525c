#include "models/sched/gto.h"

#include <algorithm>

namespace simtlm::models::sched {

GtoPolicy::GtoPolicy(const PolicyParams& params)
    : sched_(params.schedulers), owner_(params.max_warps, 0), rank_(params.max_warps, 0) {}

void GtoPolicy::warp_added(const WarpInfo& warp) {
  if (warp.slot >= owner_.size()) {
    owner_.resize(warp.slot + 1, 0);
    rank_.resize(warp.slot + 1, 0);
  }
  owner_[warp.slot] = warp.scheduler;
  Sched& s = sched_[warp.scheduler];
  const Entry e{warp.age, warp.slot};
  s.by_age.insert(std::upper_bound(s.by_age.begin(), s.by_age.end(), e,
                                   [](const Entry& a, const Entry& b) { return a.age < b.age; }),
                  e);
  s.warps_changed = true;
  s.stale = true;
}

void GtoPolicy::warp_removed(uint32_t slot) {
  Sched& s = sched_[owner_[slot]];
  s.by_age.erase(std::remove_if(s.by_age.begin(), s.by_age.end(), [slot](const Entry& e) { return e.slot == slot; }),
                 s.by_age.end());
  if (s.greedy == static_cast<int64_t>(slot)) s.greedy = -1;
  s.warps_changed = true;
  s.stale = true;
}

const std::vector<uint32_t>& GtoPolicy::order(unsigned scheduler, uint64_t) {
  Sched& s = sched_[scheduler];
  if (!s.stale) return s.order;
  if (s.warps_changed) {
    s.age_slots.clear();
    for (const Entry& e : s.by_age) {
      rank_[e.slot] = static_cast<uint32_t>(s.age_slots.size());
      s.age_slots.push_back(e.slot);
    }
    s.warps_changed = false;
  }
  // order = greedy, then the age order without it.
  s.order.resize(s.age_slots.size());
  if (s.greedy < 0) {
    std::copy(s.age_slots.begin(), s.age_slots.end(), s.order.begin());
  } else {
    const uint32_t g = static_cast<uint32_t>(s.greedy);
    const auto at = s.age_slots.begin() + rank_[g];
    s.order[0] = g;
    std::copy(s.age_slots.begin(), at, s.order.begin() + 1);
    std::copy(at + 1, s.age_slots.end(), s.order.begin() + (at - s.age_slots.begin()) + 1);
  }
  s.stale = false;
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
