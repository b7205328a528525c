// Resource sharing keeps results correct (../shared/MECHANISMS.md, seed note
// 000 §7 item 19): every registered workload passes its CPU check with
// register sharing, with scratchpad sharing (16 KB of shared memory per SM,
// the thesis's scratchpad-sharing setting) and with both, under lrr, gto and
// owf, and with register sharing plus declaration reordering and Dynamic
// Warp Execution under lrr and owf, on 2 SMs at small size. The pairs formed over the suite are counted so
// that the test shows sharing happened, not only that nothing broke.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

struct Mode {
  const char* name;
  std::vector<std::string> keys;
};

const Mode kModes[] = {
    {"registers", {"gpu.sm.regfile.alloc_policy=sharing"}},
    {"scratchpad", {"gpu.sm.smem.alloc_policy=sharing", "gpu.sm.shared_memory_bytes=16384"}},
    {"both",
     {"gpu.sm.regfile.alloc_policy=sharing", "gpu.sm.smem.alloc_policy=sharing", "gpu.sm.shared_memory_bytes=16384"}},
    // With the register declaration reordering (§2.3.2) and Dynamic Warp
    // Execution (§2.3.3); a short window so that the probabilities move
    // within small launches.
    {"registers_unroll_dyn",
     {"gpu.sm.regfile.alloc_policy=sharing", "gpu.sm.regfile.sharing_reorder=true",
      "gpu.sm.regfile.sharing_dyn.enabled=true", "gpu.sm.regfile.sharing_dyn.window=100"}},
};

// CTA pairs formed in a launch (the statistic exists only with the allocator).
double pairs_of(const LaunchStats& s, const char* kind) {
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  double n = 0;
  for (int sm = 0; sm < 2; ++sm) {
    const std::string key = "gpu.sm[" + std::to_string(sm) + "]." + kind + ".sharing.pairs";
    if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
  }
  return n;
}

// One timing device per process: one test per workload, kind of sharing and policy.
using Param = std::tuple<std::string, size_t, std::string>;
class SharingWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(SharingWorkloads, PassesItsCheck) {
  const auto& [name, mode_index, policy] = GetParam();
  const Mode& mode = kModes[mode_index];
  std::vector<std::string> keys = {"gpu.num_sms=2", "gpu.sm.scheduler.policy=" + policy};
  keys.insert(keys.end(), mode.keys.begin(), mode.keys.end());
  Device dev(timing_options(make_config(keys)));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << mode.name << " sharing, " << policy << ": " << check.detail;
  double pairs = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    pairs += pairs_of(s, "regfile") + pairs_of(s, "smem");
    // Dynamic Warp Execution: SM 0, the reference, lets no gated instruction through (§7 item 14).
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    const char* const key = "gpu.sm[0].regfile.sharing.dyn.passed_memory_instructions";
    if (j.contains(key)) {
      EXPECT_EQ(j[key].get<double>(), 0.0) << mode.name << ", " << policy;
    }
  }
  RecordProperty("pairs", std::to_string(static_cast<long>(pairs)));
  std::printf("%s %s %s: %ld CTA pairs formed\n", name.c_str(), mode.name, policy.c_str(), static_cast<long>(pairs));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, SharingWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(size_t{0}, size_t{1}, size_t{2}),
                                            ::testing::Values("lrr", "gto", "owf")),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + kModes[std::get<1>(info.param)].name + "_" +
                                  std::get<2>(info.param);
                         });

INSTANTIATE_TEST_SUITE_P(AllWorkloadsUnrollDyn, SharingWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(size_t{3}), ::testing::Values("lrr", "owf")),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + kModes[std::get<1>(info.param)].name + "_" +
                                  std::get<2>(info.param);
                         });

}  // namespace
}  // namespace simtlm::test
