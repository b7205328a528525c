#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, Histogram256SmallPasses) { expect_small_passes("histogram256"); }
TEST(SuiteA, Histogram256CorruptedOutputFails) { expect_corruption_detected("histogram256"); }
TEST(SuiteA, Histogram256PartialScratchpadLimited) {
  expect_scratchpad_limited("histogram256", "hist256_partial", 192);
}

}  // namespace
}  // namespace simtlm::workloads::suite_a
