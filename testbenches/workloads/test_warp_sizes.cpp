// Every built-in workload at warp sizes other than 32 (a warp-size sweep is a
// core use of the model): it either passes its CPU check or refuses the size
// with Error(Config) naming the workload and the size — never a silent FAIL.
// Only workloads that declare assumes_32_lane_warps() may refuse, and only
// sizes that are not multiples of 32.
#include <gtest/gtest.h>

#include <string>

#include "simtlm/error.h"
#include "workload_harness.h"

namespace simtlm::workloads::testing {
namespace {

void expect_pass_or_clear_refusal(unsigned warp_size) {
  unsigned refused = 0;
  for (const std::string& name : WorkloadRegistry::names()) {
    SCOPED_TRACE(name + " at warp size " + std::to_string(warp_size));
    const bool may_refuse = make_workload(name)->assumes_32_lane_warps() && warp_size % 32 != 0;
    try {
      const RunResult r = run_workload(name, Size::Small, 1, warp_size);
      EXPECT_FALSE(may_refuse) << "declares 32-lane warps but ran";
      EXPECT_TRUE(r.check.passed) << r.check.detail;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(may_refuse) << what;
      EXPECT_EQ(e.kind(), ErrorKind::Config) << what;
      EXPECT_NE(what.find("'" + name + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("warp size " + std::to_string(warp_size)), std::string::npos) << what;
      ++refused;
    }
  }
  if (warp_size % 32 != 0) {
    EXPECT_GE(refused, 2u) << "reduction and spmv_vector assume 32-lane warps";
  }
}

TEST(WorkloadWarpSizes, EveryWorkloadAtWarpSize8) { expect_pass_or_clear_refusal(8); }
TEST(WorkloadWarpSizes, EveryWorkloadAtWarpSize16) { expect_pass_or_clear_refusal(16); }
TEST(WorkloadWarpSizes, EveryWorkloadAtWarpSize64) { expect_pass_or_clear_refusal(64); }

// Without the refusal reduction would run and FAIL at warp size 16.
TEST(WorkloadWarpSizes, ReductionRefusesWarpSize16BeforeLaunching) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.warp_size = 16;
  Device dev(opts);
  auto w = make_workload("reduction");
  ASSERT_NE(w, nullptr);
  EXPECT_THROW(w->setup(dev, Size::Small, 1), Error);
  EXPECT_TRUE(dev.launch_history().empty());
}

}  // namespace
}  // namespace simtlm::workloads::testing
