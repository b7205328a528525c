// The watchdog: a kernel whose two warps wait at different named barriers
// (each expecting 64 threads) can never progress; with a small
// sim.watchdog_cycles the launch ends with Error(Deadlock) naming the stuck
// warps instead of hanging.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "testbenches/platform_timing/platform_harness.h"
#include "testbenches/runtime/ptx_samples.h"

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

// A vector add of `ctas` CTAs of 256 threads under `overrides`: the error
// that stops it (a test failure when it completes).
std::string limited_vec_add_error_on(const std::shared_ptr<Config>& cfg, uint32_t ctas) {
  Device dev(timing_options(cfg));
  const ModuleHandle h = dev.load_module_string(kVecAddPtx, "vec.ptx");
  const uint32_t n = ctas * 256;
  const std::vector<float> a(n, 1.0f);
  const DevicePtr da = dev.upload(a), db = dev.upload(a), dc = dev.malloc(n * 4);
  LaunchConfig lc;
  lc.grid = Dim3(ctas);
  lc.block = Dim3(256);
  try {
    dev.launch(h, "vec_add", lc, KernelArgs().add(da).add(db).add(dc).add(n));
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Launch) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "the launch completed";
  return "";
}

std::string limited_vec_add_error(const std::vector<std::string>& overrides, uint32_t ctas) {
  return limited_vec_add_error_on(make_config(overrides), ctas);
}

// The number just before `what` in `msg` ("... 100 core cycles and ...").
uint64_t number_before(const std::string& msg, const std::string& what) {
  const std::size_t at = msg.find(" " + what);
  if (at == std::string::npos) return ~0ull;
  std::size_t begin = at;
  while (begin > 0 && msg[begin - 1] >= '0' && msg[begin - 1] <= '9') --begin;
  return begin == at ? ~0ull : std::strtoull(msg.c_str() + begin, nullptr, 10);
}

// Issue "Hardening": the limits acted only at the monitor's first wake (4096
// cycles) and later, so a launch shorter than that ran to completion. One
// timing device per process: one limit per test.
void expect_stop_at_max_cycles(uint64_t limit) {
  const std::string msg = limited_vec_add_error({"gpu.num_sms=1", "sim.max_cycles=" + std::to_string(limit)}, 64);
  EXPECT_NE(msg.find("stopped at sim.max_cycles = " + std::to_string(limit)), std::string::npos) << msg;
  EXPECT_EQ(number_before(msg, "core cycles and"), limit) << msg;
}

TEST(Watchdog, MaxCyclesStopsAtItsExactCycleBeforeTheMonitorsPeriod) { expect_stop_at_max_cycles(100); }
TEST(Watchdog, MaxCyclesStopsAtItsExactCycleAfterIt) { expect_stop_at_max_cycles(5000); }

// One SM with two schedulers issuing one instruction each per cycle: at most
// two instructions beyond the bound.
void expect_stop_at_max_instructions(uint64_t limit) {
  const std::string msg =
      limited_vec_add_error({"gpu.num_sms=1", "sim.max_instructions=" + std::to_string(limit)}, 64);
  EXPECT_NE(msg.find("stopped at sim.max_instructions = " + std::to_string(limit)), std::string::npos) << msg;
  const uint64_t issued = number_before(msg, "warp instructions into the launch");
  EXPECT_GE(issued, limit) << msg;
  EXPECT_LE(issued, limit + 2) << msg;
}

TEST(Watchdog, MaxInstructionsStopsWithinOneInstructionPerSchedulerEarly) { expect_stop_at_max_instructions(10); }
TEST(Watchdog, MaxInstructionsStopsWithinOneInstructionPerSchedulerLater) { expect_stop_at_max_instructions(1000); }

// The vws platform's slice mode gives its one SM 8 schedulers although
// gpu.sm.schedulers is 1: the bound is looked at from the SMs as built, so
// the launch stops within one instruction per slice of it (it overshot by
// up to 8x while the monitor assumed one instruction per cycle).
TEST(Watchdog, MaxInstructionsOnVwsSlicesStopsWithinOneInstructionPerSlice) {
  auto cfg = std::make_shared<Config>(Config::preset("vws_ws4"));
  cfg->apply_override("gpu.num_sms=1");
  cfg->apply_override("sim.max_instructions=1000");
  cfg->validate();
  ASSERT_EQ(cfg->u32("gpu.vws.slices"), 8u);
  const std::string msg = limited_vec_add_error_on(cfg, 16);
  EXPECT_NE(msg.find("stopped at sim.max_instructions = 1000"), std::string::npos) << msg;
  const uint64_t issued = number_before(msg, "warp instructions into the launch");
  EXPECT_GE(issued, 1000u) << msg;
  EXPECT_LE(issued, 1000u + 8u) << msg;
}

TEST(Watchdog, WithTheWatchdogAndLimitsOffADeadlockStillEnds) {
  // Nothing arms the monitor, so once every warp waits the simulation runs out
  // of events and the launch ends with the same report.
  const Error e = deadlock_launch_error({"gpu.num_sms=1", "sim.watchdog_cycles=0"});
  EXPECT_EQ(e.kind(), ErrorKind::Deadlock) << e.what();
  EXPECT_NE(std::string(e.what()).find("barrier"), std::string::npos) << e.what();
}

// A warp spinning on a flag nobody sets issues forever (no deadlock for the
// watchdog) but has no visible effect: a limit's stop and the progress line
// say a livelock is suspected.
const char* kSpinPtx = R"(.version 7.5
.target sm_75
.address_size 64
.visible .entry spin(.param .u64 flag)
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [flag];
	cvta.to.global.u64 %rd2, %rd1;
$L_wait:
	ld.volatile.global.u32 %r1, [%rd2];
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L_wait;
	ret;
}
)";

TEST(Watchdog, ASpinningKernelStoppedByALimitGetsALivelockHint) {
  DeviceOptions o = timing_options(make_config(
      {"gpu.num_sms=1", "sim.max_cycles=100000", "sim.livelock_hint_cycles=30000"}));
  std::vector<std::string> hints;
  o.progress = [&](const LaunchProgress& p) { hints.push_back(p.hint); };
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(kSpinPtx, "spin.ptx");
  const DevicePtr flag = dev.malloc(4);
  LaunchConfig lc;
  lc.grid = Dim3(2);
  lc.block = Dim3(64);
  try {
    dev.launch(h, "spin", lc, KernelArgs().add(flag));
    FAIL() << "the spinning launch completed";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("stopped at sim.max_cycles = 100000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("possible livelock: warps issue but no global store, atomic or CTA completion for"),
              std::string::npos) << msg;
    EXPECT_NE(msg.find("sim.livelock_hint_cycles = 30000"), std::string::npos) << msg;
  }
  // Progress every 20000 cycles: quiet from the start, so the reports from
  // 40000 cycles on carry the hint and the first does not.
  ASSERT_GE(hints.size(), 3u);
  EXPECT_EQ(hints.front(), "");
  EXPECT_NE(hints.back().find("possible livelock"), std::string::npos) << hints.back();
}

TEST(Watchdog, AKernelThatStoresGetsNoLivelockHint) {
  const std::string msg = limited_vec_add_error(
      {"gpu.num_sms=1", "sim.max_cycles=30000", "sim.livelock_hint_cycles=5000"}, 512);
  EXPECT_NE(msg.find("stopped at sim.max_cycles = 30000"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("livelock"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::test
