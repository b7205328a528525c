#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, Fft1dSmallPasses) { expect_small_passes("fft1d"); }
TEST(SuiteB, Fft1dCorruptedOutputFails) { expect_corruption_detected("fft1d"); }

// One thread per butterfly running straight-line code (the bounds test is
// uniform: the Small size's 512 butterflies per stage fill 2 CTAs of 256
// threads, a multiple of any warp width up to 64), so every warp instruction
// has all 32 lanes active: SIMD efficiency 1.
TEST(SuiteB, Fft1dSimdEfficiencyIsOne) {
  const double eff = small_simd_efficiency("fft1d");
  EXPECT_GT(eff, 0.999);
  EXPECT_LE(eff, 1.0);
}

// Per-thread straight-line code: bit-identical outputs at warp widths 8 and 64.
TEST(SuiteB, Fft1dSameResultAtWarpWidths8And64) { expect_warp_width_independent("fft1d"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
