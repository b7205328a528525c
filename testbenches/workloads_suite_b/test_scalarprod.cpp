#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, ScalarProdSmallPasses) { expect_small_passes("scalarprod"); }
TEST(SuiteB, ScalarProdCorruptedOutputFails) { expect_corruption_detected("scalarprod"); }
TEST(SuiteB, ScalarProdThreadOrCtaLimited) { expect_thread_or_cta_limited("scalarprod", "scalar_prod", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
