// Access ranges and the choice of the shared-region variables (Jatala
// §3.2.1, seed note 000 §2.9): Table 3.1 on the note's reconstruction of the
// lost Fig. 3.3 (every IN/OUT value of A, B, C and of the pairs), and the
// seed's Ex. 3.2.3 result {A, B} on a kernel with that shape.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/load.h"
#include "frontend/passes/access_range.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::frontend::passes {
namespace {

// Entry(0) -> BB1(1) -> BB2(2) -> BB3(3), BB3 -> BB2, BB3 -> BB4(4) -> BB5(5)
// -> BB6(6) -> Exit(7). A in BB1 and BB4, B in BB2, C in BB5 and BB6.
AccessRangeProblem table31() {
  AccessRangeProblem p;
  p.succs = {{1}, {2}, {3}, {2, 4}, {5}, {6}, {7}, {}};
  p.preds = {{}, {0}, {1, 3}, {2}, {3}, {4}, {5}, {6}};
  p.entry = 0;
  p.exit = 7;
  auto at = [](std::vector<uint32_t> nodes) {
    std::vector<bool> v(8, false);
    for (uint32_t n : nodes) v[n] = true;
    return v;
  };
  p.access = {at({1, 4}), at({2}), at({5, 6})};
  return p;
}

// One row of the table per node: "IN/OUT" as t/f letters.
std::vector<std::string> rows(const AccessRangeFlags& f) {
  std::vector<std::string> out;
  for (size_t b = 0; b < f.in.size(); ++b) out.push_back(std::string(f.in[b] ? "t" : "f") + (f.out[b] ? "t" : "f"));
  return out;
}

TEST(AccessRange, Table31SingleVariables) {
  const AccessRangeProblem p = table31();
  //                                          Entry BB1   BB2   BB3   BB4   BB5   BB6   Exit
  EXPECT_EQ(rows(access_range(p, {0})), (std::vector<std::string>{"ff", "ft", "tt", "tt", "tf", "ff", "ff", "ff"}));
  EXPECT_EQ(rows(access_range(p, {1})), (std::vector<std::string>{"ff", "ff", "tt", "tt", "ff", "ff", "ff", "ff"}));
  EXPECT_EQ(rows(access_range(p, {2})), (std::vector<std::string>{"ff", "ff", "ff", "ff", "ff", "ft", "tf", "ff"}));
}

TEST(AccessRange, Table31Pairs) {
  const AccessRangeProblem p = table31();
  // AB: IN f f t t t f f f, OUT f t t t f f f f
  EXPECT_EQ(rows(access_range(p, {0, 1})), (std::vector<std::string>{"ff", "ft", "tt", "tt", "tf", "ff", "ff", "ff"}));
  // BC: IN f f t t t t t f, OUT f f t t t t f f
  EXPECT_EQ(rows(access_range(p, {1, 2})), (std::vector<std::string>{"ff", "ff", "tt", "tt", "tt", "tt", "tf", "ff"}));
  // CA: IN f f t t t t t f, OUT f t t t t t f f
  EXPECT_EQ(rows(access_range(p, {2, 0})), (std::vector<std::string>{"ff", "ft", "tt", "tt", "tt", "tt", "tf", "ff"}));
}

// The same shape as a kernel: A, B, C of 64 bytes each; with t = 1/3 two of
// them fill the shared region. {A, B} spans BB1's end, the loop and BB4's
// start; {B, C} the loop and BB4..BB6; {C, A} everything in between.
const char* const kAbcPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry abc(.param .u32 n)
{
  .shared .align 4 .b8 A[64];
  .shared .align 4 .b8 B[64];
  .shared .align 4 .b8 C[64];
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  ld.param.u32 %r1, [n];
  st.shared.u32 [A], %r1;
  mov.u32 %r2, 0;
  mov.u32 %r4, B;
BB2:
  st.shared.u32 [%r4], %r2;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra BB2;
  ld.shared.u32 %r5, [A];
  add.u32 %r6, %r5, 1;
  add.u32 %r7, %r6, 1;
  add.u32 %r8, %r7, 1;
  st.shared.u32 [C], %r8;
  ld.shared.u32 %r9, [C+4];
  ret;
}
)PTX";

TEST(AccessRange, ChoosesAB) {
  const auto m = load_ptx_text(kAbcPtx, "abc.ptx");
  const ir::Function& f = m->functions.at(0);
  const SharedVariableUse use = shared_variable_use(*m, f);
  ASSERT_EQ(use.vars.size(), 3u);
  // The points-to finds B's store through %r4 and nothing else there.
  const uint32_t store_b = 4;  // st.shared.u32 [%r4]
  EXPECT_FALSE(use.by_inst[0][store_b]);
  EXPECT_TRUE(use.by_inst[1][store_b]);
  EXPECT_FALSE(use.by_inst[2][store_b]);
  const uint64_t ab = access_range_cost(f, use, {0, 1});
  const uint64_t bc = access_range_cost(f, use, {1, 2});
  const uint64_t ca = access_range_cost(f, use, {0, 2});
  EXPECT_LT(ab, bc);
  EXPECT_LT(bc, ca);
  // The loop's four instructions count 1024 times each.
  EXPECT_GE(ab, 4u * 1024u);
  EXPECT_EQ(choose_shared_variables(*m, f, use, 1.0 / 3.0), (std::vector<uint32_t>{0, 1}));
  // With t = 0.9 one variable of 64 bytes (>= 10 % of 192) is enough: the
  // cheapest single range is C's (two instructions outside the loop).
  EXPECT_EQ(choose_shared_variables(*m, f, use, 0.9), (std::vector<uint32_t>{2}));
}

// The layout through the pass: C low (private), A and B high (the shared
// region); relssp then follows the last access to A, and C's accesses come
// after it. With the declared layout every variable may reach the shared
// region and relssp follows the last access of all.
std::unique_ptr<ir::Module> load_with(const std::string& layout) {
  PassOptions o("test");
  o.enable("relssp", true);
  o.set("relssp", "placement", "opt");
  o.set("relssp", "layout", layout);
  o.set("relssp", "threshold", "0.3333333333333333");
  return load_ptx_text(kAbcPtx, "abc.ptx", PassPipeline(PassRegistry::global(), o));
}

uint32_t relssp_after(const ir::Function& f) {
  for (uint32_t pc = 1; pc < f.insts.size(); ++pc)
    if (f.insts[pc].op == ir::Opcode::Extension && f.insts[pc].text == "relssp") return pc - 1;
  return ~0u;
}

TEST(AccessRange, LayoutPutsTheChosenVariablesHighAndRelsspFollowsThem) {
  const auto m = load_with("access_range");
  const ir::Function& f = m->functions.at(0);
  const SharedVariableUse use = shared_variable_use(*m, f);
  EXPECT_EQ(f.var_offsets[use.vars[2]], 0u);    // C
  EXPECT_EQ(f.var_offsets[use.vars[0]], 64u);   // A
  EXPECT_EQ(f.var_offsets[use.vars[1]], 128u);  // B
  EXPECT_EQ(f.static_shared_bytes, 192u);
  EXPECT_EQ(f.insts[relssp_after(f)].text, "ld.shared.u32 %r5, [A]");

  const auto d = load_with("declared");
  const ir::Function& g = d->functions.at(0);
  EXPECT_EQ(g.var_offsets[use.vars[0]], 0u);  // declaration order
  EXPECT_EQ(g.insts[relssp_after(g)].text, "ld.shared.u32 %r9, [C+4]");
}

}  // namespace
}  // namespace simtlm::frontend::passes
