// Offline LRU / Belady replay (models/cache/cache_replay.h) on sequences
// worked by hand, including Rogers' toy example of Figs 3.4/3.5 (seed note
// 002 §6.2): 3 warps each touching 4 lines, a 4-entry fully associative LRU
// cache; round-robin order gives 0 hits, the locality-aware order 12.
#include <gtest/gtest.h>

#include "models/cache/cache_replay.h"

namespace simtlm::models {
namespace {

constexpr uint64_t kLine = 128;

CacheParams fully_associative(uint32_t ways) {
  CacheParams p;
  p.sets = 1;
  p.ways = ways;
  p.line_bytes = kLine;
  p.write_policy = WritePolicy::WriteEvict;
  return p;
}

std::vector<ReplayAccess> reads(const std::vector<uint64_t>& lines) {
  std::vector<ReplayAccess> v;
  for (uint64_t l : lines) v.push_back({l * kLine, false});
  return v;
}

TEST(CacheReplay, RogersToyExampleRoundRobinVersusGrouped) {
  // Warp w's instruction touches lines 4w..4w+3.
  auto instruction = [](uint64_t w) { return std::vector<uint64_t>{4 * w, 4 * w + 1, 4 * w + 2, 4 * w + 3}; };
  std::vector<uint64_t> rr, grouped;
  for (uint64_t w : {0, 1, 2, 0, 1, 2}) for (uint64_t l : instruction(w)) rr.push_back(l);
  for (uint64_t w : {0, 0, 1, 1, 2, 2}) for (uint64_t l : instruction(w)) grouped.push_back(l);
  const ReplayResult a = replay_cache(fully_associative(4), reads(rr));
  EXPECT_EQ(a.reads, 24u);
  EXPECT_EQ(a.lru_misses, 24u);  // 0 hits
  const ReplayResult b = replay_cache(fully_associative(4), reads(grouped));
  EXPECT_EQ(b.lru_misses, 12u);  // 12 hits
}

TEST(CacheReplay, BeladyEvictsTheLineUsedFarthestAway) {
  // A B C A B C A B C on 2 ways: LRU misses every time; MIN keeps the line
  // needed soonest: misses at positions 0 1 2 4 6 8 (worked in the comment
  // of the test's source: hits at 3, 5, 7).
  const ReplayResult r = replay_cache(fully_associative(2), reads({0, 1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(r.lru_misses, 9u);
  EXPECT_EQ(r.opt_misses, 6u);
}

TEST(CacheReplay, StoresInvalidateUnderWriteEvictOnly) {
  std::vector<ReplayAccess> v = {{0, false}, {0, true}, {0, false}};
  ReplayResult r = replay_cache(fully_associative(2), v);
  EXPECT_EQ(r.reads, 2u);
  EXPECT_EQ(r.lru_misses, 2u);
  EXPECT_EQ(r.opt_misses, 2u);
  CacheParams wb = fully_associative(2);
  wb.write_policy = WritePolicy::WriteBack;
  r = replay_cache(wb, v);
  EXPECT_EQ(r.lru_misses, 1u);
  EXPECT_EQ(r.opt_misses, 1u);
}

TEST(CacheReplay, SetsAreIndependent) {
  // 2 sets x 1 way, linear index: even lines to set 0, odd to set 1.
  CacheParams p = fully_associative(1);
  p.sets = 2;
  const ReplayResult r = replay_cache(p, reads({0, 1, 0, 1, 2, 0}));
  EXPECT_EQ(r.lru_misses, 4u);  // 0 1 hit hit, 2 evicts 0, 0 misses
  EXPECT_EQ(r.opt_misses, 4u);  // no choice with one way
}

}  // namespace
}  // namespace simtlm::models
