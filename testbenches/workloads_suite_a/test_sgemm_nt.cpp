#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, SgemmNtSmallPasses) { expect_small_passes("sgemm_nt"); }
TEST(SuiteA, SgemmNtCorruptedOutputFails) { expect_corruption_detected("sgemm_nt"); }
TEST(SuiteA, SgemmNtRegisterLimited) { expect_register_limited("sgemm_nt", "sgemm_nt", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
