// relssp on the timing model keeps results correct (Jatala ch. 3; seed note
// 000 §7 items 10 and 19): every workload passes its CPU check with placement
// opt and postdom under scratchpad sharing (16 KB per SM, the thesis's
// setting) and owf, on 2 SMs at small size. The locks given back early are
// counted, so that the test shows relssp acted, not only that nothing broke.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

double stat_sum(const LaunchStats& s, const char* what) {
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  double n = 0;
  for (int sm = 0; sm < 2; ++sm) {
    const std::string key = "gpu.sm[" + std::to_string(sm) + "].smem.sharing." + what;
    if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
  }
  return n;
}

using Param = std::tuple<std::string, std::string>;
class RelsspWorkloads : public ::testing::TestWithParam<Param> {};

// One timing device per process: one test per workload and placement.
TEST_P(RelsspWorkloads, PassesItsCheck) {
  const auto& [name, placement] = GetParam();
  Device dev(timing_options(make_config({"gpu.num_sms=2", "gpu.sm.scheduler.policy=owf",
                                         "gpu.sm.smem.alloc_policy=sharing", "gpu.sm.shared_memory_bytes=16384",
                                         "frontend.relssp.placement=" + placement})));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << placement << ": " << check.detail;
  double early = 0, completions = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    early += stat_sum(s, "lock_early_releases");
    completions += stat_sum(s, "relssp_completions");
  }
  std::printf("%s %s: %ld CTAs released by relssp, %ld of them early while holding the lock\n", name.c_str(),
              placement.c_str(), static_cast<long>(completions), static_cast<long>(early));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, RelsspWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values("opt", "postdom")),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace simtlm::test
