// The watchdog: a kernel whose two warps wait at different named barriers
// (each expecting 64 threads) can never progress; with a small
// sim.watchdog_cycles the launch ends with Error(Deadlock) naming the stuck
// warps instead of hanging.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

// Launches the deadlocking kernel (one CTA of two warps) on a device built
// with `overrides` and returns the error that ends the launch.
Error deadlock_launch_error(const std::vector<std::string>& overrides) {
  Device dev(timing_options(make_config(overrides)));
  ModuleHandle m = dev.load_module_string(kDeadlockPtx, "deadlock.ptx");
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(64);
  try {
    dev.launch(m, "deadlock", lc, KernelArgs());
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the launch of the deadlocking kernel ended without an error";
  return Error(ErrorKind::Internal, "no error");
}

TEST(Watchdog, DeadlockIsReportedNotHung) {
  const Error e = deadlock_launch_error({"gpu.num_sms=2", "sim.watchdog_cycles=2000"});
  EXPECT_EQ(e.kind(), ErrorKind::Deadlock) << e.what();
  const std::string msg = e.what();
  EXPECT_NE(msg.find("sim.watchdog_cycles = 2000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deadlock"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sm[0]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("barrier"), std::string::npos) << msg;
  // The SM's L1D queues and ports are part of the report.
  EXPECT_NE(msg.find("sm[0].l1d: 0 request(s) waiting for lookup"), std::string::npos) << msg;
}

TEST(Watchdog, MaxCyclesStopsTheLaunch) {
  const Error e = deadlock_launch_error({"gpu.num_sms=1", "sim.watchdog_cycles=0", "sim.max_cycles=5000"});
  EXPECT_EQ(e.kind(), ErrorKind::Launch) << e.what();
  EXPECT_NE(std::string(e.what()).find("sim.max_cycles"), std::string::npos) << e.what();
}

TEST(Watchdog, WithTheWatchdogAndLimitsOffADeadlockStillEnds) {
  // Nothing arms the monitor, so once every warp waits the simulation runs out
  // of events and the launch ends with the same report.
  const Error e = deadlock_launch_error({"gpu.num_sms=1", "sim.watchdog_cycles=0"});
  EXPECT_EQ(e.kind(), ErrorKind::Deadlock) << e.what();
  EXPECT_NE(std::string(e.what()).find("barrier"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace simtlm::test
