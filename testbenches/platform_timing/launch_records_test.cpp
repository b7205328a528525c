// DeviceOptions::launch_records on the timing backend: the device keeps the
// records of the last N launches only (history and per-kernel statistics
// windows), while launch() still returns every launch's figures and the
// statistics total still covers every launch.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbenches/platform_timing/platform_harness.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm {
namespace {

TEST(LaunchRecords, TimingDeviceKeepsTheLastLaunchesAndTheFullTotal) {
  DeviceOptions opt = test::timing_options(test::make_config({}));
  opt.launch_records = 2;
  Device dev(opt);
  const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  const uint32_t max_n = 5 * 256;
  std::vector<float> a(max_n, 1.0f), b(max_n, 2.0f);
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(max_n * 4);
  std::vector<LaunchStats> returned;
  for (uint32_t k = 1; k <= 5; ++k) {
    // Launch k has k CTAs, so every launch has its own instruction count.
    LaunchConfig lc;
    lc.grid = Dim3(k);
    lc.block = Dim3(256);
    returned.push_back(dev.launch(h, "vec_add", lc, KernelArgs().add(da).add(db).add(dc).add(k * 256)));
  }
  uint64_t all_instructions = 0;
  for (const LaunchStats& s : returned) all_instructions += s.warp_instructions;

  const std::vector<LaunchStats>& kept = dev.launch_history();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].ctas, 4u);
  EXPECT_EQ(kept[0].warp_instructions, returned[3].warp_instructions);
  EXPECT_EQ(kept[1].ctas, 5u);
  EXPECT_EQ(kept[1].stats_json(), returned[4].stats_json());

  const nlohmann::json j = nlohmann::json::parse(dev.backend_stats_json());
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["index"], 3);
  EXPECT_EQ(j["kernels"][1]["index"], 4);
  EXPECT_EQ(j["kernels"][1]["stats"]["gpu.warp_instructions"].get<uint64_t>(), returned[4].warp_instructions);
  EXPECT_EQ(j["kernels_dropped"], 3);
  EXPECT_EQ(j["total"]["gpu.launches"].get<uint64_t>(), 5u);
  EXPECT_EQ(j["total"]["gpu.warp_instructions"].get<uint64_t>(), all_instructions);
}

TEST(LaunchRecords, ZeroKeepsEveryLaunch) {
  Device dev(test::timing_options(test::make_config({})));
  const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::vector<float> a(256, 1.0f);
  const DevicePtr da = dev.upload(a), dc = dev.malloc(256 * 4);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(256);
  for (int k = 0; k < 3; ++k) dev.launch(h, "vec_add", lc, KernelArgs().add(da).add(da).add(dc).add(256u));
  EXPECT_EQ(dev.launch_history().size(), 3u);
  const nlohmann::json j = nlohmann::json::parse(dev.backend_stats_json());
  EXPECT_EQ(j["kernels"].size(), 3u);
  EXPECT_FALSE(j.contains("kernels_dropped"));
}

}  // namespace
}  // namespace simtlm
