// The energy model's arithmetic (models/power/energy_model.h): every
// component's energy from a hand-counted event mix, an idle interval, the
// totals, leakage with reduced-leakage residency, and the account reading a
// statistics tree with a test block that reports residency. Expected values
// are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/power/energy_account.h"
#include "models/power/energy_model.h"
#include "models/power/leakage_residency.h"
#include "simtlm/config.h"
#include "simtlm/error.h"
#include "simtlm/stats.h"

namespace simtlm::power {
namespace {

double dyn(const EnergyBreakdown& e, Component c) { return e.dynamic_j[static_cast<std::size_t>(c)]; }

double leak(const EnergyBreakdown& e, const std::string& block) {
  for (const auto& [b, j] : e.leakage_j) {
    if (b == block) return j;
  }
  ADD_FAILURE() << "no leakage block " << block;
  return -1;
}

// Energies 1..25 J per event (distinct, so a swapped event shows).
EnergyTable numbered_table() {
  EnergyTable t;
  t.ibuffer_access = 1;
  t.icache_access = 2;
  t.icache_miss = 3;
  t.l1d_read = 4;
  t.l1d_write = 5;
  t.l1d_fill = 6;
  t.const_access = 7;
  t.const_miss = 8;
  t.smem_pass = 9;
  t.reg_read = 10;
  t.reg_write = 11;
  t.int_op = 12;
  t.fp_op = 13;
  t.dp_op = 14;
  t.sfu_op = 15;
  t.schedule = 16;
  t.pipeline = 17;
  t.l2_read = 18;
  t.l2_write = 19;
  t.l2_fill = 20;
  t.noc_flit = 21;
  t.mc_request = 22;
  t.dram_activate = 23;
  t.dram_read_burst = 24;
  t.dram_write_burst = 25;
  t.const_dynamic_w = 100;
  t.idle_sm_w = 10;
  t.dram_refresh_w = 2;
  return t;
}

TEST(EnergyModel, EachComponentIsItsEventsTimesTheirEnergies) {
  Activity a;
  a.fetches = 3;
  a.issued = 5;
  a.icache_accesses = 3;
  a.icache_misses = 1;
  a.l1d_reads = 2;
  a.l1d_writes = 1;
  a.l1d_fills = 1;
  a.const_accesses = 4;
  a.const_misses = 2;
  a.smem_passes = 6;
  a.reg_reads = 7;
  a.reg_writes = 3;
  a.int_ops = 2;
  a.fp_ops = 1;
  a.dp_ops = 2;
  a.sfu_ops = 1;
  a.l2_reads = 3;
  a.l2_writes = 2;
  a.l2_fills = 1;
  a.noc_flits = 10;
  a.mc_requests = 4;
  a.dram_activates = 1;
  a.dram_read_bursts = 2;
  a.dram_write_bursts = 1;
  a.dram_channels = 3;
  a.seconds = 0.5;
  a.busy_seconds = 0.25;
  a.idle_sm_seconds = 0.75;
  const EnergyBreakdown e = energy_of(numbered_table(), a, {});
  EXPECT_DOUBLE_EQ(dyn(e, Component::IBP), 8.0);         // (3 + 5) x 1
  EXPECT_DOUBLE_EQ(dyn(e, Component::ICP), 9.0);         // 3 x 2 + 1 x 3
  EXPECT_DOUBLE_EQ(dyn(e, Component::DCP), 19.0);        // 2 x 4 + 1 x 5 + 1 x 6
  EXPECT_DOUBLE_EQ(dyn(e, Component::TCP), 0.0);         // not modelled
  EXPECT_DOUBLE_EQ(dyn(e, Component::CCP), 44.0);        // 4 x 7 + 2 x 8
  EXPECT_DOUBLE_EQ(dyn(e, Component::SHRDP), 54.0);      // 6 x 9
  EXPECT_DOUBLE_EQ(dyn(e, Component::RFP), 103.0);       // 7 x 10 + 3 x 11
  EXPECT_DOUBLE_EQ(dyn(e, Component::SPP), 24.0);        // 2 x 12
  EXPECT_DOUBLE_EQ(dyn(e, Component::FPUP), 41.0);       // 1 x 13 + 2 x 14
  EXPECT_DOUBLE_EQ(dyn(e, Component::SFUP), 15.0);       // 1 x 15
  EXPECT_DOUBLE_EQ(dyn(e, Component::SCHEDP), 80.0);     // 5 x 16
  EXPECT_DOUBLE_EQ(dyn(e, Component::PIPEP), 85.0);      // 5 x 17
  EXPECT_DOUBLE_EQ(dyn(e, Component::L2CP), 112.0);      // 3 x 18 + 2 x 19 + 1 x 20
  EXPECT_DOUBLE_EQ(dyn(e, Component::NOCP), 210.0);      // 10 x 21
  EXPECT_DOUBLE_EQ(dyn(e, Component::MCP), 88.0);        // 4 x 22
  EXPECT_DOUBLE_EQ(dyn(e, Component::DRAMP), 99.0);      // 23 + 2 x 24 + 25 + 3 channels x 0.5 s x 2 W
  EXPECT_DOUBLE_EQ(dyn(e, Component::IDLE_COREP), 7.5);  // 0.75 SM-s x 10 W
  EXPECT_DOUBLE_EQ(dyn(e, Component::CONST_DYNAMICP), 25.0);  // 0.25 s x 100 W
  // 8+9+19+0+44+54+103+24+41+15+80+85+112+210+88+99+7.5+25
  EXPECT_DOUBLE_EQ(e.dynamic_total_j(), 1023.5);
  EXPECT_DOUBLE_EQ(e.leakage_total_j(), 0.0);
  EXPECT_DOUBLE_EQ(e.average_power_w(), 2047.0);
}

TEST(EnergyModel, AnIdleIntervalCostsLeakageOnly) {
  EnergyTable t = numbered_table();
  t.dram_refresh_w = 0;  // refresh is DRAM background power, charged even when idle (tested above)
  Activity a;
  a.seconds = 2e-3;
  a.dram_channels = 6;
  const std::vector<LeakageShare> blocks = {{"sm_logic", 1.5}, {"sm_logic", 1.5}, {"l2_slice", 0.25}};
  const EnergyBreakdown e = energy_of(t, a, blocks);
  EXPECT_DOUBLE_EQ(e.dynamic_total_j(), 0.0);
  EXPECT_DOUBLE_EQ(leak(e, "sm_logic"), 6e-3);    // 2 x 1.5 W x 2 ms
  EXPECT_DOUBLE_EQ(leak(e, "l2_slice"), 0.5e-3);  // 0.25 W x 2 ms
  EXPECT_DOUBLE_EQ(e.total_j(), 6.5e-3);
  EXPECT_DOUBLE_EQ(e.average_power_w(), 3.25);
}

TEST(EnergyModel, LeakageScalesWithTimeAndComponentsSumToTheTotal) {
  Activity a;
  a.issued = 10;
  a.reg_reads = 20;
  a.seconds = 1e-3;
  const std::vector<LeakageShare> blocks = {{"regfile", 0.6}, {"noc", 1.4}};
  const EnergyBreakdown once = energy_of(numbered_table(), a, blocks);
  a.seconds *= 2;
  const EnergyBreakdown twice = energy_of(numbered_table(), a, blocks);
  EXPECT_DOUBLE_EQ(twice.leakage_total_j(), 2 * once.leakage_total_j());
  EXPECT_DOUBLE_EQ(once.leakage_total_j(), 2e-3);  // (0.6 + 1.4) W x 1 ms
  double sum = 0;
  for (double j : twice.dynamic_j) sum += j;
  for (const auto& [b, j] : twice.leakage_j) sum += j;
  EXPECT_DOUBLE_EQ(sum, twice.total_j());
}

TEST(LeakageResidency, IntegratesTheReducedFractionOverTime) {
  LeakageResidency r(0.25);
  r.set_fraction(0.5, 1.0);  // nothing reduced during [0, 1] s
  r.set_fraction(1.0, 3.0);  // half reduced during [1, 3] s: 1 s
  r.advance(4.0);            // all reduced during [3, 4] s: 1 s
  EXPECT_DOUBLE_EQ(r.reduced_seconds(), 2.0);
  r.advance(3.5);  // time never goes back
  EXPECT_DOUBLE_EQ(r.reduced_seconds(), 2.0);
  // 2 W over 4 s, 2 s of it at 25 %: 2 x (4 - 0.75 x 2) = 5 J.
  EXPECT_DOUBLE_EQ(leakage_energy({"regfile", 2.0, r.reduced_seconds(), r.reduced_ratio()}, 4.0), 5.0);
  EXPECT_THROW(r.set_fraction(1.5, 5.0), Error);
  EXPECT_THROW(LeakageResidency(-0.1), Error);
}

// A one-SM statistics tree with the counters the account reads, and a test
// block that reports its residency as the register file of SM 0.
struct OneSmTree {
  stats::Registry reg;
  std::uint64_t& cycles = reg.make_counter("gpu.cycles", "core cycles", "");
  std::uint64_t& reads = reg.make_counter("gpu.sm[0].regfile_reads", "", "");
  std::uint64_t& active = reg.make_counter("gpu.sm[0].active_cycles", "", "");
  OneSmTree() {
    for (const char* s : {"fetches", "warp_instructions", "icache_hits", "icache_misses", "const_hits",
                          "const_misses", "smem_passes", "regfile_writes", "class_int", "class_fp", "class_dp",
                          "class_sfu"}) {
      reg.make_counter(std::string("gpu.sm[0].") + s, "", "");
    }
  }
};

Config one_sm_config() {
  Config cfg;
  cfg.apply_override("gpu.power.energy_pj.reg_read=1000");  // 1 nJ
  cfg.apply_override("gpu.power.const_dynamic_w=0");
  return cfg;
}

TEST(EnergyAccount, ChargesABlocksReducedLeakageResidency) {
  OneSmTree t;
  LeakageResidency residency(0.0);  // reduced storage is gated off
  residency.register_stats(t.reg, "gpu", "regfile", 0);
  const Config cfg = one_sm_config();
  EnergyAccount account(cfg, t.reg, "gpu", 1, 1000.0);  // 1 GHz: a cycle is 1 ns
  // Per-instance leakage of the built-in (gtx480) table: one SM without L1D,
  // L2, NoC or DRAM in this tree: sm_logic 1.6 + regfile 0.6 + smem 0.22.
  EXPECT_DOUBLE_EQ(account.leakage_power_w(), 2.42);

  const stats::Values start = t.reg.capture();
  t.cycles += 1000;  // 1 us
  t.active += 1000;
  t.reads += 50;
  residency.set_fraction(0.5, 0.0);
  residency.advance(1e-6);  // half the register file gated for the whole microsecond
  const stats::Values w = t.reg.since(start);
  const EnergyBreakdown e = account.energy(w, 1000);
  EXPECT_DOUBLE_EQ(dyn(e, Component::RFP), 50e-9);           // 50 reads x 1 nJ
  EXPECT_NEAR(leak(e, "regfile"), 0.3e-6, 1e-18);            // 0.6 W x 1 us x (1 - 0.5)
  EXPECT_NEAR(leak(e, "sm_logic"), 1.6e-6, 1e-18);           // no residency: full
  EXPECT_NEAR(e.leakage_total_j(), (1.6 + 0.3 + 0.22) * 1e-6, 1e-18);
}

TEST(EnergyAccount, ARenamedStatisticIsAnErrorNotAZero) {
  stats::Registry reg;
  reg.make_counter("gpu.cycles", "", "");
  const Config cfg;
  EXPECT_THROW(EnergyAccount(cfg, reg, "gpu", 1, 700.0), Error);
}

TEST(EnergyAccount, AResidencyOfAnUnknownBlockIsAnError) {
  OneSmTree t;
  LeakageResidency residency(0.5);
  residency.register_stats(t.reg, "gpu", "regfile", 3);  // there is one SM
  const Config cfg = one_sm_config();
  EXPECT_THROW(EnergyAccount(cfg, t.reg, "gpu", 1, 700.0), Error);
}

TEST(EnergyModel, SwitchingComponentsAreTheirEventsTimesTheirEnergies) {
  EnergyTable t = numbered_table();
  t.pcrf_access = 30;
  t.vector_lookup = 31;
  t.staging_access = 32;
  Activity a;
  a.pcrf_accesses = 2;
  a.vector_lookups = 3;
  a.staging_passes = 5;
  a.switch_reg_reads = 7;
  a.switch_reg_writes = 11;
  a.context_smem_passes = 13;
  const EnergyBreakdown e = energy_of(t, a, {});
  // 2 x 30 + 3 x 31 + 5 x 32 = 60 + 93 + 160.
  EXPECT_DOUBLE_EQ(dyn(e, Component::FINEREGP), 313.0);
  // 7 x reg_read 10 + 11 x reg_write 11 + 13 x smem_pass 9 = 70 + 121 + 117.
  EXPECT_DOUBLE_EQ(dyn(e, Component::SWITCHP), 308.0);
  // None of it in the register file, shared memory or DRAM components.
  EXPECT_DOUBLE_EQ(dyn(e, Component::RFP), 0.0);
  EXPECT_DOUBLE_EQ(dyn(e, Component::SHRDP), 0.0);
  EXPECT_DOUBLE_EQ(dyn(e, Component::MCP), 0.0);
}

TEST(EnergyAccount, SwitchingComponentsAreReportedOnlyWithASwitchingAllocator) {
  OneSmTree t;
  const Config cfg = one_sm_config();
  {
    const EnergyAccount account(cfg, t.reg, "gpu", 1, 1000.0);
    EXPECT_FALSE(account.reports(Component::FINEREGP));
    EXPECT_FALSE(account.reports(Component::SWITCHP));
    EXPECT_TRUE(account.reports(Component::RFP));
    const auto j = account.window_json(t.reg.capture());
    EXPECT_FALSE(j["dynamic_j"].contains("FINEREGP"));
    EXPECT_TRUE(j["dynamic_j"].contains("CONST_DYNAMICP"));
  }
  std::uint64_t& out = t.reg.make_counter("gpu.sm[0].regfile.finereg.switches_out", "", "");
  std::uint64_t& moved = t.reg.make_counter("gpu.sm[0].regfile.finereg.registers_out", "", "");
  Config priced = cfg;
  priced.apply_override("gpu.power.energy_pj.pcrf_access=1000");
  priced.apply_override("gpu.power.energy_pj.staging_access=0");
  priced.apply_override("gpu.power.energy_pj.reg_read=0");
  const EnergyAccount account(priced, t.reg, "gpu", 1, 1000.0);
  EXPECT_TRUE(account.reports(Component::FINEREGP));
  const stats::Values start = t.reg.capture();
  t.cycles += 1000;
  out += 1;
  moved += 40;  // 40 PCRF writes at 1 nJ
  const EnergyBreakdown e = account.energy(t.reg.since(start), 1000);
  EXPECT_DOUBLE_EQ(dyn(e, Component::FINEREGP), 40e-9);
  EXPECT_TRUE(account.window_json(t.reg.since(start))["dynamic_j"].contains("SWITCHP"));
}

// The storage a switching allocator adds leaks like the register file per
// byte: 0.6 W per 256 KB (gpu.sm.registers = 65536 x 4 B here), so 6,058
// bytes (48,461 bits) leak 0.6 x 6058 / 262144 W; none without the
// allocator's statistics.
TEST(EnergyAccount, AddedStorageLeaksLikeTheRegisterFilePerByte) {
  OneSmTree t;
  Config cfg = one_sm_config();
  cfg.apply_override("gpu.sm.registers=65536");
  cfg.apply_override("gpu.power.leakage_w.regfile=0.6");
  const double before = EnergyAccount(cfg, t.reg, "gpu", 1, 1000.0).leakage_power_w();
  t.reg.make_counter("gpu.sm[0].regfile.finereg.switches_out", "", "");
  std::uint64_t& bits = t.reg.make_counter("gpu.sm[0].regfile.finereg.storage_bits", "", "");
  bits = 48461;
  const EnergyAccount account(cfg, t.reg, "gpu", 1, 1000.0);
  EXPECT_NEAR(account.leakage_power_w() - before, 0.6 * (48461.0 / 8) / 262144, 1e-12);
  const stats::Values start = t.reg.capture();
  t.cycles += 1000;  // 1 us at 1000 MHz
  EXPECT_NEAR(leak(account.energy(t.reg.since(start), 1000), "switch_storage"), 0.6 * (48461.0 / 8) / 262144 * 1e-6,
              1e-18);
}

}  // namespace
}  // namespace simtlm::power
