#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, Stencil3dSmallPasses) { expect_small_passes("stencil3d"); }
TEST(SuiteA, Stencil3dCorruptedOutputFails) { expect_corruption_detected("stencil3d"); }
TEST(SuiteA, Stencil3dRegisterLimited) { expect_register_limited("stencil3d", "stencil3d", 512); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
