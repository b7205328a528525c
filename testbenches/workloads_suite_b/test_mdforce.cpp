// mdforce: Small passes, a corrupted force component is detected, the kernel is
// divergent (SIMD efficiency at warp size 32 clearly below 1) and its outputs
// do not depend on the warp width.
#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, MdForceSmallPasses) { expect_small_passes("mdforce"); }
TEST(SuiteB, MdForceCorruptedOutputFails) { expect_corruption_detected("mdforce"); }

// Trip counts differ strongly between the lanes of a warp: a liquid atom
// (density 0.75) lists about 0.75 * 4/3 pi 2.8^3 = 69 neighbours within cutoff
// plus skin, a gas atom (density 0.08) about 7, and atoms are in random order,
// so nearly every warp holds a liquid atom and runs the loop for it while its
// gas (and droplet-surface) lanes idle; on top, 1 - (2.5/2.8)^3 = 29% of the
// listed pairs fail the cutoff test and idle their lane for the force
// arithmetic. The loop dominates the kernel, so the efficiency stays well
// below the bound (a fully converged warp would reach 1).
TEST(SuiteB, MdForceIsDivergent) { EXPECT_LT(small_simd_efficiency("mdforce"), 0.8); }

// No warp-level primitives: every thread computes the same values in the same
// order at any warp width, so the outputs are bit-identical.
TEST(SuiteB, MdForceWarpWidthIndependent) { expect_warp_width_independent("mdforce"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
