#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, RadixSortSmallPasses) { expect_small_passes("radixsort"); }
TEST(SuiteB, RadixSortCorruptedOutputFails) { expect_corruption_detected("radixsort"); }

// Every thread of every kernel runs the same instruction sequence; the only
// partially active warp instructions are the bodies of "thread < 16" (the 16
// per-digit values of a CTA: zeroing and writing the histogram, reading the
// digit offsets in the scatter), a few instructions on half a 32-wide warp
// against hundreds of full warp instructions per CTA. The Small size's last
// tile is padded, not masked. So the SIMD efficiency at warp size 32 is
// within a few percent of 1.
TEST(SuiteB, RadixSortSimdEfficiencyNearOne) {
  const double eff = small_simd_efficiency("radixsort");
  EXPECT_GT(eff, 0.95);
  EXPECT_LE(eff, 1.0);
}

// No warp primitives: the same result at warp widths 8 and 64.
TEST(SuiteB, RadixSortSameResultAtWarpWidths8And64) { expect_warp_width_independent("radixsort"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
