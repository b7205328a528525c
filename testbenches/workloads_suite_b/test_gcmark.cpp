#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, GcMarkSmallPasses) { expect_small_passes("gcmark"); }
TEST(SuiteB, GcMarkSmallPassesSeed3) { expect_small_passes("gcmark", 3); }
TEST(SuiteB, GcMarkCorruptedOutputFails) { expect_corruption_detected("gcmark"); }
TEST(SuiteB, GcMarkOccupancy) {
  const Occupancy o = c2050_occupancy("gcmark", "gc_mark", 256);
  EXPECT_EQ(o.smem, 0u);
  EXPECT_GE(o.ctas(), 5u);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
