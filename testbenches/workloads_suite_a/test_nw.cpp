#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, NwSmallPasses) { expect_small_passes("nw"); }
TEST(SuiteA, NwCorruptedOutputFails) { expect_corruption_detected("nw"); }
TEST(SuiteA, NwUpperScratchpadLimited) { expect_scratchpad_limited("nw", "nw_upper", 16); }
TEST(SuiteA, NwLowerScratchpadLimited) { expect_scratchpad_limited("nw", "nw_lower", 16); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
