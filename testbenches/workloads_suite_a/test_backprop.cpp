#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, BackpropSmallPasses) { expect_small_passes("backprop"); }
TEST(SuiteA, BackpropCorruptedOutputFails) { expect_corruption_detected("backprop"); }
TEST(SuiteA, BackpropAdjustWeightsRegisterLimited) {
  expect_register_limited("backprop", "bp_adjust_weights", 256);
}
TEST(SuiteA, BackpropLayerforwardThreadLimited) {
  expect_thread_or_cta_limited("backprop", "bp_layerforward", 256);
}

}  // namespace
}  // namespace simtlm::workloads::suite_a
