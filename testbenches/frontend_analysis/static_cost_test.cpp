// Constant trip counts and weighted longest paths (frontend/analysis/
// static_cost.h). Each expected count is worked out by hand from the loop's
// initial value, step, comparison and branch sense in the comment beside it.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "frontend/analysis/static_cost.h"
#include "frontend/passes/access_range.h"
#include "pipeline.h"

namespace simtlm::frontend::analysis {
namespace {

// A kernel with one loop whose body is `body` (the loop label is L, the
// label after it OUT); `init` comes before the loop.
std::string one_loop(const std::string& init, const std::string& body) {
  return ".version 7.0\n.target sm_70\n.address_size 64\n"
         ".visible .entry k(.param .u32 n)\n{\n"
         "  .shared .align 4 .b8 S[64];\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
         "  ld.param.u32 %r1, [n];\n  mov.u32 %r4, S;\n" +
         init + "L:\n  st.shared.u32 [%r4], %r2;\n" + body + "OUT:\n  ret;\n}\n";
}

std::vector<std::optional<uint64_t>> trips_of(const std::string& ptx, uint64_t limit = uint64_t{1} << 20) {
  const auto m = testing_ir::load(ptx);
  const ir::Function& f = m->functions.at(0);
  const FunctionAnalyses& a = *f.analysis.analyses;
  return constant_trip_counts(f, a.cfg, a.dominators, a.loops, limit);
}

std::optional<uint64_t> single_trip(const std::string& init, const std::string& body) {
  const auto trips = trips_of(one_loop(init, body));
  EXPECT_EQ(trips.size(), 1u);
  return trips.empty() ? std::nullopt : trips[0];
}

TEST(StaticCost, IncrementThenTest) {
  // v = 1, 2, ..., 10 tested after the add: the 10th test (10 < 10) fails.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 10;\n  @%p1 bra L;\n"),
            10u);
}

TEST(StaticCost, TestThenIncrement) {
  // Tested before the add: 0..9 pass, the 11th body run tests 10 and leaves.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0;\n",
                        "  setp.lt.s32 %p1, %r2, 10;\n  add.s32 %r2, %r2, 1;\n  @%p1 bra L;\n"),
            11u);
}

TEST(StaticCost, CountingDownToZero) {
  // 5, then 4, 3, 2, 1 continue and 0 stops: five runs (nvcc's remainder loops).
  EXPECT_EQ(single_trip("  mov.u32 %r2, 5;\n",
                        "  add.s32 %r2, %r2, -1;\n  setp.ne.s32 %p1, %r2, 0;\n  @%p1 bra L;\n"),
            5u);
}

TEST(StaticCost, NegatedGuardAndStepOfThree) {
  // Continue while !(v >= 10): 3, 6, 9 continue, 12 stops: four runs.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0;\n",
                        "  add.s32 %r2, %r2, 3;\n  setp.ge.s32 %p1, %r2, 10;\n  @!%p1 bra L;\n"),
            4u);
}

TEST(StaticCost, ImmediateOnTheLeftAndSub) {
  // Going round while 8 > v, v = 20 - 2 = 18 after the first run: 8 > 18
  // is false, so the body runs once.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 20;\n",
                        "  sub.s32 %r2, %r2, 2;\n  setp.gt.s32 %p1, 8, %r2;\n  @%p1 bra L;\n"),
            1u);
  // Going round while v > 8 written as 8 < v: 18, 16, 14, 12, 10 continue, 8 stops: six runs.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 20;\n",
                        "  sub.s32 %r2, %r2, 2;\n  setp.lt.s32 %p1, 8, %r2;\n  @%p1 bra L;\n"),
            6u);
}

TEST(StaticCost, WrapsAtTheRegisterWidth) {
  // 0xFFFFFFFE + 1 = 0xFFFFFFFF (continue), + 1 = 0 (continue), + 1 = 1 (stop).
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0xFFFFFFFE;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.ne.u32 %p1, %r2, 1;\n  @%p1 bra L;\n"),
            3u);
  // Unsigned comparison: 0xFFFFFFF0 is not below 4, so the body runs once.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0xFFFFFFF0;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.lo.u32 %p1, %r2, 4;\n  @%p1 bra L;\n"),
            1u);
  // The same bits compared signed: -15, -14, ..., 3 are below 4, 4 is not: 20 runs.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0xFFFFFFF0;\n",
                        "  add.s32 %r2, %r2, 1;\n  setp.lt.s32 %p1, %r2, 4;\n  @%p1 bra L;\n"),
            20u);
}

TEST(StaticCost, NotAConstant) {
  // The bound is a parameter.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, %r1;\n  @%p1 bra L;\n"),
            std::nullopt);
  // The start is a parameter.
  EXPECT_EQ(single_trip("  mov.u32 %r2, %r1;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 10;\n  @%p1 bra L;\n"),
            std::nullopt);
  // The counter is also written under a guard inside the loop.
  EXPECT_EQ(single_trip("  mov.u32 %r2, 0;\n",
                        "  add.u32 %r2, %r2, 1;\n  setp.eq.u32 %p2, %r1, 3;\n  @%p2 add.u32 %r2, %r2, 1;\n"
                        "  setp.lt.u32 %p1, %r2, 10;\n  @%p1 bra L;\n"),
            std::nullopt);
  // A step of 0 never ends: above any limit.
  EXPECT_EQ(trips_of(one_loop("  mov.u32 %r2, 0;\n",
                              "  add.u32 %r2, %r2, 0;\n  setp.lt.u32 %p1, %r2, 10;\n  @%p1 bra L;\n"),
                     1000)[0],
            std::nullopt);
  // Above the limit.
  EXPECT_EQ(trips_of(one_loop("  mov.u32 %r2, 0;\n",
                              "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 5000;\n  @%p1 bra L;\n"),
                     1000)[0],
            std::nullopt);
}

// Outer loop of 4 around an inner loop of 10: the inner body runs 40 times,
// the outer's own blocks 4 times; an unknown outer count counts `unknown`.
const char* const kNested = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry nest(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
OUTER:
  mov.u32 %r3, 0;
INNER:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, 10;
  @%p1 bra INNER;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 4;
  @%p2 bra OUTER;
  ret;
}
)PTX";

TEST(StaticCost, NestedLoopsMultiply) {
  const auto m = testing_ir::load(kNested);
  const ir::Function& f = m->functions.at(0);
  const FunctionAnalyses& a = *f.analysis.analyses;
  const auto trips = constant_trip_counts(f, a.cfg, a.dominators, a.loops);
  ASSERT_EQ(trips.size(), 2u);
  const uint32_t inner = a.cfg.block_of(testing_ir::find_inst(f, "add.u32 %r3"));
  const uint32_t outer_tail = a.cfg.block_of(testing_ir::find_inst(f, "add.u32 %r2"));
  const uint32_t entry = 0;
  const std::vector<uint64_t> times = block_multipliers(a.cfg, a.loops, trips, 1024);
  EXPECT_EQ(times[inner], 40u);
  EXPECT_EQ(times[outer_tail], 4u);
  EXPECT_EQ(times[entry], 1u);
  // Without the outer count (say it is unknown), 1024 x 10.
  std::vector<std::optional<uint64_t>> partial = trips;
  partial[a.loops.innermost(outer_tail)] = std::nullopt;
  EXPECT_EQ(block_multipliers(a.cfg, a.loops, partial, 1024)[inner], 10240u);
  // Longest path: 2 entry instructions (ld, mov), OUTER's mov x 4, the inner
  // block's 3 x 40, the outer tail's 3 x 4, ret 1 = 2 + 4 + 120 + 12 + 1.
  std::vector<uint64_t> weight(a.cfg.num_blocks());
  for (uint32_t b = 0; b < a.cfg.num_blocks(); ++b)
    weight[b] = (a.cfg.end_inst(b) - a.cfg.first_inst(b)) * times[b];
  EXPECT_EQ(longest_path_to_exit(a.cfg, a.loops, weight)[entry], 139u);
}

TEST(StaticCost, SaturatingMultiply) {
  EXPECT_EQ(saturating_mul(uint64_t{1} << 40, uint64_t{1} << 30), ~uint64_t{0});
  EXPECT_EQ(saturating_mul(1024, 1024), 1048576u);
  EXPECT_EQ(saturating_mul(0, ~uint64_t{0}), 0u);
}

// The access-range cost of S (accessed only in the loop) is the loop block's
// four instructions times its trip count: 10 when constant, 1024 when not.
TEST(StaticCost, AccessRangeCostUsesTheTripCount) {
  const std::string body = "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, BOUND;\n  @%p1 bra L;\n";
  for (const auto& [bound, expected] : {std::pair<std::string, uint64_t>{"10", 40}, {"%r1", 4096}}) {
    std::string b = body;
    b.replace(b.find("BOUND"), 5, bound);
    const auto m = testing_ir::load(one_loop("  mov.u32 %r2, 0;\n", b));
    const ir::Function& f = m->functions.at(0);
    const passes::SharedVariableUse use = passes::shared_variable_use(*m, f);
    ASSERT_EQ(use.vars.size(), 1u);
    EXPECT_EQ(passes::access_range_cost(f, use, {0}), expected) << "bound " << bound;
  }
}

}  // namespace
}  // namespace simtlm::frontend::analysis
