#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, Fdtd3dSmallPasses) { expect_small_passes("fdtd3d"); }
TEST(SuiteA, Fdtd3dCorruptedOutputFails) { expect_corruption_detected("fdtd3d"); }
TEST(SuiteA, Fdtd3dScratchpadLimited) { expect_scratchpad_limited("fdtd3d", "fdtd3d", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
