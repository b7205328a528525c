// relssp placement (Jatala §3.2.3, seed note 000 §2.11, §7 items 15-16) and
// critical-edge splitting: the seed's Fig. 3.7(a)/(b) placements as tests,
// the greatest fixed point hoisting relssp above a scratchpad-free loop, a
// placement on a split critical edge, PostDom, and the printed PTX reparsing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/analysis/analyze.h"
#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/edge_split.h"
#include "frontend/passes/relssp_placement.h"
#include "frontend/ptx/extensions.h"

namespace simtlm::frontend::passes {
namespace {

std::unique_ptr<ir::Module> load(const std::string& body, const std::string& placement) {
  const std::string ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                          ".visible .entry k(.param .u32 n)\n{\n"
                          "  .shared .align 4 .b8 tile[256];\n  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n"
                          "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n  mov.u32 %r4, tile;\n" +
                          body + "}\n";
  PassOptions o("test");
  if (placement != "exit") {
    o.enable("relssp", true);
    o.set("relssp", "placement", placement);
  }
  return load_ptx_text(ptx, "test.ptx", PassPipeline(PassRegistry::global(), o));
}

bool is_relssp(const ir::Instruction& i) {
  return i.op == ir::Opcode::Extension && i.ext_id == ptx::ExtensionRegistry::kRelssp;
}

// The kernel's instructions as text (a branch names its target's index,
// $L__pc<N>), so that a test states the whole expected sequence.
std::vector<std::string> listing(const ir::Module& m) {
  const ir::Function& f = m.functions.at(m.function_index.at("k"));
  std::vector<std::string> out;
  for (const ir::Instruction& i : f.insts) out.push_back(ir::print_instruction(m, f, i));
  return out;
}

size_t count_relssp(const ir::Module& m) {
  size_t n = 0;
  for (const ir::Instruction& i : m.functions.at(m.function_index.at("k")).insts) n += is_relssp(i) ? 1 : 0;
  return n;
}

// Fig. 3.7(b): BB1 -> {BB2, BB3}, BB2 -> BB4, BB3 -> BB4; the last access L2
// is in BB2. Expected: relssp at OUT(BB2) just after L2 and at IN(BB3);
// nothing in BB1 or BB4.
TEST(RelsspPlacement, Fig37bOnTheSeedsGraph) {
  SafeProblem g;  // nodes BB1..BB4 = 0..3, Exit = 4
  g.succs = {{1, 2}, {3}, {3}, {4}, {}};
  g.preds = {{}, {0}, {0}, {1, 2}, {3}};
  g.access = {false, true, false, false, false};
  g.exit = 4;
  const SafeSolution s = solve_safe(g);
  EXPECT_EQ(s.ins_out, (std::vector<bool>{false, true, false, false, false}));
  EXPECT_EQ(s.ins_in, (std::vector<bool>{false, false, true, false, false}));
  EXPECT_EQ(s.safe_in, (std::vector<bool>{false, false, true, true, true}));
  EXPECT_EQ(s.safe_out, (std::vector<bool>{false, true, true, true, true}));
}

TEST(RelsspPlacement, Fig37bInPtx) {
  const std::string body =
      "  setp.lt.u32 %p1, %r2, %r1;\n"
      "  @%p1 bra BB3;\n"
      "  st.shared.u32 [%r4], %r2;\n"  // BB2: L2
      "  add.u32 %r5, %r2, 1;\n"
      "  bra.uni BB4;\n"
      "BB3:\n"
      "  add.u32 %r5, %r2, 2;\n"
      "BB4:\n"
      "  ret;\n";
  const auto m = load(body, "opt");
  EXPECT_EQ(listing(*m), (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x",
                                                   "mov.u32 %r4, tile", "setp.lt.u32 %p1, %r2, %r1",
                                                   "@%p1 bra $L__pc9", "st.shared.u32 [%r4], %r2", "relssp",
                                                   "add.u32 %r5, %r2, 1", "bra.uni $L__pc11", "relssp",
                                                   "add.u32 %r5, %r2, 2", "ret"}));
  // The branch to BB3 lands on its relssp.
  const ir::Function& f = m->functions[0];
  EXPECT_EQ(f.insts[4].ops[0].target, 9u);
}

// Fig. 3.7(a): within a block relssp moves up to just after the last access
// L1, not above it.
TEST(RelsspPlacement, Fig37aRightAfterTheLastAccessOfTheBlock) {
  const std::string body =
      "  st.shared.u32 [%r4], %r2;\n"
      "  ld.shared.u32 %r5, [%r4+4];\n"  // L1
      "  add.u32 %r6, %r5, 1;\n"
      "  add.u32 %r7, %r6, 1;\n"
      "  ret;\n";
  EXPECT_EQ(listing(*load(body, "opt")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "st.shared.u32 [%r4], %r2", "ld.shared.u32 %r5, [%r4+4]", "relssp",
                                      "add.u32 %r6, %r5, 1", "add.u32 %r7, %r6, 1", "ret"}));
}

// An access inside a loop, then a scratchpad-free loop: the greatest fixed
// point puts relssp on the edge leaving the first loop (a critical edge:
// its source branches back, its destination is the second loop's header),
// not at the exit.
TEST(RelsspPlacement, HoistedAboveAScratchpadFreeLoopOnASplitEdge) {
  const std::string body =
      "  mov.u32 %r5, 0;\n"
      "A:\n"
      "  ld.shared.u32 %r6, [%r4];\n"
      "  add.u32 %r5, %r5, 1;\n"
      "  setp.lt.u32 %p1, %r5, 4;\n"
      "  @%p1 bra A;\n"
      "B:\n"
      "  add.u32 %r5, %r5, 1;\n"
      "  setp.lt.u32 %p2, %r5, 8;\n"
      "  @%p2 bra B;\n"
      "  ret;\n";
  const auto m = load(body, "opt");
  const std::vector<std::string> l = listing(*m);
  EXPECT_EQ(l, (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                         "mov.u32 %r5, 0", "ld.shared.u32 %r6, [%r4]", "add.u32 %r5, %r5, 1",
                                         "setp.lt.u32 %p1, %r5, 4", "@%p1 bra $L__pc4", "relssp", "bra.uni $L__pc10",
                                         "add.u32 %r5, %r5, 1", "setp.lt.u32 %p2, %r5, 8", "@%p2 bra $L__pc10",
                                         "ret"}));
  const auto* marks = m->functions[0].annotations.find<uint8_t>("relssp.inserted");
  ASSERT_NE(marks, nullptr);
  EXPECT_EQ((*marks)[8], kInsertedRelssp);
  EXPECT_EQ((*marks)[9], kInsertedBranch);
}

// A taken critical edge gets a block after the last instruction.
TEST(RelsspPlacement, ATakenCriticalEdgeGetsABlockOfItsOwn) {
  const std::string body =
      "  st.shared.u32 [%r4], %r2;\n"
      "  setp.lt.u32 %p1, %r2, %r1;\n"
      "  @%p1 bra JOIN;\n"
      "  ld.shared.u32 %r6, [%r4];\n"
      "JOIN:\n"
      "  add.u32 %r7, %r2, 1;\n"
      "  ret;\n";
  const auto m = load(body, "opt");
  EXPECT_EQ(listing(*m), (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x",
                                                   "mov.u32 %r4, tile", "st.shared.u32 [%r4], %r2",
                                                   "setp.lt.u32 %p1, %r2, %r1", "@%p1 bra $L__pc10",
                                                   "ld.shared.u32 %r6, [%r4]", "relssp", "add.u32 %r7, %r2, 1",
                                                   "ret", "relssp", "bra.uni $L__pc8"}));
  // PostDom needs no split: one relssp where the paths join.
  EXPECT_EQ(listing(*load(body, "postdom")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "st.shared.u32 [%r4], %r2", "setp.lt.u32 %p1, %r2, %r1", "@%p1 bra $L__pc7",
                                      "ld.shared.u32 %r6, [%r4]", "relssp", "add.u32 %r7, %r2, 1", "ret"}));
}

// An early return: opt releases on each path after its own last access;
// PostDom finds no block on every path and falls back to the exits.
TEST(RelsspPlacement, EarlyReturnPaths) {
  const std::string body =
      "  setp.ge.u32 %p1, %r2, %r1;\n"
      "  @%p1 bra DONE;\n"
      "  st.shared.u32 [%r4], %r2;\n"
      "  add.u32 %r5, %r2, 1;\n"
      "  ret;\n"
      "DONE:\n"
      "  ret;\n";
  EXPECT_EQ(listing(*load(body, "opt")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "setp.ge.u32 %p1, %r2, %r1", "@%p1 bra $L__pc9", "st.shared.u32 [%r4], %r2",
                                      "relssp", "add.u32 %r5, %r2, 1", "ret", "relssp", "ret"}));
  EXPECT_EQ(listing(*load(body, "postdom")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "setp.ge.u32 %p1, %r2, %r1", "@%p1 bra $L__pc9", "st.shared.u32 [%r4], %r2",
                                      "add.u32 %r5, %r2, 1", "relssp", "ret", "relssp", "ret"}));
}

// A guarded ret whose other successor still accesses: the edge into the exit
// is split, the ret moves into the new block behind a guarded branch.
TEST(RelsspPlacement, AGuardedRetIsSplitOffIntoItsOwnBlock) {
  const std::string body =
      "  st.shared.u32 [%r4], %r2;\n"
      "  setp.ge.u32 %p1, %r2, %r1;\n"
      "  @%p1 ret;\n"
      "  ld.shared.u32 %r5, [%r4];\n"
      "  ret;\n";
  EXPECT_EQ(listing(*load(body, "opt")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "st.shared.u32 [%r4], %r2", "setp.ge.u32 %p1, %r2, %r1",
                                      "@%p1 bra $L__pc9", "ld.shared.u32 %r5, [%r4]", "relssp", "ret", "relssp",
                                      "ret"}));
  // PostDom: before each exit, with the ret's guard.
  EXPECT_EQ(listing(*load(body, "postdom")),
            (std::vector<std::string>{"ld.param.u32 %r1, [n]", "mov.u32 %r2, %tid.x", "mov.u32 %r4, tile",
                                      "st.shared.u32 [%r4], %r2", "setp.ge.u32 %p1, %r2, %r1", "@%p1 relssp",
                                      "@%p1 ret", "ld.shared.u32 %r5, [%r4]", "relssp", "ret"}));
}

TEST(RelsspPlacement, NoSharedAccessNoRelssp) {
  const std::string body = "  add.u32 %r5, %r2, 1;\n  ret;\n";
  for (const char* p : {"opt", "postdom"}) {
    const auto m = load(body, p);
    EXPECT_EQ(count_relssp(*m), 0u) << p;
    EXPECT_FALSE(m->functions[0].annotations.has("relssp.inserted")) << p;
  }
}

TEST(RelsspPlacement, ThePrintedPtxReparsesToTheSameInstructions) {
  const std::string body =
      "  st.shared.u32 [%r4], %r2;\n"
      "  setp.lt.u32 %p1, %r2, %r1;\n"
      "  @%p1 bra JOIN;\n"
      "  ld.shared.u32 %r6, [%r4];\n"
      "JOIN:\n"
      "  add.u32 %r7, %r2, 1;\n"
      "  ret;\n";
  const auto m = load(body, "opt");
  const std::string text = ir::print_module(*m);
  const auto again = load_ptx_text(text, "again.ptx");
  EXPECT_EQ(listing(*again), listing(*m));
}

TEST(EdgeSplit, NoCriticalEdgeRemainsAndEachSplitAddsOneBranch) {
  const std::string body =
      "  mov.u32 %r5, 0;\n"
      "A:\n"
      "  add.u32 %r5, %r5, 1;\n"
      "  setp.lt.u32 %p1, %r5, 4;\n"
      "  @%p1 bra A;\n"  // A -> A (back edge) and A -> B are both critical
      "B:\n"
      "  add.u32 %r5, %r5, 1;\n"
      "  setp.lt.u32 %p2, %r5, 8;\n"
      "  @%p2 bra B;\n"
      "  ret;\n";
  auto m = load(body, "exit");
  ir::Function& f = m->functions[0];
  const size_t before = f.insts.size();
  const std::vector<CfgEdge> edges = critical_edges(f.analysis.analyses->cfg);
  ASSERT_EQ(edges.size(), 3u);  // A->A, A->B, B->B
  EXPECT_EQ(split_critical_edges(f), 3u);
  analysis::analyze(*m);
  EXPECT_EQ(f.insts.size(), before + 3);
  EXPECT_TRUE(critical_edges(f.analysis.analyses->cfg).empty());
}

}  // namespace
}  // namespace simtlm::frontend::passes
