#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, LavamdSmallPasses) { expect_small_passes("lavamd"); }
TEST(SuiteA, LavamdCorruptedOutputFails) { expect_corruption_detected("lavamd"); }
TEST(SuiteA, LavamdScratchpadLimited) { expect_scratchpad_limited("lavamd", "lavamd", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
