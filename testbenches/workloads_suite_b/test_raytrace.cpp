// raytrace: Small passes, a corrupted hit id is detected, the kernel is
// divergent (SIMD efficiency at warp size 32 clearly below 1) and its outputs
// do not depend on the warp width.
#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, RayTraceSmallPasses) { expect_small_passes("raytrace"); }
TEST(SuiteB, RayTraceCorruptedOutputFails) { expect_corruption_detected("raytrace"); }

// About two thirds of the Small image is background. A background lane leaves
// after a few box tests, while a lane of the same warp whose ray hits walks a
// root-to-leaf path per visited subtree (depth 6, typically several leaves)
// and then casts a shadow ray: the warp issues the longest lane's walk with
// most lanes idle, and even lanes that all traverse are split between the
// interior-node and the leaf branch at each step. A fully converged warp
// would reach 1; the bound leaves a wide margin above what the algorithm can
// give.
TEST(SuiteB, RayTraceIsDivergent) { EXPECT_LT(small_simd_efficiency("raytrace"), 0.8); }

// No warp-level primitives: every thread computes the same values in the same
// order at any warp width, so the outputs are bit-identical.
TEST(SuiteB, RayTraceWarpWidthIndependent) { expect_warp_width_independent("raytrace"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
