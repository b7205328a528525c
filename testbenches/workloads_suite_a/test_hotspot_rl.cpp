#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, HotspotRlSmallPasses) { expect_small_passes("hotspot_rl"); }
TEST(SuiteA, HotspotRlCorruptedOutputFails) { expect_corruption_detected("hotspot_rl"); }
TEST(SuiteA, HotspotRlRegisterLimited) { expect_register_limited("hotspot_rl", "hotspot_rl", 256); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
