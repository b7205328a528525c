#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, SpuStencilSmallPasses) { expect_small_passes("spu_stencil"); }
TEST(SuiteB, SpuStencilSmallPassesSeed7) { expect_small_passes("spu_stencil", 7); }
TEST(SuiteB, SpuStencilCorruptedOutputFails) { expect_corruption_detected("spu_stencil"); }
TEST(SuiteB, SpuStencilOccupancy) {
  // 8 x 8 threads and 12.3 KB of staging/edge buffers: shared memory binds (3 CTAs).
  const Occupancy o = c2050_occupancy("spu_stencil", "spu_stencil_diag", 64);
  EXPECT_EQ(o.smem, 12544u);
  EXPECT_EQ(o.ctas(), o.by_smem);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
