#include "suite_a_harness.h"

namespace simtlm::workloads::suite_a {
namespace {

TEST(SuiteA, LiborSmallPasses) { expect_small_passes("libor"); }
TEST(SuiteA, LiborCorruptedOutputFails) { expect_corruption_detected("libor"); }
TEST(SuiteA, LiborRegisterLimited) { expect_register_limited("libor", "libor_path", 192); }

}  // namespace
}  // namespace simtlm::workloads::suite_a
