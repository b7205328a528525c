#include <cstring>

#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, Fft1dSmallPasses) { expect_small_passes("fft1d"); }
TEST(SuiteB, Fft1dCorruptedOutputFails) { expect_corruption_detected("fft1d"); }

struct FftRun {
  CheckResult check;
  uint64_t warp = 0, thread = 0;
  std::vector<float> y;
};

FftRun run_small(unsigned warp_size) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.warp_size = warp_size;
  Device dev(opts);
  FftRun r;
  auto w = make("fft1d");
  if (!w) return r;
  w->setup(dev, Size::Small, 1);
  for (const LaunchStats& s : w->run(dev)) {
    r.warp += s.warp_instructions;
    r.thread += s.thread_instructions;
  }
  r.check = w->check(dev);
  const OutputBuffer b = dynamic_cast<HasOutputs&>(*w).outputs().at(0);
  r.y = dev.download<float>(b.ptr, b.count);
  return r;
}

// One thread per butterfly running straight-line code (the bounds test is
// uniform: the Small size's 512 butterflies per stage fill 2 CTAs of 256
// threads, a multiple of any warp width up to 64), so every warp instruction
// has all 32 lanes active: SIMD efficiency 1.
TEST(SuiteB, Fft1dSimdEfficiencyIsOne) {
  const FftRun r = run_small(32);
  ASSERT_TRUE(r.check.passed) << r.check.detail;
  ASSERT_GT(r.warp, 0u);
  const double eff = double(r.thread) / (double(r.warp) * 32.0);
  std::cout << "[ simd eff ] fft1d small, warp 32: " << eff << " (" << r.warp << " warp / "
            << r.thread << " thread instructions)\n";
  EXPECT_GT(eff, 0.999);
  EXPECT_LE(eff, 1.0);
}

// Per-thread straight-line code: bit-identical outputs at warp widths 8 and 64.
TEST(SuiteB, Fft1dSameResultAtWarpWidths8And64) {
  const FftRun ref = run_small(32);
  ASSERT_TRUE(ref.check.passed) << ref.check.detail;
  for (unsigned ws : {8u, 64u}) {
    const FftRun r = run_small(ws);
    EXPECT_TRUE(r.check.passed) << "warp " << ws << ": " << r.check.detail;
    ASSERT_EQ(r.y.size(), ref.y.size());
    EXPECT_EQ(0, std::memcmp(r.y.data(), ref.y.data(), r.y.size() * sizeof(float)))
        << "warp " << ws;
    EXPECT_EQ(r.thread, ref.thread) << "warp " << ws;
  }
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
