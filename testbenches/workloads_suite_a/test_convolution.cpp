#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, ConvolutionSmallPasses) { expect_small_passes("convolution"); }
TEST(SuiteA, ConvolutionCorruptedOutputFails) { expect_corruption_detected("convolution"); }
TEST(SuiteA, ConvolutionRowsScratchpadLimited) {
  expect_scratchpad_limited("convolution", "conv_rows", 64);
}
TEST(SuiteA, ConvolutionColsScratchpadLimited) {
  expect_scratchpad_limited("convolution", "conv_cols", 128);
}

}  // namespace
}  // namespace simtlm::workloads::suite_a
