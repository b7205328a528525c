#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, GaussianSmallPasses) { expect_small_passes("gaussian"); }
TEST(SuiteB, GaussianCorruptedOutputFails) { expect_corruption_detected("gaussian"); }
TEST(SuiteB, GaussianFan1ThreadLimited) { expect_thread_or_cta_limited("gaussian", "gaussian_fan1", 512); }
TEST(SuiteB, GaussianFan2CtaLimited) { expect_thread_or_cta_limited("gaussian", "gaussian_fan2", 16); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
