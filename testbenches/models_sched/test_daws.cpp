// DAWS's parts in isolation (seed note 002 §7.2-7.4, §15.4): the footprint
// arithmetic on a hand-made loop, the admission rule with the thesis' Fig 4.5
// example, the divergence-aware scaling, the prediction table's loop rules,
// and detected DAWS's sampling, divergence and repetition detection. Every
// expected value is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "models/sched/daws.h"
#include "models/sched/daws_footprint.h"
#include "models/sched/daws_profile.h"
#include "models/sched/daws_repetition.h"
#include "models/sched/gto.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {
namespace {

// ---- footprint arithmetic --------------------------------------------------

TEST(DawsFootprint, HandMadeLoopCountsGroupsByDivergenceAndLanes) {
  // Loop body: pc 10 and 11 diverged and repeating each other (one group),
  // pc 12 and 13 converged in groups of their own, pc 14 converged sharing a
  // group with the diverged pc 15 (a mixed group counts as diverged).
  const std::vector<DawsLoad> loads = {{10, true, 10}, {11, true, 10}, {12, false, 12},
                                       {13, false, 13}, {14, false, 14}, {15, true, 14}};
  const DawsLoopFootprint f = summarize_loads(loads);
  EXPECT_EQ(f.diverged_groups, 2u);   // {10,11}, {14,15}
  EXPECT_EQ(f.converged_groups, 2u);  // {12}, {13}
  EXPECT_EQ(f.lines(32), 68u);  // 2 x 32 + 2 x 2
  EXPECT_EQ(f.lines(16), 36u);  // 2 x 16 + 2 x 2: half the lanes left the loop
  EXPECT_EQ(f.lines(2), 8u);    // 2 x 2 + 2 x 2
  EXPECT_EQ(f.lines(1), 4u);    // one line per group with a single lane
  EXPECT_EQ(f.lines(0), 0u);
}

TEST(DawsFootprint, SeedUnitRules) {
  // §15.4: a diverged load with n lanes -> n; a converged load -> 2 if n > 1,
  // 1 if n == 1; loads sharing a RepID count once.
  EXPECT_EQ(summarize_loads({{0, true, 0}}).lines(7), 7u);
  EXPECT_EQ(summarize_loads({{0, false, 0}}).lines(7), 2u);
  EXPECT_EQ(summarize_loads({{0, false, 0}}).lines(1), 1u);
  EXPECT_EQ(summarize_loads({{0, true, 3}, {1, true, 3}, {2, true, 3}}).lines(5), 5u);
}

// ---- admission ---------------------------------------------------------------

TEST(DawsAdmission, ThesisFigure45) {
  // Fig 4.5: W0 enters with 32 lanes and one diverged load (32 lines), W1 and
  // W2 with 16 (16 lines each); the cache holds 64 lines' worth: 32 < 64 and
  // 48 < 64 admit W0 and W1, 64 is not < 64 so W2 may not load.
  std::vector<DawsCandidate> w = {{0, 0, 32}, {1, 1, 16}, {2, 2, 16}};
  EXPECT_EQ(daws_admit(w, 64.0), (std::vector<uint8_t>{1, 1, 0}));
  // 16 of W0's lanes leave the loop: 16 + 16 + 16 = 48 < 64, W2 proceeds.
  w[0].footprint = 16;
  EXPECT_EQ(daws_admit(w, 64.0), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(DawsAdmission, OldestFirstAndWarpsWithoutFootprintAreNeverBlocked) {
  // Given youngest first: ages 5 (40 lines), 3 (0), 1 (40), 0 (30) with 100
  // lines: prefix sums oldest first 30, 70, (70), 110 -> the age-5 warp is
  // blocked, the age-3 warp (no footprint) is not.
  const std::vector<DawsCandidate> w = {{7, 5, 40}, {6, 3, 0}, {5, 1, 40}, {4, 0, 30}};
  EXPECT_EQ(daws_admit(w, 100.0), (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(DawsAdmission, OneWarpAboveTheCacheThrottlesNobody) {
  // A single warp predicted at 160 lines >= 153.6: no warp is de-scheduled.
  const std::vector<DawsCandidate> w = {{0, 0, 160}, {1, 1, 100}, {2, 2, 100}};
  EXPECT_EQ(daws_admit(w, 153.6), (std::vector<uint8_t>{1, 1, 1}));
}

// ---- repetition detector -------------------------------------------------------

TEST(DawsRepetition, SameWarpSameLineIsARepetitionUntilCleared) {
  RepetitionDetector ilrd(64, 8);
  uint32_t other = 0;
  EXPECT_FALSE(ilrd.touch(1, 100, 5, other));
  EXPECT_FALSE(ilrd.touch(2, 100, 9, other));  // another warp's line: no match
  EXPECT_TRUE(ilrd.touch(1, 100, 6, other));
  EXPECT_EQ(other, 5u);
  ilrd.clear(1);  // warp 1 branched back to its loop's start
  EXPECT_FALSE(ilrd.touch(1, 100, 6, other));
  EXPECT_EQ(ilrd.valid_entries(), 2u);  // warp 2's entry and the new one
  EXPECT_THROW(RepetitionDetector(60, 8), Error);
}

TEST(DawsRepetition, EightWaysPerSetLeastRecentlyUsedGoes) {
  // 64 entries, 8 ways = 8 sets; lines 0, 8, ..., 64 all map to set 0: the
  // ninth evicts line 0.
  RepetitionDetector ilrd(64, 8);
  uint32_t other = 0;
  for (uint64_t i = 0; i < 9; ++i) EXPECT_FALSE(ilrd.touch(0, i * 8, 1, other));
  EXPECT_FALSE(ilrd.touch(0, 0, 2, other));   // gone
  EXPECT_TRUE(ilrd.touch(0, 64, 2, other));   // the most recent stays
}

// ---- the policy with profiled footprints ------------------------------------------

// The file name carries the test's name: ctest runs each test as its own
// process, in parallel, and a shared name let one test truncate the profile
// another was reading.
std::string write_profile(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      ::testing::TempDir() + std::string(test->test_suite_name()) + "." + test->name() + "." + name;
  std::ofstream(path) << text;
  return path;
}

PolicyParams daws_params(const std::string& mode, const std::string& profile) {
  PolicyParams p;
  p.name = "daws";
  p.max_warps = 4;
  p.schedulers = 1;
  p.l1d_lines = 256;  // 32 KB of 128 B lines: EffCacheSize 0.6 x 256 = 153.6
  p.daws_mode = mode;
  p.daws_profile = profile;
  return p;
}

WarpInfo warp(uint32_t slot, uint64_t age) {
  WarpInfo w;
  w.slot = slot;
  w.age = age;
  return w;
}

DawsPolicy::Issue at(uint32_t pc, uint32_t lanes, uint32_t next_pc) {
  DawsPolicy::Issue i;
  i.pc = pc;
  i.active_lanes = lanes;
  i.exec_lanes = lanes;
  i.next_pc = next_pc;
  return i;
}

class DawsProfiled : public ::testing::Test {
 protected:
  // One loop, pcs 4..9, two diverged groups and one converged group per thread.
  void SetUp() override {
    path_ = write_profile("daws_one_loop.txt", "kernel k instructions 20\nloop 4 diverged 2 converged 1\n");
    policy_ = std::make_unique<DawsPolicy>(daws_params("profiled", path_));
    for (uint32_t s = 0; s < 4; ++s) policy_->warp_added(warp(s, s));
    k_ = policy_->kernel_index(&key_, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}}));
  }
  std::string path_;
  std::unique_ptr<DawsPolicy> policy_;
  int key_ = 0;
  uint32_t k_ = 0;
};

TEST_F(DawsProfiled, CapacityRuleAndDivergenceScaling) {
  // 32 lanes: 2 x 32 + 2 = 66 lines a warp. Oldest first: 66, 132 < 153.6;
  // the third warp would make 198: it may not load.
  for (uint32_t s = 0; s < 3; ++s) policy_->issued(s, k_, at(4, 32, 5));
  policy_->admit();
  EXPECT_EQ(policy_->prediction(0), 66u);
  EXPECT_TRUE(policy_->allows_l1d_load(0));
  EXPECT_TRUE(policy_->allows_l1d_load(1));
  EXPECT_FALSE(policy_->allows_l1d_load(2));
  EXPECT_TRUE(policy_->allows_l1d_load(3));  // outside any loop (no footprint of its own yet: pc 0)
  // Warp 0's next iteration starts with 8 lanes left: 2 x 8 + 2 = 18, and
  // 18 + 66 + 66 = 150 < 153.6 admits warp 2.
  policy_->issued(0, k_, at(4, 8, 5));
  policy_->admit();
  EXPECT_EQ(policy_->prediction(0), 18u);
  EXPECT_TRUE(policy_->allows_l1d_load(2));
}

TEST_F(DawsProfiled, WarpsOutsideLoopsCountWithTheirNextLoop) {
  // Warp 0 (the oldest) is at pc 2, before the loop, with 32 lanes; warps 1
  // and 2 are in the loop. Warp 0 counts as 66: 66, 132, 198 -> warp 2
  // blocked (without the rule it would be 66 + 66 = 132 and allowed).
  policy_->issued(0, k_, at(1, 32, 2));
  policy_->issued(1, k_, at(4, 32, 5));
  policy_->issued(2, k_, at(4, 32, 5));
  policy_->admit();
  EXPECT_EQ(policy_->prediction(0), 0u);
  EXPECT_TRUE(policy_->allows_l1d_load(1));
  EXPECT_FALSE(policy_->allows_l1d_load(2));
  // While warp 0 waits at a barrier it counts nothing (it may be waiting for
  // the very warps it would block): 66 + 66 = 132, warp 2 may load.
  policy_->on_barrier(0, BarrierEvent::Arrive, 0);
  policy_->admit();
  EXPECT_TRUE(policy_->allows_l1d_load(2));
  policy_->on_barrier(0, BarrierEvent::Release, 0);
  policy_->admit();
  EXPECT_FALSE(policy_->allows_l1d_load(2));
}

TEST_F(DawsProfiled, LeavingTheLoopOrWaitingAtABarrierClearsTheEntry) {
  policy_->issued(0, k_, at(4, 32, 5));
  EXPECT_EQ(policy_->prediction(0), 66u);
  policy_->issued(0, k_, at(9, 32, 4));  // back edge: still in the loop
  EXPECT_EQ(policy_->prediction(0), 66u);
  policy_->issued(0, k_, at(9, 32, 10));  // falls out of the loop
  EXPECT_EQ(policy_->prediction(0), 0u);
  EXPECT_EQ(policy_->entry_loop(0), DawsLoopTable::kNone);
  policy_->issued(1, k_, at(4, 32, 5));
  policy_->on_barrier(1, BarrierEvent::Arrive, 0);
  EXPECT_EQ(policy_->prediction(1), 0u);
}

TEST(DawsPolicy, LaneAwarenessOffTakesEveryLaneAsActive) {
  const std::string path = write_profile("daws_lanes.txt", "kernel k instructions 20\nloop 4 diverged 2 converged 1\n");
  PolicyParams p = daws_params("profiled", path);
  p.daws_lane_aware = false;
  DawsPolicy policy(p);
  policy.warp_added(warp(0, 0));
  int key = 0;
  const uint32_t k = policy.kernel_index(&key, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}}));
  policy.issued(0, k, at(4, 8, 5));
  EXPECT_EQ(policy.prediction(0), 66u);  // 2 x 32 + 2, not 2 x 8 + 2
}

TEST(DawsPolicy, InnerLoopFootprintLimitsTheOuterLoop) {
  // Outer loop pcs 4..19 (one converged group), inner loop pcs 8..13 (one
  // diverged group).
  const std::string path = write_profile(
      "daws_nest.txt", "kernel k instructions 30\nloop 4 diverged 0 converged 1\nloop 8 diverged 1 converged 0\n");
  DawsPolicy policy(daws_params("profiled", path));
  policy.warp_added(warp(0, 0));
  int key = 0;
  const uint32_t k = policy.kernel_index(&key, "k", 30, DawsLoopTable::from_ranges(30, {{4, 20}, {8, 14}}));
  const uint32_t outer = 0, inner = 1;
  policy.issued(0, k, at(4, 32, 5));
  EXPECT_EQ(policy.prediction(0), 2u);  // converged, 32 lanes
  EXPECT_EQ(policy.entry_loop(0), outer);
  policy.issued(0, k, at(8, 32, 9));    // enters the inner loop
  EXPECT_EQ(policy.prediction(0), 32u);
  EXPECT_EQ(policy.entry_loop(0), inner);
  policy.issued(0, k, at(13, 32, 14));  // leaves the inner loop, still in the outer: kept
  EXPECT_EQ(policy.prediction(0), 32u);
  EXPECT_EQ(policy.entry_loop(0), inner);
  policy.issued(0, k, at(19, 20, 4));   // outer back edge
  policy.issued(0, k, at(4, 20, 5));    // next outer iteration, 20 lanes: the inner loop's 20
  EXPECT_EQ(policy.prediction(0), 20u);
  EXPECT_EQ(policy.entry_loop(0), inner);
  policy.issued(0, k, at(19, 20, 20));  // leaves the outer loop
  EXPECT_EQ(policy.prediction(0), 0u);
}

TEST(DawsPolicy, ProfileErrorsNameTheFileAndTheKernel) {
  EXPECT_THROW(DawsPolicy(daws_params("profiled", ::testing::TempDir() + "no_such_profile.txt")), Error);
  const std::string path = write_profile("daws_other.txt", "kernel other instructions 20\n");
  DawsPolicy policy(daws_params("profiled", path));
  int key = 0;
  try {
    policy.kernel_index(&key, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}}));
    FAIL() << "a kernel missing from the profile was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'k'"), std::string::npos) << e.what();
  }
  const std::string bad = write_profile("daws_bad.txt", "kernel k instructions 20\nloop 4 diverged x\n");
  try {
    DawsPolicy p(daws_params("profiled", bad));
    FAIL() << "a malformed profile was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ":2:"), std::string::npos) << e.what();
  }
  // A loop the kernel does not begin at that pc, and a stale instruction count.
  const std::string wrong = write_profile("daws_wrong.txt", "kernel k instructions 20\nloop 5 diverged 1 converged 0\n");
  DawsPolicy p2(daws_params("profiled", wrong));
  EXPECT_THROW(p2.kernel_index(&key, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}})), Error);
  DawsPolicy p3(daws_params("profiled", path));
  EXPECT_THROW(p3.kernel_index(&key, "other", 21, DawsLoopTable::from_ranges(21, {})), Error);
}

TEST(DawsProfile, RoundTripAndWorstCaseMerge) {
  DawsProfile a = DawsProfile::parse("kernel k instructions 20\nloop 4 diverged 1 converged 3\n", "a");
  const DawsProfile b = DawsProfile::parse("# c\nkernel k instructions 20\nloop 4 diverged 2 converged 1\n", "b");
  a.merge(b);
  EXPECT_EQ(a.kernels.at("k").loops.at(4).diverged_groups, 2u);
  EXPECT_EQ(a.kernels.at("k").loops.at(4).converged_groups, 3u);
  const DawsProfile c = DawsProfile::parse(a.text(), "c");
  EXPECT_EQ(c.text(), a.text());
}

// ---- detected DAWS --------------------------------------------------------------

CacheEvent hit(uint32_t warp_slot, uint32_t owner) {
  CacheEvent e;
  e.kind = CacheEventKind::Hit;
  e.warp_id = static_cast<int32_t>(warp_slot);
  e.owner_warp = static_cast<int32_t>(owner);
  e.access = AccessKind::Load;
  return e;
}

DawsPolicy::Issue load(uint32_t pc, uint32_t lanes, std::vector<uint64_t> lines) {
  DawsPolicy::Issue i = at(pc, lanes, pc + 1);
  i.l1d_load = true;
  i.lines = std::move(lines);
  return i;
}

std::vector<uint64_t> lines_from(uint64_t first, uint32_t n) {
  std::vector<uint64_t> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(first + i);
  return v;
}

TEST(DawsDetected, SamplerDivergenceLocalityAndRepetition) {
  DawsPolicy policy(daws_params("detected", ""));
  for (uint32_t s = 0; s < 4; ++s) policy.warp_added(warp(s, s));
  int key = 0;
  const uint32_t k = policy.kernel_index(&key, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}}));
  DawsKernel& kernel = policy.kernel(k);
  // Warp 0 enters with 2 lanes: not a sampler (needs more than two); warp 1
  // with 32 becomes it.
  policy.issued(0, k, at(4, 2, 5));
  EXPECT_EQ(kernel.sampler(0), -1);
  policy.issued(1, k, at(4, 32, 5));
  EXPECT_EQ(kernel.sampler(0), 1);
  // Iteration 1: pc 5 touches 32 lines (diverged), pc 6 one of them (a
  // repetition of pc 5), pc 7 one line (converged).
  policy.issued(1, k, load(5, 32, lines_from(1000, 32)));
  policy.on_cache_event(hit(1, 1));  // intra-warp locality: +1
  policy.issued(1, k, load(6, 32, {1000}));
  policy.issued(1, k, load(7, 32, {5000}));
  policy.issued(1, k, at(9, 32, 4));
  EXPECT_EQ(kernel.load(5)->divergence, 1);
  EXPECT_EQ(kernel.load(7)->divergence, -1);
  EXPECT_EQ(kernel.rep_of(6), kernel.rep_of(5));
  EXPECT_NE(kernel.rep_of(7), kernel.rep_of(5));
  // No prediction yet: pc 5's counter is 1 (diverged needs > 1) -> the loop
  // is one group {5, 6} converged + {7} converged = 2 + 2 lines at 32 lanes.
  EXPECT_EQ(kernel.locality(0), 1);
  EXPECT_EQ(kernel.footprint(0).lines(32), 4u);
  // Iteration 2: the back edge cleared the ILRD, so pc 5 touching line 5000
  // (pc 7's line in iteration 1) is no repetition; pc 5's counter reaches 2:
  // diverged.
  policy.issued(1, k, at(4, 32, 5));
  policy.issued(1, k, load(5, 32, lines_from(5000, 32)));
  EXPECT_NE(kernel.rep_of(7), kernel.rep_of(5));
  EXPECT_EQ(kernel.load(5)->divergence, 2);
  // A hit on another warp's line is no intra-warp locality: 2 - 1 = 1 > 0.
  policy.on_cache_event(hit(1, 1));
  policy.on_cache_event(hit(1, 3));
  EXPECT_EQ(kernel.locality(0), 1);
  // {5, 6} diverged (32) + {7} converged (2) = 34 at 32 lanes.
  EXPECT_EQ(kernel.footprint(0).lines(32), 34u);
  policy.issued(1, k, at(4, 32, 5));
  EXPECT_EQ(policy.prediction(1), 34u);
  // The sampler leaves; the next warp entering with two lanes replaces it.
  policy.issued(1, k, at(9, 32, 10));
  EXPECT_EQ(kernel.sampler(0), -1);
  policy.issued(2, k, at(4, 2, 5));
  EXPECT_EQ(kernel.sampler(0), 2);
  // Locality falling to zero withdraws the prediction.
  policy.issued(2, k, load(5, 2, {1, 2}));
  policy.on_cache_event(hit(2, 0));
  EXPECT_EQ(kernel.locality(0), 0);
  EXPECT_EQ(kernel.footprint(0).lines(32), 0u);
}

TEST(DawsDetected, WithoutPredictionsTheOrderIsGtoAndNothingIsThrottled) {
  DawsPolicy daws(daws_params("detected", ""));
  PolicyParams gp = daws_params("detected", "");
  gp.name = "gto";
  GtoPolicy gto(gp);
  for (uint32_t s = 0; s < 4; ++s) {
    daws.warp_added(warp(s, 3 - s));
    gto.warp_added(warp(s, 3 - s));
  }
  int key = 0;
  const uint32_t k = daws.kernel_index(&key, "k", 20, DawsLoopTable::from_ranges(20, {{4, 10}}));
  for (uint64_t c = 0; c < 8; ++c) {
    const uint32_t slot = static_cast<uint32_t>((c * 3) % 4);
    daws.on_issue(slot, 0, functional::ExecClass::Load, c);
    gto.on_issue(slot, 0, functional::ExecClass::Load, c);
    daws.issued(slot, k, at(4, 32, 5));  // loops without locality: no footprint
    EXPECT_EQ(daws.order(0, c), gto.order(0, c)) << c;
    for (uint32_t s = 0; s < 4; ++s) EXPECT_TRUE(daws.allows_l1d_load(s));
  }
}

}  // namespace
}  // namespace simtlm::models::sched
