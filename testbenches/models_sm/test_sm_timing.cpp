// Timing rules of the SM pipeline (docs/sm-model.md), checked on single-warp
// kernels with a perfect instruction cache so that issue cycles follow from
// the parameters alone:
//   - an instruction issued in cycle c reads its operands in c (one more
//     cycle per register-bank conflict) and starts executing in c + 1;
//   - its result is written back latency cycles later; a dependent
//     instruction issues in the writeback cycle: distance latency + 1;
//   - a pipeline accepts the next instruction initiation_interval cycles
//     after the previous one started;
//   - shared memory takes one pass per distinct word of the busiest bank;
//   - global accesses become one transaction per 128-byte line.
#include <gtest/gtest.h>

#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

std::vector<uint64_t> issue_cycles(const std::vector<IssueRecord>& trace) {
  std::vector<uint64_t> c;
  for (const IssueRecord& r : trace) c.push_back(r.cycle);
  return c;
}

TEST(SmTiming, DependentChainTakesLatencyPlusOnePerInstruction) {
  SmParams p = test_params();
  p.op_int.add.latency = 6;
  SmBench b(kTimingPtx, p);
  b.launch("chain", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 17u);  // 16 adds + ret
  for (size_t i = 1; i < 16; ++i) EXPECT_EQ(c[i] - c[i - 1], 7u) << i;
  EXPECT_EQ(c[16] - c[15], 1u);  // ret does not depend on the chain
  EXPECT_GT(b.sm().stats().slot_scoreboard, 0u);
}

TEST(SmTiming, IndependentInstructionsIssueBackToBack) {
  SmBench b(kTimingPtx, test_params());
  b.launch("indep", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 17u);
  for (size_t i = 1; i < c.size(); ++i) EXPECT_EQ(c[i] - c[i - 1], 1u) << i;
  EXPECT_EQ(b.sm().stats().regfile_bank_conflicts, 0u);
}

TEST(SmTiming, RegisterBankConflictDelaysOperands) {
  // With one bank, the first add's two sources (%r1, %r17) are read in two
  // cycles, so its dependent issues latency + 2 later.
  SmParams p = test_params();
  p.op_int.add.latency = 4;
  p.regfile_banks = 1;
  SmBench b(kTimingPtx, p);
  b.launch("conflict", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[1] - c[0], 6u);
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.regfile_bank_conflicts, 2u);  // each add's second source waits a cycle
  EXPECT_EQ(s.regfile_reads, 4u);
  EXPECT_EQ(s.regfile_writes, 2u);
}

TEST(SmTiming, RegisterBanksArePhysicalRegisters) {
  // With 16 banks, whether %r1 and %r17 conflict depends on the physical
  // registers the front end's allocation gave them, not on their names
  // (virtual %r1 and %r17 would share bank 1).
  SmParams p = test_params();
  p.op_int.add.latency = 4;
  SmBench b(kTimingPtx, p);
  const ir::Function& k = *b.module().find_kernel("conflict");
  auto index = [&](const char* name) {
    for (size_t i = 0; i < k.regs.size(); ++i) {
      if (k.regs[i].name == name) return static_cast<uint32_t>(i);
    }
    ADD_FAILURE() << name;
    return 0u;
  };
  ASSERT_FALSE(k.analysis.phys_regs.empty());
  const uint32_t p1 = k.analysis.phys_regs[index("%r1")];
  const uint32_t p17 = k.analysis.phys_regs[index("%r17")];
  ASSERT_NE(p1, p17);  // both live at once
  const bool share = p1 % 16 == p17 % 16;
  b.launch("conflict", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[1] - c[0], share ? 6u : 5u);
  EXPECT_EQ(b.sm().stats().regfile_bank_conflicts, share ? 1u : 0u);
}

// Registers of warp slot 0 are readable only from cycle `from` (a drowsy
// register file waking up); every write is counted.
struct WakingRegisters : regfile::RegisterStateModel {
  explicit WakingRegisters(uint64_t from) : from(from) {}
  uint64_t readable_at(uint32_t warp, uint32_t, uint64_t cycle) override {
    ++reads;
    return warp == 0 && cycle < from ? from : cycle;
  }
  void written(uint32_t, uint32_t, uint64_t) override { ++writes; }
  uint64_t from;
  uint64_t reads = 0, writes = 0;
};

TEST(SmTiming, ARegisterStateModelDelaysReadsAndHearsWrites) {
  SmParams p = test_params();
  p.op_int.add.latency = 6;
  SmBench b(kTimingPtx, p);
  WakingRegisters model(500);
  b.sm().set_register_state_model(&model);
  b.launch("chain", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 17u);
  ASSERT_LT(c[0], 500u);
  // The first add's operand is read when the register wakes (cycle 500):
  // collected at 501, written back at 507, the dependent issues then.
  EXPECT_EQ(c[1], 501u + 6u);
  for (size_t i = 2; i < 16; ++i) EXPECT_EQ(c[i] - c[i - 1], 7u) << i;
  SmStats& s = b.sm().stats();
  EXPECT_EQ(model.reads, s.regfile_reads);
  EXPECT_EQ(model.writes, s.regfile_writes);
  EXPECT_EQ(s.regfile_writes, 16u);  // one 32-bit register per add
}

TEST(SmTiming, SfuInitiationIntervalSpacesIssue) {
  SmParams p = test_params();
  p.sfu.count = 1;
  p.sfu.initiation_interval = 8;
  SmBench b(kTimingPtx, p);
  b.launch("sfu", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 5u);
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(c[i] - c[i - 1], 8u) << i;
  EXPECT_GT(b.sm().stats().slot_pipeline, 0u);
}

TEST(SmTiming, ParamLoadLatency) {
  SmParams p = test_params();
  p.param_latency = 20;
  SmBench b(kSmemPtx, p);
  b.launch("smem", dim(1), dim(32), Args().add(uint32_t(4)));
  b.run();
  ASSERT_TRUE(b.all_done());
  // pc0 ld.param %r1; pc1 mov; pc2 mul uses %r1: issue + 1 + latency.
  ASSERT_GE(b.trace.size(), 3u);
  EXPECT_EQ(b.trace[2].pc, 2u);
  EXPECT_EQ(b.trace[2].cycle - b.trace[0].cycle, 21u);
  EXPECT_EQ(b.sm().stats().param_instructions, 1u);
}

TEST(SmTiming, SharedMemory32WayConflictCosts32Times) {
  SmBench free_(kSmemPtx, test_params(), 100, 1u << 20, "sm_free");
  SmBench conf(kSmemPtx, test_params(), 100, 1u << 20, "sm_conflict");
  free_.launch("smem", dim(1), dim(32), Args().add(uint32_t(4)));    // word per lane
  conf.launch("smem", dim(1), dim(32), Args().add(uint32_t(128)));   // every lane in bank 0
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(free_.all_done());
  ASSERT_TRUE(conf.all_done());
  auto span = [](const SmBench& b) {
    uint64_t first = 0, last = 0;
    bool seen = false;
    for (const IssueRecord& r : b.trace) {
      if (r.pc < 5 || r.pc > 12) continue;  // the eight ld.shared
      if (!seen) first = r.cycle;
      seen = true;
      last = r.cycle;
    }
    return last - first;
  };
  EXPECT_EQ(span(free_), 7u);
  EXPECT_EQ(span(conf), 7u * 32u);
  EXPECT_EQ(free_.sm().stats().smem_bank_conflicts, 0u);
  EXPECT_EQ(conf.sm().stats().smem_bank_conflicts, 8u * 31u);
  EXPECT_EQ(conf.sm().stats().smem_passes, 8u * 32u);
  EXPECT_GT(conf.sm().stats().slot_memory, 0u);
}

TEST(SmTiming, CoalescedVersusUncoalescedTransactions) {
  SmBench co(kStridePtx, test_params(), 100, 1u << 20, "sm_co");
  SmBench un(kStridePtx, test_params(), 100, 1u << 20, "sm_un");
  const uint64_t a = co.alloc(32 * 128), b2 = un.alloc(32 * 128);
  co.launch("strided", dim(1), dim(32), Args().add(a).add(uint32_t(4)));
  un.launch("strided", dim(1), dim(32), Args().add(b2).add(uint32_t(128)));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(co.all_done());
  ASSERT_TRUE(un.all_done());
  SmStats& c = co.sm().stats();
  SmStats& u = un.sm().stats();
  EXPECT_EQ(c.load_transactions, 1u);
  EXPECT_EQ(c.store_transactions, 1u);
  EXPECT_EQ(c.transaction_sectors, 8u);  // 4 sectors each
  EXPECT_EQ(u.load_transactions, 32u);
  EXPECT_EQ(u.store_transactions, 32u);
  EXPECT_EQ(u.transaction_sectors, 64u);
  // Below the L1D: one fill per missed line, stores written through.
  EXPECT_EQ(co.target().count(AccessKind::Fill), 1u);
  EXPECT_EQ(un.target().count(AccessKind::Fill), 32u);
  EXPECT_EQ(co.target().count(AccessKind::Store), 1u);
  EXPECT_EQ(un.target().count(AccessKind::Store), 32u);
  EXPECT_EQ(co.download<uint32_t>(a, 32), co.download<uint32_t>(a, 32, true));
}

TEST(SmTiming, LoadUseWaitsForTheMemoryResponse) {
  SmBench b(kStridePtx, test_params(), 100);
  const uint64_t a = b.alloc(32 * 4);
  b.launch("strided", dim(1), dim(32), Args().add(a).add(uint32_t(4)));
  b.run();
  ASSERT_TRUE(b.all_done());
  uint64_t load = 0, use = 0;
  for (const IssueRecord& r : b.trace) {
    if (r.pc == 5) load = r.cycle;
    if (r.pc == 6) use = r.cycle;
  }
  // L1D lookup (1) + memory (100) + registration edges.
  EXPECT_GE(use - load, 101u);
  EXPECT_LE(use - load, 110u);
  EXPECT_GT(b.sm().stats().slot_scoreboard, 90u);
}

TEST(SmTiming, InstructionCacheMissCostsItsLatency) {
  SmParams p = test_params();
  p.icache_perfect = false;
  p.icache_line_bytes = 128;  // 16 instructions of 8 bytes
  p.icache_miss_latency = 50;
  SmBench b(kTimingPtx, p);
  b.launch("indep", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto c = issue_cycles(b.trace);
  ASSERT_EQ(c.size(), 17u);
  EXPECT_GE(c[0], 50u);
  EXPECT_GE(c[16] - c[15], 50u);  // ret is the first instruction of the second line
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.icache_misses, 2u);
  EXPECT_GT(s.slot_fetch, 90u);
}

TEST(SmTiming, SleepsWhileWaitingAndAccountsEverySlot) {
  SmParams p = test_params();
  SmBench b(kStridePtx, p, 400);
  const uint64_t a = b.alloc(64 * 128);
  b.launch("strided", dim(2), dim(32), Args().add(a).add(uint32_t(128)));
  b.run();
  ASSERT_TRUE(b.all_done());
  SmStats& s = b.sm().stats();
  const uint64_t slots = s.slot_issued + s.slot_idle + s.slot_scoreboard + s.slot_pipeline + s.slot_barrier +
                         s.slot_memory + s.slot_fetch + s.slot_throttled;
  EXPECT_EQ(slots, uint64_t(p.schedulers) * s.active_cycles);
  EXPECT_EQ(s.slot_issued, s.warp_instructions);
  EXPECT_GT(s.active_cycles, 400u);
  EXPECT_LT(b.sm().ticks(), s.active_cycles / 2);  // slept through the memory latency
  EXPECT_LE(s.resident_cta_cycles, 2 * s.active_cycles);
  EXPECT_GT(s.resident_cta_cycles, s.active_cycles);
}

TEST(SmTiming, MemoryBackPressureStallsMemoryIssue) {
  SmParams p = test_params();
  p.l1d_enabled = false;
  SmBench b(kStridePtx, p, 50, /*capacity=*/2);
  const uint64_t a = b.alloc(4 * 32 * 128);
  b.launch("strided", dim(1), dim(128), Args().add(a).add(uint32_t(128)));
  b.run();
  ASSERT_TRUE(b.all_done());
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.load_transactions, 4u * 32u);
  EXPECT_GT(s.slot_memory, 0u);
  EXPECT_GT(s.ldst_blocked_cycles, 0u);
  EXPECT_EQ(b.download<uint32_t>(a, 4 * 32 * 32), b.download<uint32_t>(a, 4 * 32 * 32, true));
}

}  // namespace
}  // namespace simtlm::models::test
