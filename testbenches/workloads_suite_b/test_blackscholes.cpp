#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, BlackScholesSmallPasses) { expect_small_passes("blackscholes"); }
TEST(SuiteB, BlackScholesCorruptedOutputFails) { expect_corruption_detected("blackscholes"); }
TEST(SuiteB, BlackScholesCtaLimited) {
  expect_thread_or_cta_limited("blackscholes", "blackscholes", 128);
}

}  // namespace
}  // namespace simtlm::workloads::suite_b
