#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, MriqSmallPasses) { expect_small_passes("mriq"); }
TEST(SuiteA, MriqCorruptedOutputFails) { expect_corruption_detected("mriq"); }
TEST(SuiteA, MriqComputeQRegisterLimited) { expect_register_limited("mriq", "mriq_q", 256); }
TEST(SuiteA, MriqPhiMagThreadLimited) { expect_thread_or_cta_limited("mriq", "mriq_phimag", 256); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
