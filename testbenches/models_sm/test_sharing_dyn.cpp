// Dynamic Warp Execution (Jatala §2.3.3, seed note 000 §2.7 and §7 item 14):
// the controller's probabilities over hand-made window sequences, and the
// issue gate's deterministic credit realisation of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/regfile/dyn_warp_execution.h"
#include "models/regfile/sharing_allocator.h"
#include "models/sm/inst_timing.h"

namespace simtlm::models::regfile {
namespace {

constexpr uint64_t kTenth = kDynOne / 10;

TEST(DynWarpController, SmZeroIsTheReferenceTheOthersStartAtOne) {
  DynWarpController c(3, 0.1);
  EXPECT_EQ(c.probability(0), 0u);
  EXPECT_EQ(c.probability(1), kDynOne);
  EXPECT_EQ(c.probability(2), kDynOne);
}

TEST(DynWarpController, StepsByATenthPerWindowWithinZeroAndOne) {
  DynWarpController c(3, 0.1);
  // SM 1 stalls more than SM 0, SM 2 fewer: SM 1 drops, SM 2 stays at 1.
  c.end_window({100, 150, 50});
  EXPECT_EQ(c.probability(1), 9 * kTenth);
  EXPECT_EQ(c.probability(2), kDynOne);
  // Equal stalls: no change.
  c.end_window({100, 100, 100});
  EXPECT_EQ(c.probability(1), 9 * kTenth);
  EXPECT_EQ(c.probability(2), kDynOne);
  // Ten more windows of more stalls: SM 1 reaches 0 and stays there.
  for (int i = 0; i < 10; ++i) c.end_window({0, 1, 0});
  EXPECT_EQ(c.probability(1), 0u);
  EXPECT_EQ(c.probability(2), kDynOne);  // as many stalls as SM 0: unchanged
  EXPECT_EQ(c.probability(0), 0u);
  // Fewer stalls again: back up a tenth per window.
  c.end_window({5, 2, 5});
  c.end_window({5, 2, 5});
  EXPECT_EQ(c.probability(1), 2 * kTenth);
  EXPECT_EQ(c.windows(), 14u);
  c.reset();
  EXPECT_EQ(c.probability(1), kDynOne);
  EXPECT_EQ(c.probability(0), 0u);
}

// Two one-warp CTAs of 10 registers per thread in 352 registers: the first
// fits whole (320), the second pairs with it (t x 320 = 32). Register 1 is
// private; the first CTA takes its warp pair's lock by touching register 5.
struct Pair {
  Pair() : registers(params()) {
    CtaShape shape;
    shape.threads = 32;
    shape.warps = 1;
    shape.regs_per_thread = 10;
    registers.admit(0, shape);
    registers.admit(1, shape);
    InstTiming shared_reg;
    shared_reg.max_reg_number = 5;
    IssueQuery q;
    q.cta_slot = 0;
    q.timing = &shared_reg;
    EXPECT_EQ(registers.may_issue(q), IssueCheck::Ok);
  }
  static AllocatorParams params() {
    AllocatorParams p;
    p.policy = "sharing";
    p.registers = 352;
    p.granularity = 1;
    p.max_ctas = 2;
    return p;
  }
  SharingAllocator registers;
};

InstTiming memory_inst(MemPath path) {
  InstTiming t;
  t.unit = ExecUnit::Ldst;
  t.path = path;
  return t;
}

// 'P' = may issue, 'D' = denied (charged as throttled).
std::string pattern(DynWarpGate& gate, uint32_t cta_slot, const InstTiming& t, int checks) {
  std::string out;
  for (int i = 0; i < checks; ++i) {
    GateQuery q;
    q.cta_slot = cta_slot;
    q.timing = &t;
    sched::StallKind stall = sched::StallKind::Fetch;
    const bool ok = gate.allows(q, stall);
    out += ok ? 'P' : 'D';
    if (!ok) {
      EXPECT_EQ(stall, sched::StallKind::Throttled);
    }
  }
  return out;
}

TEST(DynWarpGate, OnlyTheNonOwnersGlobalMemoryInstructionsAreGated) {
  Pair pair;
  ASSERT_EQ(pair.registers.sharing_class(1), sched::SharingClass::NonOwner);
  ASSERT_EQ(pair.registers.sharing_class(0), sched::SharingClass::Owner);
  DynWarpController c(2, 0.1);
  DynWarpGate sm0(c, 0, pair.registers);
  const InstTiming global = memory_inst(MemPath::Global);
  // SM 0: the non-owner's global/local/generic accesses never issue ...
  EXPECT_EQ(pattern(sm0, 1, global, 5), "DDDDD");
  EXPECT_EQ(pattern(sm0, 1, memory_inst(MemPath::Local), 2), "DD");
  EXPECT_EQ(pattern(sm0, 1, memory_inst(MemPath::Generic), 2), "DD");
  // ... its shared-memory, parameter and ALU instructions do, and the
  // owner's memory instructions too.
  EXPECT_EQ(pattern(sm0, 1, memory_inst(MemPath::Shared), 2), "PP");
  EXPECT_EQ(pattern(sm0, 1, memory_inst(MemPath::Param), 2), "PP");
  EXPECT_EQ(pattern(sm0, 1, InstTiming(), 2), "PP");
  EXPECT_EQ(pattern(sm0, 0, global, 2), "PP");
  EXPECT_EQ(sm0.gated(), 9u);
  EXPECT_EQ(sm0.passed(), 0u);
}

TEST(DynWarpGate, ProbabilityIsRealisedAsEvenlySpreadCredits) {
  Pair pair;
  DynWarpController c(2, 0.1);
  DynWarpGate sm1(c, 1, pair.registers);
  const InstTiming global = memory_inst(MemPath::Global);
  EXPECT_EQ(pattern(sm1, 1, global, 4), "PPPP");  // probability 1
  for (int i = 0; i < 7; ++i) c.end_window({0, 1});
  ASSERT_EQ(c.probability(1), 3 * kTenth);
  sm1.reset_credit();
  // 0.3 per check: credit 0.3 0.6 0.9 1.2->0.2 0.5 0.8 1.1->0.1 0.4 0.7 1.0->0.
  EXPECT_EQ(pattern(sm1, 1, global, 10), "DDDPDDPDDP");
  EXPECT_EQ(pattern(sm1, 1, global, 10), "DDDPDDPDDP");
  for (int i = 0; i < 3; ++i) c.end_window({0, 1});
  ASSERT_EQ(c.probability(1), 0u);
  EXPECT_EQ(pattern(sm1, 1, global, 10), "DDDDDDDDDD");
  EXPECT_EQ(sm1.passed(), 4u + 6u);
}

// Ownership follows the locks: while neither CTA holds one the younger is
// the non-owner; once it takes one, its partner is.
TEST(DynWarpGate, TheClassFollowsTheLocks) {
  Pair pair;
  DynWarpController c(2, 0.1);
  DynWarpGate sm0(c, 0, pair.registers);
  const InstTiming global = memory_inst(MemPath::Global);
  EXPECT_EQ(pattern(sm0, 1, global, 1), "D");
  pair.registers.warp_finished(0, 0);  // the holder's warp ends: no lock held, the younger (1) waits
  EXPECT_EQ(pattern(sm0, 1, global, 1), "D");
  EXPECT_EQ(pattern(sm0, 0, global, 1), "P");
  InstTiming shared_reg;
  shared_reg.max_reg_number = 5;
  IssueQuery q;
  q.cta_slot = 1;
  q.timing = &shared_reg;
  ASSERT_EQ(pair.registers.may_issue(q), IssueCheck::Ok);  // CTA 1 takes its pair's lock
  EXPECT_EQ(pattern(sm0, 1, global, 1), "P");
  EXPECT_EQ(pattern(sm0, 0, global, 1), "D");
  // Its partner completing leaves CTA 1 unpaired: never gated.
  pair.registers.release(0);
  EXPECT_EQ(pattern(sm0, 1, global, 1), "P");
}

}  // namespace
}  // namespace simtlm::models::regfile
