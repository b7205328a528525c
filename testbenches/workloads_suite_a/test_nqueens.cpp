#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, NqueensSmallPasses) { expect_small_passes("nqueens"); }
TEST(SuiteA, NqueensCorruptedOutputFails) { expect_corruption_detected("nqueens"); }
TEST(SuiteA, NqueensSearchScratchpadLimited) {
  expect_scratchpad_limited("nqueens", "nqueens_search", 96);
}

}  // namespace
}  // namespace simtlm::workloads::suite_a
