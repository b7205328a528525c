// Helpers of the mixed-mode tests (test_mixed_mode.cpp, test_sync_l0.cpp):
// the VWS SM in mixed mode on SmBench, a ganging unit's parameters, and
// checks over the issue trace.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "models/vws/ganging_unit.h"
#include "models/vws/vws_params.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {

using vws::GangingParams;
using vws::GangingUnit;
using vws::kNoGang;

inline SmParams mixed_params(bool l1d = false) {
  SmParams base = test_params();
  base.warp_size = 4;
  base.schedulers = 1;
  base.max_threads = 1024;
  base.l1d_enabled = l1d;
  vws::VwsParams v;
  v.mode = vws::Mode::Mixed;
  return vws::vws_sm_params(base, v);
}

inline GangingParams ganging(const SmParams& p, uint32_t gangs_per_cycle = 2, vws::Reform reform = vws::Reform::None,
                      vws::MemSplit split = vws::MemSplit::None) {
  GangingParams g;
  g.slices = 8;
  g.warp_slots = p.resident_warps();
  g.fetch_ports = 8;
  g.gangs_per_cycle = gangs_per_cycle;
  g.reform = reform;
  g.mem_split = split;
  return g;
}

// Per warp slot, the cycles of its issues in order.
inline std::map<uint32_t, std::vector<uint64_t>> issue_cycles(const std::vector<IssueRecord>& trace) {
  std::map<uint32_t, std::vector<uint64_t>> m;
  for (const IssueRecord& r : trace) m[r.warp_slot].push_back(r.cycle);
  return m;
}

// No slice issues twice in a cycle (gangs issued together have disjoint
// masks, and a slice used by a gang issues nothing else).
inline void expect_one_issue_per_slice_and_cycle(const std::vector<IssueRecord>& trace) {
  std::set<std::pair<uint64_t, uint32_t>> seen;
  for (const IssueRecord& r : trace) {
    EXPECT_TRUE(seen.emplace(r.cycle, r.scheduler).second) << "slice " << r.scheduler << " twice in cycle " << r.cycle;
  }
}

}  // namespace simtlm::models::test
