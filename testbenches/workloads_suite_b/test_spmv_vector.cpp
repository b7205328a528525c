#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, SpmvVectorSmallPasses) { expect_small_passes("spmv_vector"); }
TEST(SuiteB, SpmvVectorCorruptedOutputFails) { expect_corruption_detected("spmv_vector"); }
TEST(SuiteB, SpmvVectorOccupancy) {
  // 128 threads, few registers, no shared memory: CTA slots bind (8 CTAs = 1024 threads).
  const Occupancy o = c2050_occupancy("spmv_vector", "spmv_csr_vector", 128);
  EXPECT_EQ(o.smem, 0u);
  EXPECT_EQ(o.ctas(), o.by_ctas);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
