// Slot assignment of the unified allocation (frontend/passes/slot_colouring.h):
// the seed's Fig. 2 example and its invariants (seed note 001 §1.2, §6 items
// 1, 2, 4, 5, 6 and 14).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "frontend/passes/slot_colouring.h"

namespace simtlm::frontend::passes {
namespace {

// Fig. 2(a) as the seed note reconstructs it (v1..v5 are 0..4): v1-v2
// adjacent; v3, v4, v5 each adjacent to v1 and v2; v4 adjacent to v3 and v5;
// v3 and v5 not adjacent. Two program points realise exactly these edges.
const std::vector<std::vector<uint32_t>> kFig2 = {{0, 1, 2, 3}, {0, 1, 3, 4}};

TEST(SlotColouring, Figure2TwoRegistersOneSharedSlotLeaveOneVariableInLocalMemory) {
  const UnifiedPlacement p = place_unified(kFig2, 5, 2, 1);
  EXPECT_EQ(p.locals, 1u);  // "The minimal number of variables to be stored in local memory is 1"
  EXPECT_EQ(p.where[0], Location::Register);  // (b) v1 -> r1
  EXPECT_EQ(p.where[1], Location::Register);  //     v2 -> r2
  EXPECT_NE(p.index[0], p.index[1]);
  EXPECT_EQ(p.where[2], Location::SharedSlot);  // (c) v3 and v5 share s1 (the note's reading of the typo)
  EXPECT_EQ(p.where[4], Location::SharedSlot);
  EXPECT_EQ(p.index[2], p.index[4]);
  EXPECT_EQ(p.where[3], Location::Local);  // v4 stays in local memory
}

TEST(SlotColouring, TheOtherReadingOfThePriorityIsWorseOnFigure2) {
  // Pruning v3 and v5 (fewest occurrences) would leave two locals; ours
  // prunes v4, which is in both over-limit live sets.
  const PruneResult r = prune_to_slots({{2, 3}, {3, 4}}, {2, 3, 4}, 1);
  EXPECT_EQ(r.pruned, std::vector<uint32_t>({3}));
  EXPECT_EQ(r.kept, std::vector<uint32_t>({2, 4}));
  EXPECT_EQ(r.max_live_before, 2u);
  EXPECT_EQ(r.max_live_after, 1u);
}

// The seed's other reading of "variable frequency" (note §1.4 [ambig]),
// PrunePriority::Accesses: with one slot for two live values, the rarely
// accessed one leaves, whatever the ids or the live-set counts say.
TEST(SlotColouring, PruningByAccessFrequencyKeepsTheMostAccessedValue) {
  const std::vector<std::vector<uint32_t>> sets = {{0, 1}, {0, 1, 2}, {1, 2}};
  // 0 is in 2 over-limit sets, 1 in 3, 2 in 2: by live sets 1 leaves first.
  const PruneResult by_sets = prune_to_slots(sets, {0, 1, 2}, 1);
  EXPECT_EQ(by_sets.pruned.front(), 1u);
  // 1 is accessed 1000 times (a loop), 0 twice, 2 three times: 0 and 2 leave.
  const PruneResult by_accesses = prune_to_slots(sets, {0, 1, 2}, 1, PrunePriority::Accesses, {2.0, 1000.0, 3.0});
  EXPECT_EQ(by_accesses.pruned, std::vector<uint32_t>({0, 2}));
  EXPECT_EQ(by_accesses.kept, std::vector<uint32_t>({1}));
  EXPECT_EQ(by_accesses.max_live_after, 1u);
  // Equal weights fall back to the live-set count, then the lowest id.
  const PruneResult ties = prune_to_slots(sets, {0, 1, 2}, 1, PrunePriority::Accesses, {5.0, 5.0, 5.0});
  EXPECT_EQ(ties.pruned, by_sets.pruned);
  // A value in no over-limit set never leaves, however rarely accessed.
  const PruneResult outside = prune_to_slots({{0, 1}, {3}}, {0, 1, 3}, 1, PrunePriority::Accesses, {4.0, 9.0, 0.0, 0.0});
  EXPECT_EQ(outside.pruned, std::vector<uint32_t>({0}));
  PrunePriority p = PrunePriority::LiveSets;
  EXPECT_TRUE(parse_prune_priority("accesses", p));
  EXPECT_EQ(p, PrunePriority::Accesses);
  EXPECT_FALSE(parse_prune_priority("frequency", p));
}

// Random live sets: §6 items 1, 2, 4, 5.
TEST(SlotColouring, PruningAndColouringInvariantsOnRandomLiveSets) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t n = 2 + rng() % 14, points = 1 + rng() % 12, slots = rng() % 6;
    std::vector<std::vector<uint32_t>> sets(points);
    for (auto& s : sets)
      for (uint32_t v = 0; v < n; ++v)
        if (rng() % 3 == 0) s.push_back(v);
    std::vector<uint32_t> candidates;
    for (uint32_t v = 0; v < n; ++v) candidates.push_back(v);
    const PruneResult r = prune_to_slots(sets, candidates, slots);
    EXPECT_LE(r.max_live_after, slots);                                         // item 4
    EXPECT_GE(r.pruned.size() + slots, static_cast<size_t>(r.max_live_before));  // item 4
    EXPECT_EQ(r.kept.size() + r.pruned.size(), candidates.size());               // item 1
    const SlotGraph g = SlotGraph::from_live_sets(n, sets);
    for (SlotOrder order : {SlotOrder::MaxCardinality, SlotOrder::Degree}) {
      const SlotColouring c = colour_slots(g, r.kept, r.max_live_after, order);
      EXPECT_LE(c.slots_used, r.max_live_after);  // item 5
      uint32_t demoted = 0;
      for (uint32_t v : r.kept) {
        if (c.slot[v] == kLocalSlot) {
          ++demoted;  // demoted, never dropped
          continue;
        }
        for (uint32_t u : g.adj[v]) EXPECT_NE(c.slot[u], c.slot[v]) << "adjacent variables share a slot";  // item 2
      }
      EXPECT_EQ(demoted, c.demoted);
    }
  }
}

// §6 item 6: live ranges of straight-line code are intervals, whose
// interference graphs are chordal: colouring within max-live demotes nothing.
TEST(SlotColouring, ChordalGraphsNeedNoDemotion) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 1 + rng() % 20, points = 30;
    std::vector<std::vector<uint32_t>> sets(points);
    for (uint32_t v = 0; v < n; ++v) {
      const uint32_t a = rng() % points, b = a + rng() % (points - a);
      for (uint32_t p = a; p <= b; ++p) sets[p].push_back(v);
    }
    std::vector<char> all(n, 1);
    const uint32_t live = max_live(sets, all);
    std::vector<uint32_t> nodes;
    for (uint32_t v = 0; v < n; ++v) nodes.push_back(v);
    const SlotColouring c = colour_slots(SlotGraph::from_live_sets(n, sets), nodes, live);
    EXPECT_EQ(c.demoted, 0u) << "trial " << trial;
    EXPECT_EQ(c.slots_used, live);
  }
}

TEST(SlotColouring, ASlotAlreadyUsedIsReusedBeforeANewOne) {
  // 0-1 adjacent, 2 adjacent to 1 only: 2 takes 0's slot, not a third.
  const SlotGraph g = SlotGraph::from_live_sets(3, {{0, 1}, {1, 2}});
  const SlotColouring c = colour_slots(g, {0, 1, 2}, 0xFFFFFFFFu, SlotOrder::Degree);
  EXPECT_EQ(c.slots_used, 2u);
  EXPECT_EQ(c.slot[0], c.slot[2]);
  EXPECT_NE(c.slot[0], c.slot[1]);
}

// 64-bit values (width 2): pruning counts two slots for them, colouring gives
// them two distinct slots that no variable live with them holds.
TEST(SlotColouring, AWideVariableCountsTwoAndTakesTwoSlotsOrNone) {
  const std::vector<uint8_t> widths = {2};
  const PruneResult one = prune_to_slots({{0}}, {0}, 1, PrunePriority::LiveSets, {}, widths);
  EXPECT_EQ(one.max_live_before, 2u);
  EXPECT_EQ(one.pruned, std::vector<uint32_t>({0}));  // does not fit one slot
  const PruneResult two = prune_to_slots({{0}}, {0}, 2, PrunePriority::LiveSets, {}, widths);
  EXPECT_EQ(two.kept, std::vector<uint32_t>({0}));
  const SlotGraph g1 = SlotGraph::from_live_sets(1, {{0}});
  const SlotColouring c = colour_slots(g1, {0}, 2, SlotOrder::MaxCardinality, widths);
  EXPECT_EQ(c.slots_used, 2u);
  EXPECT_NE(c.slot[0], c.slot2[0]);
  EXPECT_NE(c.slot2[0], kLocalSlot);
  // One slot only: demoted whole, no slot opened for half of it.
  const SlotColouring none = colour_slots(g1, {0}, 1, SlotOrder::MaxCardinality, widths);
  EXPECT_EQ(none.slot[0], kLocalSlot);
  EXPECT_EQ(none.slot2[0], kLocalSlot);
  EXPECT_EQ(none.demoted, 1u);
  EXPECT_EQ(none.slots_used, 0u);
  // 0 (wide) live with 1, then 1 with 2 (wide): 2 reuses 0's two slots, and 1
  // is in neither; with 3 slots the live sets fit (max-live 3 words).
  const std::vector<std::vector<uint32_t>> sets = {{0, 1}, {1, 2}};
  const std::vector<uint8_t> w = {2, 1, 2};
  const PruneResult r = prune_to_slots(sets, {0, 1, 2}, 3, PrunePriority::LiveSets, {}, w);
  EXPECT_EQ(r.max_live_before, 3u);
  EXPECT_TRUE(r.pruned.empty());
  const SlotColouring c3 = colour_slots(SlotGraph::from_live_sets(3, sets), r.kept, 3, SlotOrder::MaxCardinality, w);
  EXPECT_EQ(c3.slots_used, 3u);
  EXPECT_EQ(c3.demoted, 0u);
  for (int32_t s : {c3.slot[0], c3.slot2[0], c3.slot[2], c3.slot2[2]}) EXPECT_NE(s, c3.slot[1]);
  // With 2 slots: 1 + 2 words > 2 in both sets, a wide one leaves.
  const PruneResult r2 = prune_to_slots(sets, {0, 1, 2}, 2, PrunePriority::LiveSets, {}, w);
  EXPECT_LE(r2.max_live_after, 2u);
  EXPECT_FALSE(r2.pruned.empty());
}

// The priorities per slot: a 64-bit value frees two slots of every
// over-limit set it is in, and its accesses are spread over two slots.
TEST(SlotColouring, PruningPrioritiesCountAWideVariablePerSlot) {
  const std::vector<std::vector<uint32_t>> sets = {{0, 1}};  // 1 + 2 words, 2 slots
  const std::vector<uint8_t> w = {1, 2};
  // Both in the one over-limit set: the wide one frees two slots (by
  // occurrences alone the tie would evict 0, the lowest id).
  EXPECT_EQ(prune_to_slots(sets, {0, 1}, 2, PrunePriority::LiveSets, {}, w).pruned, std::vector<uint32_t>({1}));
  // 5 accesses in two slots (2.5 per slot) against 3 in one: the wide one
  // leaves (by accesses alone 0 would).
  EXPECT_EQ(prune_to_slots(sets, {0, 1}, 2, PrunePriority::Accesses, {3.0, 5.0}, w).pruned,
            std::vector<uint32_t>({1}));
  EXPECT_EQ(prune_to_slots(sets, {0, 1}, 2, PrunePriority::Accesses, {3.0, 7.0}, w).pruned,
            std::vector<uint32_t>({0}));
}

TEST(SlotColouring, WideVariablesOnRandomLiveSetsNeverShareAWordWithALiveNeighbour) {
  std::mt19937 rng(19);
  uint32_t wide_coloured = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 2 + rng() % 12, points = 1 + rng() % 10, slots = rng() % 8;
    std::vector<std::vector<uint32_t>> sets(points);
    for (auto& s : sets)
      for (uint32_t v = 0; v < n; ++v)
        if (rng() % 3 == 0) s.push_back(v);
    std::vector<uint8_t> widths(n);
    std::vector<uint32_t> candidates;
    for (uint32_t v = 0; v < n; ++v) {
      widths[v] = rng() % 3 == 0 ? 2 : 1;
      candidates.push_back(v);
    }
    const PruneResult r = prune_to_slots(sets, candidates, slots, PrunePriority::LiveSets, {}, widths);
    // The largest live set, counted in words by hand, fits the slots.
    for (const auto& set : sets) {
      uint32_t words = 0;
      for (uint32_t v : set) words += std::count(r.kept.begin(), r.kept.end(), v) ? widths[v] : 0;
      EXPECT_LE(words, slots);
    }
    EXPECT_EQ(r.kept.size() + r.pruned.size(), candidates.size());
    const SlotGraph g = SlotGraph::from_live_sets(n, sets);
    const SlotColouring c = colour_slots(g, r.kept, slots, SlotOrder::MaxCardinality, widths);
    EXPECT_LE(c.slots_used, slots);
    auto words_of = [&](uint32_t v) {
      std::vector<int32_t> w;
      if (c.slot[v] != kLocalSlot) w.push_back(c.slot[v]);
      if (c.slot2[v] != kLocalSlot) w.push_back(c.slot2[v]);
      return w;
    };
    for (uint32_t v : r.kept) {
      const std::vector<int32_t> mine = words_of(v);
      EXPECT_TRUE(mine.empty() || mine.size() == widths[v]) << "a value with part of its slots";
      if (mine.size() == 2) {
        EXPECT_NE(mine[0], mine[1]);
        ++wide_coloured;
      }
      for (int32_t s : mine) EXPECT_LT(static_cast<uint32_t>(s), slots);
      for (uint32_t u : g.adj[v])
        for (int32_t s : words_of(u))
          EXPECT_EQ(std::count(mine.begin(), mine.end(), s), 0) << "live variables share a slot";
    }
  }
  EXPECT_GT(wide_coloured, 100u);  // the property was exercised
}

}  // namespace
}  // namespace simtlm::frontend::passes
