// Issue orders of the policies on a running SM. The crafted kernel
//   pc 0        ld.param  %rd1            (parameter, fixed latency)
//   pc 1..40    40 independent adds       (always ready)
//   pc 41       ld.global %r50, [%rd1]    (all lanes one address)
//   pc 42       add %r51, %r50, 1         (waits for the load: long-latency stall)
//   pc 43       ret
// runs as one CTA of 4 warps (slots 0..3, ages 0..3) on one scheduler with a
// perfect instruction cache and 8-entry I-buffers filled 8 at a time, so
// that fetch never starves a warp that issues every cycle. Expected orders,
// derived by hand from the policy definitions:
//   LRR:   w0 w1 w2 w3 w0 w1 ... for pcs 0..41 (168 issues in 168 cycles);
//   GTO:   w0 runs pcs 0..41 and stalls at pc 42 (its load); the oldest
//          ready warp w1 runs pcs 0..41, then w2. By the time w2 stalls
//          (cycle ~127) the load of w0 (issued ~42, back ~105) and the merged
//          load of w1 have returned, so "oldest ready" picks w0 (pc 42, 43),
//          then w1 (42, 43), then w3 (0..41) since w2 still waits for its own
//          load (L1D hit, ~20 cycles). w3 stays greedy although w2 becomes
//          ready meanwhile; when w3 stalls, w2 (older) finishes, then w3.
//   2-level (active set 2, lrr/lrr): only w0 and w1 issue (alternating) for
//          pcs 0..41; w2 first issues after w0 stalls on its load and is
//          demoted.
#include <gtest/gtest.h>

#include <sstream>

#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

std::string order_kernel() {
  std::ostringstream os;
  os << ".version 7.0\n.target sm_70\n.address_size 64\n\n"
     << ".visible .entry order(.param .u64 p)\n{\n"
     << "  .reg .b32 %r<60>;\n  .reg .b64 %rd<4>;\n"
     << "  ld.param.u64 %rd1, [p];\n";
  for (int i = 1; i <= 40; ++i) os << "  add.s32 %r" << i << ", %r0, " << i << ";\n";
  os << "  ld.global.u32 %r50, [%rd1];\n"
     << "  add.s32 %r51, %r50, 1;\n"
     << "  ret;\n}\n";
  return os.str();
}

SmParams order_params(const std::string& policy) {
  SmParams p = test_params();
  p.schedulers = 1;
  p.fetch_width = 8;
  p.ibuffer_entries = 8;
  p.policy.name = policy;
  p.policy.active_set_size = 2;
  p.l1d.hit_latency = 20;
  return p;
}

struct OrderRun {
  std::vector<IssueRecord> trace;
};

OrderRun run_order(const SmParams& p) {
  SmBench b(order_kernel(), p, 60);
  const uint64_t buf = b.alloc(128);
  b.launch("order", dim(1), dim(128), Args().add(buf));
  b.run();
  EXPECT_TRUE(b.all_done());
  EXPECT_EQ(b.sm().stats().warp_instructions, 4u * 44u);
  return OrderRun{b.trace};
}

std::string show(const std::vector<IssueRecord>& t, size_t from, size_t n) {
  std::ostringstream os;
  for (size_t i = from; i < t.size() && i < from + n; ++i) os << "w" << t[i].warp_slot << ":" << t[i].pc << " ";
  return os.str();
}

TEST(SchedIssueOrder, LrrRotatesWarpsEveryCycle) {
  const OrderRun r = run_order(order_params("lrr"));
  ASSERT_GE(r.trace.size(), 168u);
  for (size_t i = 0; i < 168; ++i) {
    ASSERT_EQ(r.trace[i].warp_slot, i % 4) << i << ": " << show(r.trace, i, 8);
    ASSERT_EQ(r.trace[i].pc, i / 4) << i;
    if (i > 0) {
      ASSERT_EQ(r.trace[i].cycle, r.trace[i - 1].cycle + 1) << i;
    }
  }
}

TEST(SchedIssueOrder, GtoSticksToOneWarpUntilItStallsThenPicksTheOldest) {
  const OrderRun r = run_order(order_params("gto"));
  ASSERT_EQ(r.trace.size(), 176u);
  // (warp, first pc, last pc) runs in issue order.
  const struct {
    uint32_t warp, first, last;
  } runs[] = {{0, 0, 41}, {1, 0, 41}, {2, 0, 41}, {0, 42, 43}, {1, 42, 43}, {3, 0, 41}, {2, 42, 43}, {3, 42, 43}};
  size_t i = 0;
  for (const auto& run : runs) {
    for (uint32_t pc = run.first; pc <= run.last; ++pc, ++i) {
      ASSERT_EQ(r.trace[i].warp_slot, run.warp) << i << ": " << show(r.trace, i, 8);
      ASSERT_EQ(r.trace[i].pc, pc) << i;
    }
  }
}

TEST(SchedIssueOrder, TwoLevelIssuesOnlyFromTheActiveSet) {
  const OrderRun r = run_order(order_params("two_level"));
  ASSERT_EQ(r.trace.size(), 176u);
  for (size_t i = 0; i < 84; ++i) {
    ASSERT_EQ(r.trace[i].warp_slot, i % 2) << i << ": " << show(r.trace, i, 8);
    ASSERT_EQ(r.trace[i].pc, i / 2) << i;
  }
  uint64_t w0_load = 0, w2_first = ~0ull, w3_first = ~0ull;
  for (const IssueRecord& t : r.trace) {
    if (t.warp_slot == 0 && t.pc == 41) w0_load = t.cycle;
    if (t.warp_slot == 2 && w2_first == ~0ull) w2_first = t.cycle;
    if (t.warp_slot == 3 && w3_first == ~0ull) w3_first = t.cycle;
  }
  EXPECT_GT(w2_first, w0_load);
  EXPECT_GT(w3_first, w0_load);
}

TEST(SchedIssueOrder, WarpsAreSplitAmongSchedulersBySlot) {
  SmParams p = order_params("lrr");
  p.schedulers = 2;
  SmBench b(order_kernel(), p, 60);
  const uint64_t buf = b.alloc(128);
  b.launch("order", dim(1), dim(128), Args().add(buf));
  b.run();
  ASSERT_TRUE(b.all_done());
  uint64_t per_cycle_max = 0, run = 0, last = ~0ull;
  for (const IssueRecord& t : b.trace) {
    EXPECT_EQ(t.scheduler, t.warp_slot % 2);
    run = t.cycle == last ? run + 1 : 1;
    last = t.cycle;
    per_cycle_max = std::max(per_cycle_max, run);
  }
  EXPECT_EQ(per_cycle_max, 2u);  // both schedulers issue in the same cycle
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.slot_issued, 4u * 44u);
}

}  // namespace
}  // namespace simtlm::models::test

namespace simtlm::models::test {
namespace {

// Regression: with two_level, warps waiting at a CTA-wide barrier fill the
// active set and are demoted one by one as the scan reports them; the warps
// promoted in their place are ready, but nothing issued in that scan. The SM
// used to go to sleep (no event pending) and the launch deadlocked (btree and
// histogram256 at small size). A changed order now makes it scan again.
TEST(TwoLevelBarrier, ACtaWiderThanTheActiveSetReachesItsBarriers) {
  SmParams p = test_params();
  p.schedulers = 1;
  p.policy.name = "two_level";
  p.policy.active_set_size = 2;
  SmBench b(kReducePtx, p);
  std::vector<uint32_t> in(256);
  for (uint32_t i = 0; i < 256; ++i) in[i] = i;
  const uint64_t pin = b.upload(in);
  const uint64_t pout = b.alloc(4 * 2);
  b.launch("reduce", dim(1), dim(256), Args().add(pin).add(pout));
  b.run();
  ASSERT_TRUE(b.all_done()) << b.sm().describe_stall();
  const std::vector<uint32_t> out = b.download<uint32_t>(pout, 2);
  EXPECT_EQ(out[0], 255u * 256u / 2u);
  EXPECT_EQ(out[1], 255u * 256u / 2u);
}

}  // namespace
}  // namespace simtlm::models::test
