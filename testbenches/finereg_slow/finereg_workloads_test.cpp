// FineReg never loses a live register (seed note 004 §7 invariants 1-2,
// ../shared/MECHANISMS.md): every registered workload passes its CPU check at
// small size on 2 SMs of gtx980_finereg, with the checking mode on (every
// switched-out CTA's registers go through the PCRF, all of them poisoned in
// between, and every restored live register is compared with its saved
// value; the state machine and PCRF invariants are checked every cycle), at
// three ACRF/PCRF splits of the seed's sensitivity range (64/192, 128/128,
// 192/64 KB). Every switch-out and every CTA launched pending beyond the
// active limits (PEND_ACRF) was switched back in by the end (invariant 13). Slow (label `slow`): 3 runs per workload.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

double sum_of(const Device& dev, const char* what) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < 2; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "].regfile.finereg." + what;
      if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
    }
  }
  return n;
}

using Param = std::tuple<std::string, unsigned>;  // workload, ACRF KB
class FineRegWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(FineRegWorkloads, PassesItsCheck) {
  const auto& [name, acrf_kb] = GetParam();
  auto cfg = std::make_shared<Config>(Config::preset("gtx980_finereg"));
  cfg->apply_override("gpu.num_sms=2");
  cfg->apply_override("gpu.sm.regfile.finereg.check=true");
  cfg->apply_override("gpu.sm.regfile.finereg.acrf_bytes=" + std::to_string(acrf_kb * 1024));
  cfg->apply_override("gpu.sm.regfile.finereg.pcrf_bytes=" + std::to_string((256 - acrf_kb) * 1024));
  cfg->validate();
  Device dev(timing_options(cfg));
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << "ACRF " << acrf_kb << " KB: " << check.detail;
  // Every CTA that went pending (switched out, or launched pending beyond
  // the active limits) was switched back in.
  EXPECT_EQ(sum_of(dev, "switches_out") + sum_of(dev, "launches_pending"), sum_of(dev, "switches_in"));
  EXPECT_EQ(sum_of(dev, "registers_out"), sum_of(dev, "registers_in"));
  std::printf("%s acrf %u KB: %.0f switches out (%.0f context only), %.0f launched pending, %.0f registers moved, "
              "%.0f checked, max resident %.0f\n",
              name.c_str(), acrf_kb, sum_of(dev, "switches_out"), sum_of(dev, "context_only_outs"),
              sum_of(dev, "launches_pending"), sum_of(dev, "registers_out"), sum_of(dev, "checked_registers"),
              sum_of(dev, "max_resident_ctas"));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, FineRegWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(64u, 128u, 192u)),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_acrf" + std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace simtlm::test
