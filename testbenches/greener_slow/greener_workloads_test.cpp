// GREENER keeps results correct and never loses data (seed note 000 §7 item
// 20, ../shared/MECHANISMS.md): every registered workload passes its CPU check
// at small size on 2 SMs with gpu.sm.regfile.power.policy = greener at
// W = 1, 3, 7 and 15, at W = 3 without the run-time correction (the
// compiler's states alone must be safe too: the correction once hid a
// physical-register hazard, docs/greener.md), and with Sleep-Reg. The data-safety check of
// models/regfile/power_states.h runs on every register read: a read of a
// register gated since its last write would end the launch with a model error
// naming kernel, pc, warp and register, so passing also means it never fired.
// Slow (label `slow`): 6 runs per workload.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

// A register-file statistic summed over both SMs and every launch.
double sum_of(const Device& dev, const char* what) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < 2; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "].regfile.power." + what;
      if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
    }
  }
  return n;
}

// window 0: Sleep-Reg; correction false: GREENER's compiler states alone.
using Param = std::tuple<std::string, unsigned, bool>;
class GreenerWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(GreenerWorkloads, PassesItsCheck) {
  const auto& [name, window, correction] = GetParam();
  std::vector<std::string> keys = {"gpu.num_sms=2"};
  if (window == 0) {
    keys.push_back("gpu.sm.regfile.power.policy=sleep_reg");
  } else {
    keys.push_back("gpu.sm.regfile.power.policy=greener");
    keys.push_back("gpu.sm.regfile.power.window=" + std::to_string(window));
    keys.push_back(std::string("gpu.sm.regfile.power.runtime_correction=") + (correction ? "true" : "false"));
  }
  Device dev(timing_options(make_config(keys)));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << keys[1] << ": " << check.detail;
  // The mechanism ran: registers slept or were gated and woke up again.
  EXPECT_GT(sum_of(dev, "wakeups_from_sleep") + sum_of(dev, "wakeups_from_off"), 0.0);
  EXPECT_GT(sum_of(dev, "residency_sleep") + sum_of(dev, "residency_off"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, GreenerWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(0u, 1u, 3u, 7u, 15u), ::testing::Values(true)),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           const unsigned w = std::get<1>(info.param);
                           return std::get<0>(info.param) + (w == 0 ? std::string("_sleep_reg")
                                                                    : "_greener_w" + std::to_string(w));
                         });
INSTANTIATE_TEST_SUITE_P(CompilerStatesAlone, GreenerWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()), ::testing::Values(3u),
                                            ::testing::Values(false)),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_greener_w3_no_correction";
                         });

}  // namespace
}  // namespace simtlm::test
