// CCWS's parts in isolation (seed note 002 §5.3-5.5, §15.3): the victim tag
// array's partitioning and capacity, and the lost-locality scores worked by
// hand through the sequence of the thesis' Fig 3.7 (4 warps, base 100,
// K_THROTTLE 8). Expected values are computed in the comments from Eq. 3.1,
// not taken from the code.
#include <gtest/gtest.h>

#include "models/sched/ccws.h"
#include "models/sched/locality_scores.h"
#include "models/sched/victim_tags.h"

namespace simtlm::models::sched {
namespace {

constexpr uint64_t kLine = 128;

// ---- victim tag array ----------------------------------------------------------

TEST(VictimTags, PartitionedPerWarpAndInvalidatedOnHit) {
  VictimTagArray vta(4, 16, 8, kLine);
  EXPECT_EQ(vta.sets_per_warp(), 2u);  // 16 entries, 8-way
  vta.insert(1, 0x1000);
  EXPECT_FALSE(vta.probe(2, 0x1000));  // another warp's victim: never a hit
  EXPECT_FALSE(vta.probe(1, 0x1080));  // another line
  EXPECT_TRUE(vta.probe(1, 0x1000 + 5));  // same line, any byte of it
  EXPECT_FALSE(vta.probe(1, 0x1000));  // the hit invalidated the entry
  EXPECT_EQ(vta.occupancy(1), 0u);
}

TEST(VictimTags, EachWarpHoldsSixteenTagsInTwoSetsOfEightLru) {
  VictimTagArray vta(2, 16, 8, kLine);
  // Even line numbers map to set 0: nine of them overflow its eight ways and
  // the least recently inserted (line 0) goes.
  for (uint64_t n = 0; n < 9; ++n) vta.insert(0, 2 * n * kLine);
  // Odd line numbers fill set 1 independently.
  for (uint64_t n = 0; n < 8; ++n) vta.insert(0, (2 * n + 1) * kLine);
  EXPECT_EQ(vta.occupancy(0), 16u);
  EXPECT_EQ(vta.occupancy(1), 0u);
  EXPECT_FALSE(vta.probe(0, 0));
  for (uint64_t n = 1; n < 9; ++n) EXPECT_TRUE(vta.probe(0, 2 * n * kLine)) << n;
  for (uint64_t n = 0; n < 8; ++n) EXPECT_TRUE(vta.probe(0, (2 * n + 1) * kLine)) << n;
}

TEST(VictimTags, ClearEmptiesOnlyThatWarp) {
  VictimTagArray vta(2, 16, 8, kLine);
  vta.insert(0, 0);
  vta.insert(1, 0);
  vta.clear(0);
  EXPECT_FALSE(vta.probe(0, 0));
  EXPECT_TRUE(vta.probe(1, 0));
}

TEST(VictimTags, StorageMatchesTheThesisTags) {
  // 32 warps x 16 entries, 48-bit addresses - 7 offset bits - 1 set bit = 40-bit
  // tags (§5.2), plus one valid bit each.
  VictimTagArray vta(32, 16, 8, kLine);
  EXPECT_EQ(vta.storage_bits(), 512u * 41u);
  PolicyParams p;
  p.max_warps = 32;
  // + 256 L1D lines x 5-bit owner ids (160 bytes) + 32 x 10-bit scores.
  EXPECT_EQ(CcwsPolicy::storage_bits(p, 256), 512u * 41u + 256u * 5u + 320u);
}

// ---- lost-locality scores: Fig 3.7 by hand ---------------------------------------

bool loads(const LostLocalityScores& s, uint32_t w) { return s.can_load(w); }

TEST(LocalityScores, Fig37Sequence) {
  LostLocalityScores s(4, 100, 8.0);
  for (uint32_t w = 0; w < 4; ++w) s.add(w, w, 0);  // W0 oldest
  EXPECT_EQ(s.cutoff(), 400u);
  // Cycle 0: 64 instructions issue (counted at the end of cycle 0).
  for (int i = 0; i < 64; ++i) s.instruction(0);
  // Cycle 1: three VTA hits of W1. LLDS uses the earlier cycles' hits: 0/64
  // -> 0, so W1 stays at base (max(100, 0)).
  for (int i = 0; i < 3; ++i) s.vta_hit(1, 1);
  s.update(1);
  EXPECT_EQ(s.score(1, 1), 100u);
  EXPECT_EQ(s.blocked(), 0u);
  // Cycle 2 (T0->T1): W2 hits. LLDS = 3/64 x 8 x 400 = 150. Stack W2 150,
  // W0 100, W1 100, W3 100 (ties oldest first): prefix 150 250 350 450 ->
  // W3 above the cutoff.
  EXPECT_EQ(s.llds(2), 150u);
  s.vta_hit(2, 2);
  s.update(2);
  EXPECT_EQ(s.score(2, 2), 150u);
  EXPECT_TRUE(loads(s, 0) && loads(s, 1) && loads(s, 2));
  EXPECT_FALSE(loads(s, 3));
  // Cycle 3 (T1->T2): W0 hits. LLDS = 4/64 x 8 x 400 = 200; W2 decayed to
  // 149. Stack W0 200, W2 149, W1 100, W3 100: 200 349 449 549 -> W1 and W3
  // blocked.
  s.vta_hit(0, 3);
  s.update(3);
  EXPECT_EQ(s.score(0, 3), 200u);
  EXPECT_EQ(s.score(2, 3), 149u);
  EXPECT_TRUE(loads(s, 0) && loads(s, 2));
  EXPECT_FALSE(loads(s, 1));
  EXPECT_FALSE(loads(s, 3));
  // T2->T3, no hits: W2 is back at base at cycle 3 + 49 = 52, W0 at
  // 200 - 49 = 151: stack W0 151, W1, W2, W3 at 100 -> 451: only W3 blocked.
  s.update(52);
  EXPECT_EQ(s.score(2, 52), 100u);
  EXPECT_EQ(s.score(0, 52), 151u);
  EXPECT_TRUE(loads(s, 1) && loads(s, 2));
  EXPECT_FALSE(loads(s, 3));
  // W0 reaches base at cycle 103 (200 - 100); at 102 it is 101 -> 401 > 400.
  s.update(102);
  EXPECT_FALSE(loads(s, 3));
  s.update(103);
  EXPECT_EQ(s.blocked(), 0u);
  // T3->T4: W2 finishes, the cutoff becomes 3 x 100; W0 hits at cycle 110:
  // five hits so far (3 + 1 + 1), LLDS = 5/64 x 8 x 300 = 187.5 -> 187.
  // Stack W0 187, W1 100, W3 100: 187 287 387 -> W3 blocked.
  s.remove(2, 104);
  EXPECT_EQ(s.cutoff(), 300u);
  s.vta_hit(0, 110);
  s.update(110);
  EXPECT_EQ(s.score(0, 110), 187u);
  EXPECT_TRUE(loads(s, 0) && loads(s, 1));
  EXPECT_FALSE(loads(s, 3));
}

TEST(LocalityScores, HitsOfOneCycleShareTheLldsAndNeverExceedIt) {
  LostLocalityScores s(2, 100, 8.0);
  s.add(0, 0, 0);
  s.add(1, 1, 0);
  for (int i = 0; i < 32; ++i) s.instruction(0);
  s.vta_hit(1, 0);  // LLDS 0: no change, counted at the end of cycle 0
  // Cycle 5: LLDS = 1/32 x 8 x 200 = 50 < base: max(100, 50) = 100.
  s.vta_hit(0, 5);
  EXPECT_EQ(s.score(0, 5), 100u);
  // Cycle 6: LLDS = 2/32 x 8 x 200 = 100. Cycle 7: 3/32 x 1600 = 150, and a
  // second hit in cycle 7 uses the same LLDS: 150, not more.
  s.vta_hit(0, 6);
  s.vta_hit(0, 7);
  s.vta_hit(0, 7);
  EXPECT_EQ(s.score(0, 7), 150u);
  // Decay: exactly one point per cycle, never below base.
  EXPECT_EQ(s.score(0, 8), 149u);
  EXPECT_EQ(s.score(0, 57), 100u);
  EXPECT_EQ(s.score(0, 1000), 100u);
}

TEST(LocalityScores, KThrottleZeroNeverThrottles) {
  LostLocalityScores s(4, 100, 0.0);
  for (uint32_t w = 0; w < 4; ++w) s.add(w, w, 0);
  s.instruction(0);
  for (uint64_t c = 1; c < 20; ++c) {
    s.vta_hit(c % 4, c);
    s.update(c);
    EXPECT_EQ(s.blocked(), 0u) << c;
    for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(s.score(w, c), 100u);
  }
}

TEST(LocalityScores, LldsIsMonotoneInHitRateAndK) {
  uint64_t last = 0;
  for (double k : {1.0, 2.0, 8.0, 32.0}) {
    LostLocalityScores s(4, 100, k);
    for (uint32_t w = 0; w < 4; ++w) s.add(w, w, 0);
    for (int i = 0; i < 100; ++i) s.instruction(0);
    s.vta_hit(0, 0);
    EXPECT_GE(s.llds(1), last) << k;  // 1/100 x k x 400
    EXPECT_EQ(s.llds(1), static_cast<uint64_t>(4 * k));
    last = s.llds(1);
  }
}

// ---- the policy: detector wiring ------------------------------------------------

CacheEvent event(CacheEventKind kind, uint64_t line, int32_t warp, int32_t owner, uint64_t cycle) {
  CacheEvent e;
  e.kind = kind;
  e.line_addr = line;
  e.warp_id = warp;
  e.owner_warp = owner;
  e.cycle = cycle;
  return e;
}

TEST(CcwsPolicy, OnlyTheOwnersOwnMissesHitTheVictimTags) {
  PolicyParams p;
  p.name = "ccws";
  p.max_warps = 4;
  CcwsPolicy ccws(p);
  for (uint32_t w = 0; w < 4; ++w) {
    WarpInfo info;
    info.slot = w;
    info.age = w;
    ccws.warp_added(info);
  }
  ccws.on_cache_event(event(CacheEventKind::Evict, 0x4000, -1, 1, 1));
  ccws.on_cache_event(event(CacheEventKind::Miss, 0x4000, 2, 2, 2));        // warp 2: not its victim
  ccws.on_cache_event(event(CacheEventKind::SectorMiss, 0x4000, 1, 1, 3));  // not a line miss
  EXPECT_EQ(ccws.scores().vta_hits_total(), 0u);
  ccws.on_cache_event(event(CacheEventKind::Miss, 0x4000, 1, 1, 4));
  EXPECT_EQ(ccws.scores().vta_hits_total(), 1u);
  // With every score at base nothing is vetoed (identical to GTO).
  ccws.order(0, 5);
  for (uint32_t w = 0; w < 4; ++w) EXPECT_TRUE(ccws.allows_l1d_load(w));
  EXPECT_TRUE(ccws.allows(0, functional::ExecClass::Load));
}

}  // namespace
}  // namespace simtlm::models::sched
