// Cache-conscious scheduling keeps results correct (../shared/MECHANISMS.md,
// seed note 002 §15): every registered workload passes its CPU check under
// swl (limit 4), ccws (Table 3.3 values) and detected daws (Table 4.4
// values), on gtx285_ccws and on gtx480,
// with 2 SMs at small size. One timing device per process: one test per
// workload, preset and policy.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

// VTA hits of a launch, all SMs (the counter exists only under ccws).
double vta_hits_of(const LaunchStats& s) {
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  double n = 0;
  for (int sm = 0; sm < 2; ++sm) {
    const std::string key = "gpu.sm[" + std::to_string(sm) + "].scheduler.ccws.vta_hits";
    if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
  }
  return n;
}

using Param = std::tuple<std::string, std::string, std::string>;
class LocalitySchedWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(LocalitySchedWorkloads, PassesItsCheck) {
  const auto& [name, preset, policy] = GetParam();
  auto cfg = std::make_shared<Config>(Config::preset(preset));
  cfg->apply_override("gpu.num_sms=2");
  cfg->apply_override("gpu.sm.scheduler.policy=" + policy);
  if (policy == "swl") cfg->apply_override("gpu.sm.scheduler.swl.warp_limit=4");
  cfg->validate();
  Device dev(timing_options(cfg));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << preset << ", " << policy << ": " << check.detail;
  double hits = 0;
  for (const LaunchStats& s : dev.launch_history()) hits += vta_hits_of(s);
  std::printf("%s %s %s: %ld VTA hits\n", name.c_str(), preset.c_str(), policy.c_str(), static_cast<long>(hits));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, LocalitySchedWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values("gtx285_ccws", "gtx480"),
                                            ::testing::Values("swl", "ccws", "daws")),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param) + "_" +
                                  std::get<2>(info.param);
                         });

}  // namespace
}  // namespace simtlm::test
