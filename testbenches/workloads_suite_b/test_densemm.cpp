#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, DenseMmSmallPasses) { expect_small_passes("densemm"); }
TEST(SuiteB, DenseMmCorruptedOutputFails) { expect_corruption_detected("densemm"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
