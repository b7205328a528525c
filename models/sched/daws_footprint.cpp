#include "models/sched/daws_footprint.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace simtlm::models::sched {

uint64_t DawsLoopFootprint::lines(uint32_t n) const {
  if (n == 0) return 0;
  if (n == 1) return uint64_t{diverged_groups} + converged_groups;
  return uint64_t{diverged_groups} * n + uint64_t{converged_groups} * 2;
}

DawsLoopFootprint summarize_loads(const std::vector<DawsLoad>& loads) {
  std::map<uint32_t, bool> groups;  // rep -> any diverged member
  for (const DawsLoad& l : loads) groups[l.rep] = groups[l.rep] || l.diverged;
  DawsLoopFootprint f;
  for (const auto& [rep, diverged] : groups) (diverged ? f.diverged_groups : f.converged_groups) += 1;
  return f;
}

std::vector<uint8_t> daws_admit(const std::vector<DawsCandidate>& warps, double eff_lines) {
  std::vector<uint8_t> can(warps.size(), 1);
  uint64_t largest = 0;
  for (const DawsCandidate& w : warps) largest = std::max(largest, w.footprint);
  if (static_cast<double>(largest) >= eff_lines) return can;  // one warp alone overflows: unthrottled
  std::vector<uint32_t> by_age(warps.size());
  std::iota(by_age.begin(), by_age.end(), 0u);
  std::sort(by_age.begin(), by_age.end(), [&](uint32_t a, uint32_t b) {
    return warps[a].age != warps[b].age ? warps[a].age < warps[b].age : warps[a].slot < warps[b].slot;
  });
  uint64_t sum = 0;
  for (uint32_t i : by_age) {
    if (warps[i].footprint == 0) continue;
    sum += warps[i].footprint;
    can[i] = static_cast<double>(sum) < eff_lines ? 1 : 0;
  }
  return can;
}

}  // namespace simtlm::models::sched
