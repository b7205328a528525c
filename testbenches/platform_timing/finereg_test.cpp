// FineReg through the whole platform (docs/finereg.md): CTAs switch out when
// their warps all wait for memory, more CTAs are resident than the active
// limits allow, the checking mode passes, every switch-out is switched back
// in (the reduction to the baseline, invariant 15, is tested through the CLI
// in testbenches/cli/test_cli_finereg.cpp: one timing device per process).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

double sum_of(const Device& dev, const std::string& what, int sms = 2) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < sms; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "]." + what;
      if (j.contains(key) && j[key].is_number()) n += j[key].get<double>();
    }
  }
  return n;
}

double max_of(const Device& dev, const std::string& what, int sms = 2) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < sms; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "]." + what;
      if (j.contains(key) && j[key].is_number()) n = std::max(n, j[key].get<double>());
    }
  }
  return n;
}

std::shared_ptr<Config> finereg_config(const std::vector<std::string>& overrides) {
  auto cfg = std::make_shared<Config>(Config::preset("gtx980_finereg"));
  cfg->apply_override("gpu.num_sms=2");
  for (const std::string& o : overrides) cfg->apply_override(o);
  cfg->validate();
  return cfg;
}

void run(Device& dev, const std::string& name) {
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << name << ": " << check.detail;
}

TEST(FineRegPlatform, MemoryBoundCtasSwitchAndMoreAreResidentThanActive) {
  // gaussian launches many small CTAs that wait for memory.
  Device dev(timing_options(finereg_config({"gpu.sm.regfile.finereg.check=true"})));
  run(dev, "gaussian");
  EXPECT_GT(sum_of(dev, "regfile.finereg.switches_out"), 0.0);
  EXPECT_EQ(sum_of(dev, "regfile.finereg.switches_out") + sum_of(dev, "regfile.finereg.launches_pending"),
            sum_of(dev, "regfile.finereg.switches_in"));
  EXPECT_GT(sum_of(dev, "regfile.finereg.checked_registers"), 0.0);
  EXPECT_GT(sum_of(dev, "regfile.finereg.vector_misses"), 0.0);
  // Active CTAs never exceed gpu.sm.max_ctas = 32; resident ones do.
  EXPECT_GT(max_of(dev, "regfile.finereg.max_resident_ctas"), 32.0);
}

// Launch beyond the scheduling limit (note §2.4) and context-only switches:
// gaussian's many small CTAs fill the 32 active slots long before the ACRF;
// new CTAs then rest in the ACRF as PEND_ACRF, each switched in by its
// context alone, and stalled CTAs swap contexts with them, their registers
// staying in the ACRF. Under the checking mode; every CTA that went pending
// came back. (Against the keys off: testbenches/cli/test_cli_finereg.cpp,
// one timing device per process.)
TEST(FineRegPlatform, CtasLaunchPendingIntoFreeAcrfSpaceAndSwitchContextsOnly) {
  Device dev(timing_options(finereg_config({"gpu.sm.regfile.finereg.check=true"})));
  run(dev, "gaussian");
  const double pending = sum_of(dev, "regfile.finereg.launches_pending");
  const double outs = sum_of(dev, "regfile.finereg.switches_out");
  const double ctx_only = sum_of(dev, "regfile.finereg.context_only_outs");
  EXPECT_GT(pending, 0.0);
  EXPECT_GT(ctx_only, 0.0);
  EXPECT_LE(ctx_only, outs);
  EXPECT_EQ(outs + pending, sum_of(dev, "regfile.finereg.switches_in"));
  EXPECT_EQ(sum_of(dev, "regfile.finereg.registers_out"), sum_of(dev, "regfile.finereg.registers_in"));
  // Context-only switches move no register: at most the other switch-outs'
  // live registers moved (gaussian's warps have a few each).
  EXPECT_LE(sum_of(dev, "regfile.finereg.registers_out"), 64.0 * (outs - ctx_only));
  EXPECT_GT(max_of(dev, "regfile.finereg.max_resident_ctas"), 32.0);
}

TEST(FineRegPlatform, LaunchFirstWithSerialChainsAlsoKeepsResults) {
  Device dev(timing_options(finereg_config({"gpu.sm.regfile.finereg.check=true",
                                            "gpu.sm.regfile.finereg.switch_order=launch_first",
                                            "gpu.sm.regfile.finereg.cycles_per_register=4",
                                            "gpu.sm.regfile.finereg.vector_cache_entries=4"})));
  run(dev, "gaussian");
  EXPECT_GT(sum_of(dev, "regfile.finereg.switches_out"), 0.0);
  EXPECT_EQ(sum_of(dev, "regfile.finereg.switches_out") + sum_of(dev, "regfile.finereg.launches_pending"),
            sum_of(dev, "regfile.finereg.switches_in"));
  EXPECT_GT(sum_of(dev, "regfile.finereg.checked_registers"), 0.0);
}

// Pending CTAs' pipeline contexts go to shared memory as Virtual Thread's
// do (128 B per warp, one 128-byte pass each way) and, with the CTAs'
// shared memory, stay within its 96 KB.
TEST(FineRegPlatform, PendingContextsAreBackedUpInSharedMemory) {
  Device dev(timing_options(finereg_config({"gpu.sm.regfile.finereg.check=true"})));
  run(dev, "gaussian");
  const double moves = sum_of(dev, "regfile.finereg.switches_out") + sum_of(dev, "regfile.finereg.switches_in");
  ASSERT_GT(moves, 0.0);
  const double bytes = sum_of(dev, "regfile.finereg.context_bytes");
  EXPECT_GE(bytes, 128.0 * moves);  // at least one warp per CTA
  EXPECT_EQ(static_cast<uint64_t>(bytes) % 128, 0u);
  EXPECT_EQ(sum_of(dev, "regfile.finereg.context_passes"), bytes / 128);
  EXPECT_GT(max_of(dev, "regfile.finereg.max_backup_bytes"), 0.0);
  EXPECT_LE(max_of(dev, "regfile.finereg.max_backup_bytes"), 96.0 * 1024);
}

TEST(FineRegPlatform, SharedMemoryCapsTheContextBackups) {
  // A warp's context of 64 KB: 96 KB of shared memory holds one backup of a
  // single-warp CTA at a time and none of a larger one.
  Device dev(timing_options(finereg_config({"gpu.sm.regfile.finereg.check=true",
                                            "gpu.sm.regfile.vt.context_bytes_per_warp=65536"})));
  run(dev, "gaussian");
  EXPECT_GT(sum_of(dev, "regfile.finereg.backup_refusals"), 0.0);
  EXPECT_LE(max_of(dev, "regfile.finereg.max_backup_bytes"), 65536.0);
  EXPECT_LE(max_of(dev, "regfile.finereg.max_pending_ctas"), 1.0);
  EXPECT_EQ(sum_of(dev, "regfile.finereg.switches_out") + sum_of(dev, "regfile.finereg.launches_pending"),
            sum_of(dev, "regfile.finereg.switches_in"));
}

}  // namespace
}  // namespace simtlm::test
