#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, Dct8x8SmallPasses) { expect_small_passes("dct8x8"); }
TEST(SuiteA, Dct8x8CorruptedOutputFails) { expect_corruption_detected("dct8x8"); }
TEST(SuiteA, Dct8x8ScratchpadLimited) { expect_scratchpad_limited("dct8x8", "dct8x8", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
