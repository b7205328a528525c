#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, MemcachedSmallPasses) { expect_small_passes("memcached"); }
TEST(SuiteB, MemcachedCorruptedOutputFails) { expect_corruption_detected("memcached"); }
TEST(SuiteB, MemcachedOccupancy) {
  const Occupancy o = c2050_occupancy("memcached", "memcached_get", 256);
  EXPECT_EQ(o.smem, 0u);
  EXPECT_GE(o.ctas(), 5u);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
