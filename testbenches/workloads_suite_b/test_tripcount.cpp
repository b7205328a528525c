#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, TripCountSmallPasses) { expect_small_passes("tripcount"); }
TEST(SuiteB, TripCountCorruptedOutputFails) { expect_corruption_detected("tripcount"); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
