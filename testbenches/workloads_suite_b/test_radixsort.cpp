#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, RadixSortSmallPasses) { expect_small_passes("radixsort"); }
TEST(SuiteB, RadixSortCorruptedOutputFails) { expect_corruption_detected("radixsort"); }

struct RadixRun {
  CheckResult check;
  uint64_t warp = 0, thread = 0;
  std::vector<uint32_t> keys, payloads;
};

RadixRun run_small(unsigned warp_size) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.warp_size = warp_size;
  Device dev(opts);
  RadixRun r;
  auto w = make("radixsort");
  if (!w) return r;
  w->setup(dev, Size::Small, 1);
  for (const LaunchStats& s : w->run(dev)) {
    r.warp += s.warp_instructions;
    r.thread += s.thread_instructions;
  }
  r.check = w->check(dev);
  const auto outs = dynamic_cast<HasOutputs&>(*w).outputs();
  r.keys = dev.download<uint32_t>(outs.at(0).ptr, outs.at(0).count);
  r.payloads = dev.download<uint32_t>(outs.at(1).ptr, outs.at(1).count);
  return r;
}

// Every thread of every kernel runs the same instruction sequence; the only
// partially active warp instructions are the bodies of "thread < 16" (the 16
// per-digit values of a CTA: zeroing and writing the histogram, reading the
// digit offsets in the scatter), a few instructions on half a 32-wide warp
// against hundreds of full warp instructions per CTA. The Small size's last
// tile is padded, not masked. So the SIMD efficiency at warp size 32 is
// within a few percent of 1.
TEST(SuiteB, RadixSortSimdEfficiencyNearOne) {
  const RadixRun r = run_small(32);
  ASSERT_TRUE(r.check.passed) << r.check.detail;
  ASSERT_GT(r.warp, 0u);
  const double eff = double(r.thread) / (double(r.warp) * 32.0);
  std::cout << "[ simd eff ] radixsort small, warp 32: " << eff << " (" << r.warp << " warp / "
            << r.thread << " thread instructions)\n";
  EXPECT_GT(eff, 0.95);
  EXPECT_LE(eff, 1.0);
}

// No warp primitives: the same result at warp widths 8 and 64.
TEST(SuiteB, RadixSortSameResultAtWarpWidths8And64) {
  const RadixRun ref = run_small(32);
  ASSERT_TRUE(ref.check.passed) << ref.check.detail;
  for (unsigned ws : {8u, 64u}) {
    const RadixRun r = run_small(ws);
    EXPECT_TRUE(r.check.passed) << "warp " << ws << ": " << r.check.detail;
    EXPECT_EQ(r.keys, ref.keys) << "warp " << ws;
    EXPECT_EQ(r.payloads, ref.payloads) << "warp " << ws;
    EXPECT_EQ(r.thread, ref.thread) << "warp " << ws;
  }
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
