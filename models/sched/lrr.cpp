#include "models/sched/lrr.h"

#include <algorithm>

#include "models/sched/orderings.h"

namespace simtlm::models::sched {

LrrPolicy::LrrPolicy(const PolicyParams& params) : sched_(params.schedulers), owner_(params.max_warps, 0) {}

void LrrPolicy::warp_added(const WarpInfo& warp) {
  if (warp.slot >= owner_.size()) owner_.resize(warp.slot + 1, 0);
  owner_[warp.slot] = warp.scheduler;
  auto& v = sched_[warp.scheduler].warps;
  v.insert(std::upper_bound(v.begin(), v.end(), warp.slot), warp.slot);
  sched_[warp.scheduler].stale = true;
}

void LrrPolicy::warp_removed(uint32_t slot) {
  auto& v = sched_[owner_[slot]].warps;
  auto it = std::lower_bound(v.begin(), v.end(), slot);
  if (it != v.end() && *it == slot) v.erase(it);
  sched_[owner_[slot]].stale = true;
}

const std::vector<uint32_t>& LrrPolicy::order(unsigned scheduler, uint64_t) {
  Sched& s = sched_[scheduler];
  std::vector<uint32_t>& out = s.order;
  if (!s.stale) return out;
  s.stale = false;
  round_robin_after(s.warps, s.last, out);
  return out;
}

void LrrPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass, uint64_t) {
  Sched& s = sched_[scheduler];
  if (s.last != static_cast<int64_t>(slot)) {
    s.last = slot;
    s.stale = true;
  }
}

std::string LrrPolicy::describe(unsigned scheduler) const {
  const Sched& s = sched_[scheduler];
  return "lrr: " + std::to_string(s.warps.size()) + " warps, last issued slot " +
         (s.last < 0 ? std::string("none") : std::to_string(s.last));
}

}  // namespace simtlm::models::sched
