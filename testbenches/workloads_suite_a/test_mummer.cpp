#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, MummerSmallPasses) { expect_small_passes("mummer"); }
TEST(SuiteA, MummerCorruptedOutputFails) { expect_corruption_detected("mummer"); }
TEST(SuiteA, MummerRegisterLimited) { expect_register_limited("mummer", "mummer_match", 256); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
