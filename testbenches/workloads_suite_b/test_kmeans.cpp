#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, KmeansSmallPasses) { expect_small_passes("kmeans"); }
TEST(SuiteB, KmeansCorruptedOutputFails) { expect_corruption_detected("kmeans"); }
TEST(SuiteB, KmeansOccupancy) {
  const Occupancy o = c2050_occupancy("kmeans", "kmeans_assign", 256);
  EXPECT_EQ(o.smem, 0u);
  EXPECT_GE(o.ctas(), 5u);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
