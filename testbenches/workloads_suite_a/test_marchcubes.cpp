#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, MarchcubesSmallPasses) { expect_small_passes("marchcubes"); }
TEST(SuiteA, MarchcubesCorruptedOutputFails) { expect_corruption_detected("marchcubes"); }
TEST(SuiteA, MarchcubesGenerateScratchpadLimited) {
  expect_scratchpad_limited("marchcubes", "mc_generate", 32);
}

}  // namespace
}  // namespace simtlm::workloads::suite_a
