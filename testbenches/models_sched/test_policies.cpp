// Warp-scheduling policies in isolation: the orders they offer, written by
// hand from the definitions in models/sched/policy.h.
#include <gtest/gtest.h>

#include "models/sched/policy.h"
#include "models/sched/two_level.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {
namespace {

using V = std::vector<uint32_t>;

PolicyParams params(const std::string& name, uint32_t schedulers = 1) {
  PolicyParams p;
  p.name = name;
  p.schedulers = schedulers;
  p.max_warps = 48;
  return p;
}

WarpInfo warp(uint32_t slot, uint64_t age, uint32_t scheduler = 0) {
  WarpInfo w;
  w.slot = slot;
  w.age = age;
  w.scheduler = scheduler;
  return w;
}

V order(Policy& p, unsigned s = 0) { return p.order(s, 0); }

TEST(SchedPolicy, LrrStartsAfterTheLastIssuer) {
  auto p = make_policy(params("lrr"));
  for (uint32_t i = 0; i < 4; ++i) p->warp_added(warp(i, 10 - i));  // age does not matter
  EXPECT_EQ(order(*p), (V{0, 1, 2, 3}));
  p->on_issue(1, 0, functional::ExecClass::Int, 0);
  EXPECT_EQ(order(*p), (V{2, 3, 0, 1}));
  p->on_issue(3, 0, functional::ExecClass::Int, 1);
  EXPECT_EQ(order(*p), (V{0, 1, 2, 3}));
  p->warp_removed(0);
  p->on_issue(2, 0, functional::ExecClass::Int, 2);
  EXPECT_EQ(order(*p), (V{3, 1, 2}));
  p->warp_removed(3);
  EXPECT_EQ(order(*p), (V{1, 2}));  // last issuer 2: next after it wraps to 1
}

TEST(SchedPolicy, GtoKeepsTheGreedyWarpFirstThenOldest) {
  auto p = make_policy(params("gto"));
  p->warp_added(warp(5, 2));
  p->warp_added(warp(1, 0));
  p->warp_added(warp(3, 1));
  EXPECT_EQ(order(*p), (V{1, 3, 5}));  // oldest first
  p->on_issue(5, 0, functional::ExecClass::Int, 0);
  EXPECT_EQ(order(*p), (V{5, 1, 3}));  // greedy, then oldest
  p->on_issue(3, 0, functional::ExecClass::Int, 1);
  EXPECT_EQ(order(*p), (V{3, 1, 5}));
  p->warp_removed(3);
  EXPECT_EQ(order(*p), (V{1, 5}));
}

TEST(SchedPolicy, PoliciesKeepSchedulersApart) {
  for (const char* name : {"lrr", "gto", "two_level"}) {
    auto p = make_policy(params(name, 2));
    for (uint32_t i = 0; i < 6; ++i) p->warp_added(warp(i, i, i % 2));
    EXPECT_EQ(order(*p, 0), (V{0, 2, 4})) << name;
    EXPECT_EQ(order(*p, 1), (V{1, 3, 5})) << name;
  }
}

TEST(SchedPolicy, TwoLevelOffersOnlyTheActiveSetAndRotatesOnLongStalls) {
  PolicyParams pp = params("two_level");
  pp.active_set_size = 2;
  TwoLevelPolicy p(pp);
  for (uint32_t i = 0; i < 5; ++i) p.warp_added(warp(i, i));
  EXPECT_EQ(order(p), (V{0, 1}));
  EXPECT_EQ(p.pending(0), (V{2, 3, 4}));
  p.on_issue(0, 0, functional::ExecClass::Int, 0);
  EXPECT_EQ(order(p), (V{1, 0}));  // inner lrr
  p.on_stall(1, StallKind::Scoreboard, 1);  // short stall: stays active
  EXPECT_EQ(order(p), (V{1, 0}));
  p.on_stall(0, StallKind::LongLatency, 2);  // demoted to the tail, head of pending promoted
  EXPECT_EQ(p.active(0), (V{1, 2}));
  EXPECT_EQ(p.pending(0), (V{3, 4, 0}));
  p.on_stall(2, StallKind::Barrier, 3);
  EXPECT_EQ(p.active(0), (V{1, 3}));
  EXPECT_EQ(p.pending(0), (V{4, 0, 2}));
  p.warp_removed(1);
  EXPECT_EQ(p.active(0), (V{3, 4}));
  EXPECT_EQ(p.pending(0), (V{0, 2}));
}

TEST(SchedPolicy, TwoLevelGtoOuterPromotesTheOldest) {
  PolicyParams pp = params("two_level");
  pp.active_set_size = 1;
  pp.inner_policy = "gto";
  pp.outer_policy = "gto";
  TwoLevelPolicy p(pp);
  p.warp_added(warp(0, 5));
  p.warp_added(warp(1, 9));
  p.warp_added(warp(2, 1));
  EXPECT_EQ(p.active(0), (V{0}));       // first arrival
  p.on_stall(0, StallKind::LongLatency, 0);
  EXPECT_EQ(p.active(0), (V{2}));       // oldest pending (age 1)
  p.on_stall(2, StallKind::LongLatency, 1);
  EXPECT_EQ(p.active(0), (V{1}));       // 0 is older but still waits (no issue since its stall)
  p.on_stall(1, StallKind::LongLatency, 2);
  EXPECT_EQ(p.active(0), (V{0}));       // all wait: the one queued longest
  p.on_issue(0, 0, functional::ExecClass::Int, 3);
  p.on_stall(0, StallKind::LongLatency, 4);
  EXPECT_EQ(p.active(0), (V{2}));       // all wait again: queue order 2, 1, 0
}

// Two warps waiting at a barrier must not take each other's place while the
// warps the barrier waits for stay pending (the gtx285_ccws 2LVL-GTO
// deadlock: active set 2, gto outside, the oldest pending warp was always a
// waiter).
TEST(SchedPolicy, TwoLevelPromotesReadyWarpsBeforeWaitingOnes) {
  PolicyParams pp = params("two_level");
  pp.active_set_size = 2;
  pp.inner_policy = "gto";
  pp.outer_policy = "gto";
  TwoLevelPolicy p(pp);
  for (uint32_t i = 0; i < 4; ++i) p.warp_added(warp(i, i));
  EXPECT_EQ(p.active(0), (V{0, 1}));
  p.on_stall(0, StallKind::Barrier, 0);
  EXPECT_EQ(p.active(0), (V{1, 2}));  // 2, the oldest ready warp
  p.on_stall(1, StallKind::Barrier, 1);
  EXPECT_EQ(p.active(0), (V{2, 3}));  // 3, not 0 (older, but at the barrier)
  EXPECT_EQ(p.pending(0), (V{0, 1}));
  // Everyone waits: the one queued longest comes back.
  p.on_stall(2, StallKind::Barrier, 2);
  EXPECT_EQ(p.active(0), (V{0, 3}));
  EXPECT_EQ(p.pending(0), (V{1, 2}));
  // Released: 0 issues, then waits for memory; 1 is queued longest.
  p.on_issue(0, 0, functional::ExecClass::Int, 3);
  p.on_stall(0, StallKind::LongLatency, 4);
  EXPECT_EQ(p.active(0), (V{1, 3}));
  // 1 issues and stalls on memory too: queue 2, 0, 1, all waiting: 2.
  p.on_issue(1, 0, functional::ExecClass::Int, 5);
  p.on_stall(1, StallKind::LongLatency, 6);
  EXPECT_EQ(p.active(0), (V{2, 3}));
  // A short stall does not demote; a long one does, and the queue (0, 1, 3)
  // has no ready warp: the one queued longest, 0.
  p.on_stall(3, StallKind::Scoreboard, 7);
  EXPECT_EQ(p.active(0), (V{2, 3}));
  p.on_stall(3, StallKind::LongLatency, 8);
  EXPECT_EQ(p.active(0), (V{0, 2}));
}

// With the SM's probe, a pending warp counts as waiting only while it does:
// an old warp whose load came back is promoted before younger ones (gto
// outer order), which the issue-based fallback cannot know.
struct FakeProbe : WarpWaitProbe {
  std::vector<bool> waiting = std::vector<bool>(8, false);
  bool waits(uint32_t slot) const override { return waiting[slot]; }
};

TEST(SchedPolicy, TwoLevelAsksTheProbeWhetherAPendingWarpWaits) {
  PolicyParams pp = params("two_level");
  pp.active_set_size = 1;
  pp.inner_policy = "gto";
  pp.outer_policy = "gto";
  TwoLevelPolicy p(pp);
  FakeProbe probe;
  p.set_wait_probe(&probe);
  for (uint32_t i = 0; i < 4; ++i) p.warp_added(warp(i, i));
  probe.waiting[0] = true;
  p.on_stall(0, StallKind::LongLatency, 0);
  EXPECT_EQ(p.active(0), (V{1}));
  probe.waiting[0] = false;  // its load is back
  probe.waiting[1] = true;
  p.on_stall(1, StallKind::LongLatency, 1);
  EXPECT_EQ(p.active(0), (V{0}));  // oldest ready, although it has not issued since
  probe.waiting[0] = true;
  probe.waiting[2] = probe.waiting[3] = true;  // at a barrier
  p.on_stall(0, StallKind::LongLatency, 2);
  EXPECT_EQ(p.active(0), (V{2}));  // all wait: queued longest (2, 3, 1, 0)
}

TEST(SchedPolicy, UnknownOrUnimplementedPolicyIsAConfigError) {
  for (const char* name : {"bogus", "oldest_first"}) {
    try {
      make_policy(params(name));
      ADD_FAILURE() << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos);
    }
  }
  PolicyParams pp = params("two_level");
  pp.inner_policy = "oldest";
  EXPECT_THROW(make_policy(pp), Error);
}

}  // namespace
}  // namespace simtlm::models::sched
