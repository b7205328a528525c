// FineReg's comparison mechanisms through the whole platform (docs/finereg.md
// "Comparison mechanisms"; seed note 004 §2.10): Virtual Thread switches
// contexts and holds more CTAs than the 32 active slots, within its shared
// memory for the context backups; Reg+DRAM sends register contexts off chip
// when the register file is full and brings every one back. Runs use the
// checking mode: the invariants (register file, active limits, shared memory
// with the backups, off-chip count, agreement with the CTA table) are checked
// every cycle, and Reg+DRAM's contexts go through a poisoned image.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

double stat(const Device& dev, const std::string& what, bool max = false) {
  double n = 0;
  for (const LaunchStats& s : dev.launch_history()) {
    const nlohmann::json j = nlohmann::json::parse(s.stats_json());
    for (int sm = 0; sm < 2; ++sm) {
      const std::string key = "gpu.sm[" + std::to_string(sm) + "]." + what;
      if (!j.contains(key) || !j[key].is_number()) continue;
      n = max ? std::max(n, j[key].get<double>()) : n + j[key].get<double>();
    }
  }
  return n;
}

std::shared_ptr<Config> config(const std::string& policy, const std::vector<std::string>& overrides) {
  auto cfg = std::make_shared<Config>(Config::preset("gtx980_finereg"));
  cfg->apply_override("gpu.num_sms=2");
  cfg->apply_override("gpu.sm.regfile.alloc_policy=" + policy);
  cfg->apply_override("gpu.sm.regfile.finereg.check=true");
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

TEST(VirtualThreadPlatform, SwitchesContextsAndHoldsMoreCtasThanTheActiveSlots) {
  Device dev(timing_options(config("vt", {})));
  run(dev, "gaussian");
  EXPECT_GT(stat(dev, "regfile.vt.switches_out"), 0.0);
  EXPECT_EQ(stat(dev, "regfile.vt.switches_out"), stat(dev, "regfile.vt.switches_in"));
  EXPECT_GT(stat(dev, "regfile.vt.max_resident_ctas", true), 32.0);
  // Each switch saves and restores a context of 128 B per warp.
  EXPECT_GT(stat(dev, "regfile.vt.context_bytes"), 0.0);
  EXPECT_EQ(static_cast<uint64_t>(stat(dev, "regfile.vt.context_bytes")) % 128, 0u);
  EXPECT_LE(stat(dev, "regfile.vt.max_backup_bytes", true), 96.0 * 1024);
  // No off-chip statistics without Reg+DRAM, no FineReg ones.
  EXPECT_EQ(stat(dev, "regfile.vt.offchip_bytes"), 0.0);
  EXPECT_EQ(stat(dev, "regfile.finereg.switches_out"), 0.0);
}

TEST(VirtualThreadPlatform, SharedMemoryCapsTheContextBackups) {
  // A warp's context of 64 KB: 96 KB of shared memory holds the backup of
  // one single-warp CTA at a time and none of a larger one.
  Device dev(timing_options(config("vt", {"gpu.sm.regfile.vt.context_bytes_per_warp=65536"})));
  run(dev, "gaussian");
  EXPECT_GT(stat(dev, "regfile.vt.backup_refusals"), 0.0);
  EXPECT_LE(stat(dev, "regfile.vt.max_pending_ctas", true), 1.0);
  EXPECT_LE(stat(dev, "regfile.vt.max_backup_bytes", true), 65536.0);
  EXPECT_LE(stat(dev, "regfile.vt.max_resident_ctas", true), 33.0);
}

TEST(RegDramPlatform, FullRegisterFileSendsContextsOffChipAndBringsEveryOneBack) {
  // A register file of 8192 registers holds few of gaussian's CTAs: the rest
  // come in by sending stalled CTAs' registers off chip.
  Device dev(timing_options(config("regdram", {"gpu.sm.registers=8192"})));
  run(dev, "gaussian");
  const double out = stat(dev, "regfile.regdram.offchip_out");
  EXPECT_GT(out, 0.0);
  EXPECT_EQ(out, stat(dev, "regfile.regdram.offchip_in"));
  EXPECT_EQ(stat(dev, "regfile.regdram.switches_out"), stat(dev, "regfile.regdram.switches_in"));
  EXPECT_GT(stat(dev, "regfile.regdram.offchip_bytes"), 0.0);
  EXPECT_EQ(static_cast<uint64_t>(stat(dev, "regfile.regdram.offchip_bytes")) % 128, 0u);
  EXPECT_GT(stat(dev, "regfile.regdram.checked_registers"), 0.0);
  EXPECT_LE(stat(dev, "regfile.regdram.offchip_cta_cycles"),
            32.0 * stat(dev, "active_cycles"));  // at most max_offchip_ctas at a time
}

TEST(RegDramPlatform, OneOffChipContextAtATimeStillFinishes) {
  Device dev(timing_options(config("regdram", {"gpu.sm.registers=8192", "gpu.sm.regfile.regdram.max_offchip_ctas=1"})));
  run(dev, "gaussian");
  EXPECT_EQ(stat(dev, "regfile.regdram.offchip_out"), stat(dev, "regfile.regdram.offchip_in"));
  EXPECT_LE(stat(dev, "regfile.regdram.offchip_cta_cycles"), stat(dev, "active_cycles"));
}

}  // namespace
}  // namespace simtlm::test
