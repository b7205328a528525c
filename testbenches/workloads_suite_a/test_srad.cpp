#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, SradSmallPasses) { expect_small_passes("srad"); }
TEST(SuiteA, SradCorruptedOutputFails) { expect_corruption_detected("srad"); }
TEST(SuiteA, SradCoeffScratchpadLimited) { expect_scratchpad_limited("srad", "srad_coeff", 256); }
TEST(SuiteA, SradUpdateScratchpadLimited) { expect_scratchpad_limited("srad", "srad_update", 256); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
