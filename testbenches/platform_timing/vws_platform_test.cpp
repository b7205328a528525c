// The vws platform (platforms/vws/, sim.platform = vws) built from its
// presets: it is registered by name, builds SMs shaped by gpu.vws.* and runs
// a kernel to its CPU check in both modes built so far.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "platforms/common/platform_registry.h"
#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

std::shared_ptr<Config> preset_config(const std::string& preset) {
  auto cfg = std::make_shared<Config>(Config::preset(preset));
  cfg->apply_override("gpu.num_sms=2");
  cfg->validate();
  return cfg;
}

TEST(VwsPlatform, IsRegistered) {
  const std::vector<std::string> names = platforms::platform_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "vws"), names.end());
}

// vectorAdd at small size on a preset (2 SMs), checked against the CPU.
std::vector<LaunchStats> run_vector_add(const std::string& preset) {
  Device dev(timing_options(preset_config(preset)));
  auto w = workloads::WorkloadRegistry::create("vectorAdd");
  w->setup(dev, workloads::Size::Small, 1);
  std::vector<LaunchStats> runs = w->run(dev);
  EXPECT_TRUE(w->check(dev).passed) << preset;
  return runs;
}

// The slice-only machine runs 4-wide warps: every instruction has at most 4
// active lanes.
TEST(VwsPlatform, SliceModeRunsAWorkloadToItsCheck) {
  const std::vector<LaunchStats> runs = run_vector_add("vws_ws4");
  ASSERT_FALSE(runs.empty());
  const LaunchStats& s = runs.front();
  EXPECT_GT(s.warp_instructions, 0u);
  EXPECT_LE(s.thread_instructions, 4 * s.warp_instructions);
  EXPECT_GT(s.thread_instructions, 3 * s.warp_instructions);  // vectorAdd hardly diverges
}

// Slice mode has the VWS statistics that mean something without the ganging
// unit: fetches per slice (summing to the SM's fetches, every slice fetching
// for vectorAdd's 8-warp groups), fetches per cycle, active lanes per issued
// instruction. (Ganged mode, the baseline SM, has none of them:
// CliTest.VwsGangedModeEqualsTheBaselineGpu compares it with the gpu platform.)
TEST(VwsPlatform, SliceModeHasPerSliceStatistics) {
  const std::vector<LaunchStats> runs = run_vector_add("vws_ws4");
  ASSERT_FALSE(runs.empty());
  const LaunchStats& s = runs.front();
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  ASSERT_TRUE(j.contains("gpu.sm[0].vws.slice_fetches"));
  const std::vector<double> per_slice = j["gpu.sm[0].vws.slice_fetches"].get<std::vector<double>>();
  ASSERT_EQ(per_slice.size(), 8u);
  double sum = 0;
  for (double f : per_slice) {
    EXPECT_GT(f, 0);
    sum += f;
  }
  EXPECT_EQ(sum, stat(s, "gpu.sm[0].fetches"));
  EXPECT_DOUBLE_EQ(stat(s, "gpu.sm[0].vws.lanes_per_issue"),
                   stat(s, "gpu.sm[0].thread_instructions") / stat(s, "gpu.sm[0].warp_instructions"));
  EXPECT_DOUBLE_EQ(stat(s, "gpu.sm[0].vws.fetches_per_cycle"),
                   stat(s, "gpu.sm[0].fetches") / stat(s, "gpu.sm[0].active_cycles"));
}

// Ganged: 32-wide warps, at most one fetch per cycle.
TEST(VwsPlatform, GangedModeRunsAWorkloadToItsCheck) {
  const std::vector<LaunchStats> runs = run_vector_add("vws_ws32");
  ASSERT_FALSE(runs.empty());
  EXPECT_GT(runs.front().thread_instructions, 30 * runs.front().warp_instructions);  // 32-wide warps
  EXPECT_LE(stat(runs.front(), "gpu.sm[0].fetches"), stat(runs.front(), "gpu.sm[0].active_cycles"));
}

}  // namespace
}  // namespace simtlm::test
