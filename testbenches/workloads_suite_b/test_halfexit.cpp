#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, HalfExitSmallPasses) { expect_small_passes("halfexit"); }
TEST(SuiteB, HalfExitCorruptedOutputFails) { expect_corruption_detected("halfexit"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
