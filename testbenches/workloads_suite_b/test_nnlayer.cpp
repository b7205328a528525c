#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, NnLayerSmallPasses) { expect_small_passes("nnlayer"); }
TEST(SuiteB, NnLayerCorruptedOutputFails) { expect_corruption_detected("nnlayer"); }
TEST(SuiteB, NnLayerThreadOrCtaLimited) { expect_thread_or_cta_limited("nnlayer", "nn_layer_forward", 64); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
