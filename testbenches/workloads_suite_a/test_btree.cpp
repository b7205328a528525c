#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, BtreeSmallPasses) { expect_small_passes("btree"); }
TEST(SuiteA, BtreeCorruptedOutputFails) { expect_corruption_detected("btree"); }
TEST(SuiteA, BtreeRegisterLimited) { expect_register_limited("btree", "btree_find_range", 508); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
