// The seed's Fig. 3 (seed note 001 §1.3, §6 items 3 and 15) and the Max-live
// recursion over calls (§1.4): frontend/passes/moving_stack.h.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontend/passes/moving_stack.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {
namespace {

// proc_A -> proc_B -> proc_C, four slots each; La1 and La3 live across
// A's call, Lb2 and Lb3 across B's (0-based: {0, 2} and {1, 2}).
const CallChain kFig3 = {{4, 4, 4}, {{0, 2}, {1, 2}}};

TEST(MovingStack, Figure3SlotCountsAre12And10And8) {
  EXPECT_EQ(traditional_depth(kFig3), 12u);
  EXPECT_EQ(register_stack_depth(kFig3), 10u);
  EXPECT_EQ(moving_stack_depth(kFig3), 8u);
  // C starts at the 5th slot (0-based 4); the seed's "6th" contradicts its own total.
  EXPECT_EQ(moving_stack_bases(kFig3), std::vector<uint32_t>({0, 2, 4}));
}

TEST(MovingStack, CompactionMovesAreTheSeedsShuffles) {
  // "the variable in La3 is shuffled to the second slot"
  EXPECT_EQ(compaction_moves({0, 2}), (std::vector<std::pair<uint32_t, uint32_t>>{{2, 1}}));
  // "we move the variable in Lb3 to Lb1"
  EXPECT_EQ(compaction_moves({1, 2}), (std::vector<std::pair<uint32_t, uint32_t>>{{2, 0}}));
  EXPECT_TRUE(compaction_moves({0, 1}).empty());
  EXPECT_TRUE(compaction_moves({}).empty());
}

// §6 item 3: after the moves the live slots are exactly 0..m-1, so the
// callee's frame (from m) overlaps none of them; on random live sets.
TEST(MovingStack, CompactedLiveSlotsAreDisjointFromTheCalleeFrame) {
  for (uint32_t mask = 0; mask < (1u << 8); ++mask) {
    std::vector<uint32_t> live;
    for (uint32_t s = 0; s < 8; ++s)
      if (mask >> s & 1) live.push_back(s);
    std::set<uint32_t> after(live.begin(), live.end());
    for (const auto& [from, to] : compaction_moves(live)) {
      ASSERT_TRUE(after.count(from));
      ASSERT_FALSE(after.count(to)) << "a move overwrites a live slot";
      after.erase(from);
      after.insert(to);
    }
    std::set<uint32_t> expected;
    for (uint32_t s = 0; s < live.size(); ++s) expected.insert(s);
    EXPECT_EQ(after, expected);
  }
}

TEST(MovingStack, MaxLiveAddsTheCalleesAtCallSites) {
  // kernel: live 3, 2 (call f), 1;  f: 1, 2 (call g), 4;  g: 5.
  std::vector<ProcedureLiveness> p(3);
  p[0] = {{3, 2, 1}, {-1, 1, -1}};
  p[1] = {{1, 2, 4}, {-1, 2, -1}};
  p[2] = {{5}, {-1}};
  const std::vector<uint32_t> m = max_live_over_calls(p, {"kernel", "f", "g"});
  EXPECT_EQ(m[2], 5u);
  EXPECT_EQ(m[1], 7u);  // 2 + 5
  EXPECT_EQ(m[0], 9u);  // 2 + 7
}

TEST(MovingStack, RecursionIsAnErrorNamingTheProcedure) {
  std::vector<ProcedureLiveness> p(2);
  p[0] = {{1, 1}, {-1, 1}};
  p[1] = {{1, 1}, {0, -1}};
  try {
    max_live_over_calls(p, {"kernel", "walk"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("recursively"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simtlm::frontend::passes
