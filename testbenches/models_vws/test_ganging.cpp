// The warp ganging unit's parts (models/vws/gang_table.h, gang_issue.h,
// fetch_arbiter.h) against the seed's rules and invariants (notes §10.3-10.7,
// §15.5): formation at CTA launch, control-flow and memory splits into the
// right sub-gangs and singletons, opportunistic reformation (one original
// gang per step, two units at one PC, never across original gangs), the
// 32 x 4 set/way limits, the disjoint-mask issue rule with up to 2 gangs per
// cycle and the gang orders, and the 2-port fetch arbitration (gang first,
// fair among slices).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "models/vws/fetch_arbiter.h"
#include "models/vws/gang_issue.h"
#include "models/vws/gang_table.h"
#include "simtlm/error.h"

namespace simtlm::models::vws {
namespace {

// The seed's table: 1024 threads = 32 original gangs of 8 4-wide warps.
GangTable seed_table() { return GangTable(32, 8); }

std::map<SliceMask, uint32_t> gangs_of(const GangTable& t, uint32_t set) {
  std::map<SliceMask, uint32_t> m;  // mask -> pc
  for (uint32_t w = 0; w < t.ways(); ++w) {
    const GangEntry& e = t.gang(t.gang_id(set, w));
    if (e.valid_entry) m[e.mask] = e.pc;
  }
  return m;
}

TEST(GangTable, HasTheSeedsGeometry) {
  const GangTable t = seed_table();
  EXPECT_EQ(t.sets(), 32u);
  EXPECT_EQ(t.ways(), 4u);  // a gang of 8 splits into at most 4 gangs of >= 2
  EXPECT_EQ(t.sets() * t.ways(), 128u);
}

TEST(GangTable, FormsOneGangPerOriginalGangAtLaunch) {
  GangTable t = seed_table();
  const uint32_t g0 = t.form(0, 0xFF, 10);
  ASSERT_NE(g0, kNoGang);
  EXPECT_EQ(t.gang(g0).mask, 0xFFu);
  EXPECT_EQ(t.gang(g0).pc, 10u);
  EXPECT_EQ(t.independent(0), 0u);
  for (uint32_t s = 0; s < 8; ++s) EXPECT_EQ(t.gang_of(0, s), g0);
  // A CTA of 48 threads: its second original gang has 4 warps (slices 0-3).
  const uint32_t g1 = t.form(1, 0x0F, 10);
  EXPECT_EQ(t.gang(g1).mask, 0x0Fu);
  // One warp alone is not a gang: it goes to its slice.
  EXPECT_EQ(t.form(2, 0x01, 10), kNoGang);
  EXPECT_EQ(t.independent(2), 0x01u);
  EXPECT_EQ(t.gangs_in_use(), 2u);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, ControlFlowDivergenceSplitsIntoGangsAndSingletons) {
  GangTable t = seed_table();
  const uint32_t g = t.form(3, 0xFF, 0);
  // Slices 0,1,6 at A; 2,3,4 at B; 5 at C; 7 at D.
  const uint32_t A = 20, B = 30, C = 40, D = 50;
  const uint32_t pcs[8] = {A, A, B, B, B, C, A, D};
  EXPECT_EQ(t.split_by_pc(g, [&](uint32_t s) { return pcs[s]; }), 4u);
  const auto gangs = gangs_of(t, 3);
  ASSERT_EQ(gangs.size(), 2u);
  EXPECT_EQ(gangs.at(0x43), A);
  EXPECT_EQ(gangs.at(0x1C), B);
  EXPECT_EQ(t.independent(3), 0xA0u);  // slices 5 and 7
  EXPECT_EQ(t.gang_of(3, 5), kNoGang);
  EXPECT_EQ(t.splits(SplitCause::ControlFlow), 1u);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, UniformPcsNeverSplit) {
  GangTable t = seed_table();
  const uint32_t g = t.form(0, 0xFF, 0);
  for (uint32_t pc = 1; pc < 50; ++pc) EXPECT_EQ(t.split_by_pc(g, [&](uint32_t) { return pc; }), 1u);
  EXPECT_EQ(t.gang(g).mask, 0xFFu);
  EXPECT_EQ(t.gang(g).pc, 49u);
  EXPECT_EQ(t.splits(SplitCause::ControlFlow), 0u);
}

// The worst split (four pairs) fills the set's 4 ways; every set doing it
// fills all 128 entries, and splits never take a way of another set.
TEST(GangTable, FourPairsFillTheSetsWaysAndNoMore) {
  GangTable t = seed_table();
  for (uint32_t set = 0; set < 32; ++set) {
    const uint32_t g = t.form(set, 0xFF, 0);
    EXPECT_EQ(t.split_by_pc(g, [](uint32_t s) { return s / 2; }), 4u);
    EXPECT_EQ(gangs_of(t, set).size(), 4u);
  }
  EXPECT_EQ(t.gangs_in_use(), 128u);
  EXPECT_EQ(t.check(), "");
  // A pair splitting further makes two singletons, not a fifth way.
  const uint32_t pair = t.gang_of(5, 2);
  EXPECT_EQ(t.split_by_pc(pair, [](uint32_t s) { return s; }), 2u);
  EXPECT_EQ(gangs_of(t, 5).size(), 3u);
  EXPECT_EQ(t.independent(5), 0x0Cu);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, ImpatientMemorySplitMakesEveryMemberIndependent) {
  GangTable t = seed_table();
  const uint32_t g = t.form(0, 0xFF, 7);
  EXPECT_FALSE(t.split_by_ready(g, 0xFF, true));  // everybody ready together: no divergence
  EXPECT_FALSE(t.split_by_ready(g, 0x00, true));
  EXPECT_TRUE(t.split_by_ready(g, 0x01, true));
  EXPECT_EQ(t.independent(0), 0xFFu);
  EXPECT_EQ(t.gangs_in_use(), 0u);
  EXPECT_EQ(t.splits(SplitCause::MemoryImpatient), 1u);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, GroupMemorySplitKeepsWarpsReadyInTheSameCycleTogether) {
  GangTable t = seed_table();
  const uint32_t g = t.form(0, 0xFF, 7);
  EXPECT_TRUE(t.split_by_ready(g, 0x0F, false));
  auto gangs = gangs_of(t, 0);
  ASSERT_EQ(gangs.size(), 2u);
  EXPECT_EQ(gangs.count(0x0F), 1u);
  EXPECT_EQ(gangs.count(0xF0), 1u);
  // One warp ready alone leaves as a singleton; the other three stay a gang.
  EXPECT_TRUE(t.split_by_ready(t.gang_of(0, 4), 0x10, false));
  gangs = gangs_of(t, 0);
  EXPECT_EQ(gangs.count(0xE0), 1u);
  EXPECT_EQ(t.independent(0), 0x10u);
  EXPECT_EQ(t.splits(SplitCause::MemoryGroup), 2u);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, ReformationMergesTwoUnitsAtOnePcOfOneOriginalGang) {
  GangTable t = seed_table();
  const uint32_t g = t.form(0, 0xFF, 0);
  uint32_t pcs[8] = {1, 1, 2, 2, 2, 3, 1, 4};
  t.split_by_pc(g, [&](uint32_t s) { return pcs[s]; });  // {0,1,6}@1 {2,3,4}@2 5@3 7@4
  auto always = [](uint32_t, uint32_t) { return true; };
  auto pc_of = [&](uint32_t, uint32_t s) { return pcs[s]; };
  EXPECT_EQ(t.reform_one(pc_of, always), kNoGang);  // no two units at one PC
  // Warp 5 reaches the gang {2,3,4}'s PC, warp 7 the gang {0,1,6}'s.
  pcs[5] = 2;
  pcs[7] = 1;
  const uint32_t first = t.reform_one(pc_of, always);
  ASSERT_NE(first, kNoGang);
  EXPECT_EQ(t.gang(first).mask, 0xC3u);  // the first pair in slice order: {0,1,6} + 7
  EXPECT_EQ(t.independent(0), 0x20u);    // one merge per step: 5 waits
  const uint32_t second = t.reform_one(pc_of, always);
  EXPECT_EQ(t.gang(second).mask, 0x3Cu);
  EXPECT_EQ(t.reformations(), 2u);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, ReformationNeverCrossesOriginalGangsAndSkipsBusyWarps) {
  GangTable t = seed_table();
  t.form(0, 0x01, 5);  // two original gangs with one warp each, same PC
  t.form(1, 0x01, 5);
  auto pc_of = [](uint32_t, uint32_t) { return 5u; };
  EXPECT_EQ(t.reform_one(pc_of, [](uint32_t, uint32_t) { return true; }), kNoGang);
  t.retire(0, 0);
  t.retire(1, 0);
  t.form(0, 0x03, 5);
  t.split_by_pc(t.gang_of(0, 0), [](uint32_t s) { return s; });
  // Both warps are at PC 5 again, but slice 1's is mid-instruction.
  EXPECT_EQ(t.reform_one(pc_of, [](uint32_t, uint32_t s) { return s != 1; }), kNoGang);
  EXPECT_NE(t.reform_one(pc_of, [](uint32_t, uint32_t) { return true; }), kNoGang);
  EXPECT_EQ(t.check(), "");
}

TEST(GangTable, RetiringDissolvesAGangLeftWithOneWarp) {
  GangTable t = seed_table();
  const uint32_t g = t.form(0, 0x03, 0);
  t.retire(0, 0);
  EXPECT_EQ(t.gangs_in_use(), 0u);
  EXPECT_EQ(t.independent(0), 0x02u);
  EXPECT_EQ(t.gang_of(0, 1), kNoGang);
  EXPECT_FALSE(t.gang(g).valid_entry);
  t.retire(0, 1);
  EXPECT_EQ(t.live(0), 0u);
  EXPECT_EQ(t.check(), "");
}

// Random splits, merges and exits keep the partition invariant.
TEST(GangTable, RandomOperationsKeepThePartitionInvariant) {
  GangTable t(4, 8);
  std::mt19937 rng(25);
  std::vector<uint32_t> pcs(4 * 8, 0);
  for (uint32_t set = 0; set < 4; ++set) t.form(set, 0xFF, 0);
  for (int step = 0; step < 5000; ++step) {
    const uint32_t set = rng() % 4, slice = rng() % 8;
    const uint32_t op = rng() % 5;
    if (!(t.live(set) >> slice & 1u)) {
      if (t.live(set) == 0) {
        t.form(set, 0xFF, 0);
        for (uint32_t s = 0; s < 8; ++s) pcs[set * 8 + s] = 0;
      }
      continue;
    }
    const uint32_t g = t.gang_of(set, slice);
    if (op == 0 && g != kNoGang) {
      for (uint32_t s = 0; s < 8; ++s) pcs[set * 8 + s] = rng() % 3;
      t.split_by_pc(g, [&](uint32_t s) { return pcs[set * 8 + s]; });
    } else if (op == 1 && g != kNoGang) {
      t.split_by_ready(g, static_cast<SliceMask>(rng()), rng() % 2 == 0);
    } else if (op == 2) {
      t.reform_one([&](uint32_t st, uint32_t s) { return pcs[st * 8 + s]; }, [](uint32_t, uint32_t) { return true; });
    } else if (op == 3 && rng() % 8 == 0) {
      t.retire(set, slice);
    }
    ASSERT_EQ(t.check(), "") << "step " << step;
  }
}

// ---- gang issue

TEST(GangIssue, CoIssuedGangsHaveDisjointMasks) {
  GangIssue bgto(GangOrder::Bgto, 2);
  SliceMask used = 0;
  // BGTO takes the whole gang; the halves conflict with it.
  auto chosen = bgto.select({{1, 0x0F, 0, 0}, {2, 0xF0, 0, 1}, {3, 0xFF, 0, 2}}, used);
  EXPECT_EQ(chosen, std::vector<uint32_t>({3}));
  EXPECT_EQ(used, 0xFFu);
  // GTO takes the oldest (a half), then the other half fits.
  GangIssue gto(GangOrder::Gto, 2);
  chosen = gto.select({{1, 0x0F, 0, 0}, {2, 0xF0, 0, 1}, {3, 0xFF, 0, 2}}, used);
  EXPECT_EQ(chosen, std::vector<uint32_t>({1, 2}));
  EXPECT_EQ(used, 0xFFu);
  // Overlapping gangs never issue together, whatever the order.
  chosen = gto.select({{4, 0x07, 0, 0}, {5, 0x0C, 0, 1}}, used);
  EXPECT_EQ(chosen, std::vector<uint32_t>({4}));
  EXPECT_EQ(used, 0x07u);
}

TEST(GangIssue, AtMostMaxGangsPerCycle) {
  const std::vector<GangCandidate> pairs = {{1, 0x03, 0, 0}, {2, 0x0C, 0, 1}, {3, 0x30, 0, 2}, {4, 0xC0, 0, 3}};
  SliceMask used = 0;
  GangIssue two(GangOrder::Bgto, 2), one(GangOrder::Bgto, 1), four(GangOrder::Bgto, 4);
  EXPECT_EQ(two.select(pairs, used).size(), 2u);
  EXPECT_EQ(used, 0x0Fu);  // the slices left go to independent warps
  EXPECT_EQ(one.select(pairs, used).size(), 1u);
  EXPECT_EQ(four.select(pairs, used).size(), 4u);
  EXPECT_EQ(used, 0xFFu);
}

TEST(GangIssue, OrdersRankAsNamed) {
  SliceMask used = 0;
  const std::vector<GangCandidate> c = {{1, 0x03, 40, 0}, {2, 0x3C, 10, 1}, {3, 0xC0, 30, 2}};
  GangIssue big(GangOrder::Bgto, 1), little(GangOrder::Lgto, 1), lpc(GangOrder::Lpc, 1), gto(GangOrder::Gto, 1);
  EXPECT_EQ(big.select(c, used), std::vector<uint32_t>({2}));     // 4 members
  EXPECT_EQ(little.select(c, used), std::vector<uint32_t>({1}));  // 2 members, older than gang 3
  EXPECT_EQ(lpc.select(c, used), std::vector<uint32_t>({2}));     // pc 10
  EXPECT_EQ(gto.select(c, used), std::vector<uint32_t>({1}));     // oldest
  // Greedy: gang 3 issued last stays first while it can issue.
  EXPECT_EQ(gto.select({{3, 0xC0, 30, 2}}, used), std::vector<uint32_t>({3}));
  EXPECT_EQ(gto.select(c, used), std::vector<uint32_t>({3}));
  GangIssue lrr(GangOrder::Lrr, 1);
  EXPECT_EQ(lrr.select(c, used), std::vector<uint32_t>({1}));
  EXPECT_EQ(lrr.select(c, used), std::vector<uint32_t>({2}));
  EXPECT_EQ(lrr.select(c, used), std::vector<uint32_t>({3}));
  EXPECT_EQ(lrr.select(c, used), std::vector<uint32_t>({1}));
  EXPECT_THROW(gang_order_from_name("oldest"), Error);
  EXPECT_EQ(gang_order_from_name("bgto"), GangOrder::Bgto);
}

// ---- fetch arbiter

TEST(FetchArbiter, GangFetchesFirstThenSlices) {
  FetchArbiter a(2, 8);
  FetchArbiter::Grant g = a.arbitrate(1, 0xFF);
  EXPECT_EQ(g.gang_fetches, 1u);
  EXPECT_EQ(__builtin_popcount(g.slices), 1);
  g = a.arbitrate(2, 0xFF);
  EXPECT_EQ(g.gang_fetches, 2u);
  EXPECT_EQ(g.slices, 0u);
  g = a.arbitrate(3, 0);
  EXPECT_EQ(g.gang_fetches, 2u);  // never more than the ports
  g = a.arbitrate(0, 0x81);
  EXPECT_EQ(g.slices, 0x81u);
}

TEST(FetchArbiter, SlicesAreServedFairly) {
  FetchArbiter a(2, 8);
  // Every slice asks every cycle: each is served once in every 4 cycles.
  std::vector<int> served(8, 0);
  for (int c = 0; c < 400; ++c) {
    const FetchArbiter::Grant g = a.arbitrate(0, 0xFF);
    EXPECT_EQ(__builtin_popcount(g.slices), 2);
    for (int s = 0; s < 8; ++s) served[s] += (g.slices >> s) & 1;
  }
  for (int s = 0; s < 8; ++s) EXPECT_EQ(served[s], 100) << "slice " << s;
  // A slice that keeps asking is served within slices / ports cycles even
  // when its neighbours ask too.
  FetchArbiter b(2, 8);
  int wait = 0, worst = 0;
  for (int c = 0; c < 200; ++c) {
    const FetchArbiter::Grant g = b.arbitrate(0, (c % 3 == 0) ? 0xFF : 0x83);
    if ((g.slices >> 7) & 1) {
      worst = std::max(worst, wait);
      wait = 0;
    } else {
      ++wait;
    }
  }
  EXPECT_LE(worst, 3);
}

}  // namespace
}  // namespace simtlm::models::vws
