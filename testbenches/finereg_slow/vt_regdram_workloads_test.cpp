// FineReg's comparison mechanisms keep every result (docs/finereg.md
// "Comparison mechanisms"): every registered workload passes its CPU check at
// small size on 2 SMs of gtx980_finereg under Virtual Thread and under
// Reg+DRAM, with the checking mode on (invariants every cycle; Reg+DRAM's
// off-chip contexts go through a poisoned image). Reg+DRAM runs with half
// the register file (gpu.sm.registers = 32768) so that it fills and
// contexts go off chip at this size. Every switch-out is switched back in.
// Slow (label `slow`): 2 runs per workload.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

double sum_of(const Device& dev, const std::string& what) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < 2; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "]." + what;
      if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
    }
  }
  return n;
}

using Param = std::tuple<std::string, std::string>;  // workload, policy
class VtRegDramWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(VtRegDramWorkloads, PassesItsCheck) {
  const auto& [name, policy] = GetParam();
  auto cfg = std::make_shared<Config>(Config::preset("gtx980_finereg"));
  cfg->apply_override("gpu.num_sms=2");
  cfg->apply_override("gpu.sm.regfile.alloc_policy=" + policy);
  cfg->apply_override("gpu.sm.regfile.finereg.check=true");
  if (policy == "regdram") cfg->apply_override("gpu.sm.registers=32768");
  cfg->validate();
  Device dev(timing_options(cfg));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << policy << ": " << check.detail;
  const std::string g = "regfile." + policy + ".";
  EXPECT_EQ(sum_of(dev, g + "switches_out"), sum_of(dev, g + "switches_in"));
  EXPECT_EQ(sum_of(dev, g + "offchip_out"), sum_of(dev, g + "offchip_in"));
  std::printf("%s %s: %.0f switches out, %.0f off chip, max resident %.0f\n", name.c_str(), policy.c_str(),
              sum_of(dev, g + "switches_out"), sum_of(dev, g + "offchip_out"), sum_of(dev, g + "max_resident_ctas"));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, VtRegDramWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(std::string("vt"), std::string("regdram"))),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace simtlm::test
