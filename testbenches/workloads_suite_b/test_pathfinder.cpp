#include "suite_b_harness.h"

namespace simtlm::workloads::suite_b {
namespace {

TEST(SuiteB, PathfinderSmallPasses) { expect_small_passes("pathfinder"); }
TEST(SuiteB, PathfinderCorruptedOutputFails) { expect_corruption_detected("pathfinder"); }
TEST(SuiteB, PathfinderThreadOrCtaLimited) { expect_thread_or_cta_limited("pathfinder", "pathfinder_rows", 128); }

}  // namespace
}  // namespace simtlm::workloads::suite_b
