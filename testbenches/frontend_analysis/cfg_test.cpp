// CFG construction, dominators, post-dominators and reconvergence points on
// hand-built control-flow shapes.
#include <gtest/gtest.h>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/reconvergence.h"
#include "testbenches/frontend_analysis/ir_builder.h"

namespace simtlm::frontend::analysis {
namespace {

using testing_ir::FnBuilder;
using V = std::vector<uint32_t>;

// if (a < b) { x } else { y }; z
ir::Function if_else() {
  FnBuilder f;
  auto a = f.r("a"), b = f.r("b"), p = f.p("p");
  f.movi(a, 1);                 // 0  B0
  f.movi(b, 2);                 // 1
  f.setp(p, a, b);              // 2
  f.bra("ELSE", static_cast<int>(p));  // 3
  f.add(a, a, b);               // 4  B1 (then)
  f.bra("JOIN");                // 5
  f.bind("ELSE");
  f.add(b, a, b);               // 6  B2 (else)
  f.bind("JOIN");
  f.use(a);                     // 7  B3
  f.ret();                      // 8
  return f.finish();
}

TEST(Cfg, IfElseBlocksAndEdges) {
  ir::Function fn = if_else();
  build_cfg(fn);
  ASSERT_EQ(fn.blocks.size(), 4u);
  EXPECT_EQ(fn.blocks[0].first, 0u);
  EXPECT_EQ(fn.blocks[0].last, 4u);
  EXPECT_EQ(fn.blocks[1].first, 4u);
  EXPECT_EQ(fn.blocks[2].first, 6u);
  EXPECT_EQ(fn.blocks[2].label, "ELSE");
  EXPECT_EQ(fn.blocks[3].first, 7u);
  EXPECT_EQ(fn.blocks[0].succs, (V{2, 1}));
  EXPECT_EQ(fn.blocks[1].succs, (V{3}));
  EXPECT_EQ(fn.blocks[2].succs, (V{3}));
  EXPECT_TRUE(fn.blocks[3].succs.empty());
  EXPECT_EQ(fn.blocks[3].preds, (V{1, 2}));
  Cfg cfg(fn);
  EXPECT_EQ(cfg.succs(3), (V{cfg.exit_node()}));
  EXPECT_TRUE(cfg.exits(3));
  EXPECT_EQ(cfg.block_of(5), 1u);
}

TEST(Cfg, IfElseDominatorsAndReconvergence) {
  ir::Function fn = if_else();
  build_cfg(fn);
  Cfg cfg(fn);
  DominatorTree dom = compute_dominators(cfg);
  EXPECT_EQ(dom.idom(1), 0u);
  EXPECT_EQ(dom.idom(2), 0u);
  EXPECT_EQ(dom.idom(3), 0u);
  EXPECT_TRUE(dom.dominates(0, 3));
  EXPECT_FALSE(dom.dominates(1, 3));
  DominatorTree pdom = compute_post_dominators(cfg);
  EXPECT_EQ(pdom.idom(0), 3u);
  EXPECT_EQ(pdom.idom(1), 3u);
  EXPECT_EQ(pdom.idom(2), 3u);
  EXPECT_EQ(pdom.idom(3), cfg.exit_node());
  set_reconvergence_points(fn, cfg, pdom);
  EXPECT_EQ(fn.insts[3].reconverge_pc, 7u);
  EXPECT_EQ(fn.insts[5].reconverge_pc, ir::kNoReconvergence);  // unguarded
}

}  // namespace
}  // namespace simtlm::frontend::analysis

namespace simtlm::frontend::analysis {
namespace {

using testing_ir::FnBuilder;
using V = std::vector<uint32_t>;

// Reconvergence pc of the branch at instruction `at` after the full analysis.
uint32_t rpc(ir::Function& fn, uint32_t at) {
  build_cfg(fn);
  Cfg cfg(fn);
  set_reconvergence_points(fn, cfg, compute_post_dominators(cfg));
  return fn.insts[at].reconverge_pc;
}

TEST(Cfg, NestedIfsReconvergeInnermostFirst) {
  // if (p) { if (q) { A } B } C
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p"), q = f.p("q");
  f.movi(a, 0);                                  // 0
  f.setp(p, a, a);                               // 1
  f.setp(q, a, a);                               // 2
  uint32_t outer = f.bra("C", static_cast<int>(p), true);  // 3: @!p bra C
  uint32_t inner = f.bra("B", static_cast<int>(q), true);  // 4: @!q bra B
  f.add(a, a, a);                                // 5  A
  f.bind("B");
  f.add(a, a, a);                                // 6  B
  f.bind("C");
  f.use(a);                                      // 7  C
  f.ret();                                       // 8
  ir::Function fn = f.finish();
  EXPECT_EQ(rpc(fn, outer), 7u);
  EXPECT_EQ(fn.insts[inner].reconverge_pc, 6u);
  ASSERT_EQ(fn.blocks.size(), 5u);
  Cfg cfg(fn);
  DominatorTree dom = compute_dominators(cfg);
  EXPECT_EQ(dom.idom(2), 1u);  // A dominated by the inner test
  EXPECT_EQ(dom.idom(3), 1u);  // B reached from inner test and A
  EXPECT_EQ(dom.idom(4), 0u);  // C
}

// i = 0; while (i < n) { if (c1) continue; if (c2) break; body; cont: i++ }  exit
struct LoopShape {
  ir::Function fn;
  uint32_t exit_test, cont_test, break_test, back;
};
LoopShape loop_with_break_continue() {
  FnBuilder f;
  auto i = f.r("i"), n = f.r("n"), p = f.p("p"), c = f.p("c"), b = f.p("b");
  LoopShape s;
  f.movi(i, 0);                                   // 0  B0
  f.movi(n, 10);                                  // 1
  f.bind("HEAD");
  f.setp(p, n, i);                                // 2  B1 header
  s.exit_test = f.bra("EXIT", static_cast<int>(p));  // 3
  f.setp(c, i, n);                                // 4  B2
  s.cont_test = f.bra("CONT", static_cast<int>(c));  // 5
  f.setp(b, i, n);                                // 6  B3
  s.break_test = f.bra("EXIT", static_cast<int>(b)); // 7
  f.add(n, n, i);                                 // 8  B4 body
  f.bind("CONT");
  f.add(i, i, n);                                 // 9  B5 continue target
  s.back = f.bra("HEAD");                         // 10
  f.bind("EXIT");
  f.use(i);                                       // 11 B6
  f.ret();                                        // 12
  s.fn = f.finish();
  return s;
}

TEST(Cfg, LoopWithBreakAndContinue) {
  LoopShape s = loop_with_break_continue();
  ir::Function& fn = s.fn;
  build_cfg(fn);
  ASSERT_EQ(fn.blocks.size(), 7u);
  EXPECT_EQ(fn.blocks[1].first, 2u);
  EXPECT_EQ(fn.blocks[1].label, "HEAD");
  EXPECT_EQ(fn.blocks[5].succs, (V{1}));
  EXPECT_EQ(fn.blocks[1].preds, (V{0, 5}));
  Cfg cfg(fn);
  DominatorTree dom = compute_dominators(cfg);
  LoopInfo loops(cfg, dom);
  ASSERT_EQ(loops.loops().size(), 1u);
  EXPECT_EQ(loops.headers(), (V{1}));
  EXPECT_EQ(loops.loops()[0].latches, (V{5}));
  EXPECT_EQ(loops.loops()[0].blocks, (V{1, 2, 3, 4, 5}));
  EXPECT_TRUE(loops.is_back_edge(5, 1));
  EXPECT_EQ(loops.depth(6), 0u);
  EXPECT_EQ(loops.depth(3), 1u);

  DominatorTree pdom = compute_post_dominators(cfg);
  EXPECT_EQ(pdom.idom(1), 6u);
  EXPECT_EQ(pdom.idom(2), 6u);  // the break skips the continue target
  EXPECT_EQ(pdom.idom(3), 6u);
  EXPECT_EQ(pdom.idom(4), 5u);
  set_reconvergence_points(fn, cfg, pdom);
  EXPECT_EQ(fn.insts[s.exit_test].reconverge_pc, 11u);
  EXPECT_EQ(fn.insts[s.cont_test].reconverge_pc, 11u);
  EXPECT_EQ(fn.insts[s.break_test].reconverge_pc, 11u);
  EXPECT_EQ(fn.insts[s.back].reconverge_pc, ir::kNoReconvergence);
}

TEST(Cfg, LoopWithoutBreakReconvergesAtContinue) {
  // while (i < n) { if (c) continue-path-A else B; } : if/else inside the
  // loop body reconverges inside the loop.
  FnBuilder f;
  auto i = f.r("i"), p = f.p("p"), c = f.p("c");
  f.movi(i, 0);                                   // 0
  f.bind("HEAD");
  f.setp(p, i, i);                                // 1
  f.bra("EXIT", static_cast<int>(p));             // 2
  f.setp(c, i, i);                                // 3
  uint32_t br = f.bra("ELSE", static_cast<int>(c));  // 4
  f.add(i, i, i);                                 // 5
  f.bra("LATCH");                                 // 6
  f.bind("ELSE");
  f.add(i, i, i);                                 // 7
  f.bind("LATCH");
  f.add(i, i, i);                                 // 8
  f.bra("HEAD");                                  // 9
  f.bind("EXIT");
  f.ret();                                        // 10
  ir::Function fn = f.finish();
  EXPECT_EQ(rpc(fn, br), 8u);
  EXPECT_EQ(fn.insts[2].reconverge_pc, 10u);
}

TEST(Cfg, NestedLoops) {
  FnBuilder f;
  auto i = f.r("i"), p = f.p("p"), q = f.p("q");
  f.movi(i, 0);            // 0 B0
  f.bind("OUTER");
  f.add(i, i, i);          // 1 B1 outer header
  f.bind("INNER");
  f.setp(q, i, i);         // 2 B2 inner header/latch
  f.bra("INNER", static_cast<int>(q));  // 3
  f.setp(p, i, i);         // 4 B3 outer latch
  f.bra("OUTER", static_cast<int>(p));  // 5
  f.ret();                 // 6 B4
  ir::Function fn = f.finish();
  build_cfg(fn);
  Cfg cfg(fn);
  DominatorTree dom = compute_dominators(cfg);
  LoopInfo loops(cfg, dom);
  EXPECT_EQ(loops.headers(), (V{1, 2}));
  ASSERT_EQ(loops.loops().size(), 2u);
  EXPECT_EQ(loops.loops()[0].blocks, (V{1, 2, 3}));
  EXPECT_EQ(loops.loops()[1].blocks, (V{2}));
  EXPECT_EQ(loops.loops()[1].parent, 0u);
  EXPECT_EQ(loops.depth(2), 2u);
  EXPECT_EQ(loops.depth(3), 1u);
  set_reconvergence_points(fn, cfg, compute_post_dominators(cfg));
  EXPECT_EQ(fn.insts[3].reconverge_pc, 4u);
  EXPECT_EQ(fn.insts[5].reconverge_pc, 6u);
}

TEST(Cfg, EarlyReturn) {
  // if (p) return; A; return   -> the paths only meet at the exit.
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p");
  f.movi(a, 0);                                   // 0
  f.setp(p, a, a);                                // 1
  uint32_t br = f.bra("OUT", static_cast<int>(p));  // 2
  f.use(a);                                       // 3
  f.ret();                                        // 4
  f.bind("OUT");
  f.ret();                                        // 5
  ir::Function fn = f.finish();
  EXPECT_EQ(rpc(fn, br), ir::kNoReconvergence);
  Cfg cfg(fn);
  EXPECT_TRUE(cfg.exits(1));
  EXPECT_TRUE(cfg.exits(2));
}

TEST(Cfg, GuardedReturnHasTwoSuccessors) {
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p");
  f.setp(p, a, a);          // 0
  f.ret(static_cast<int>(p));  // 1: @p ret
  f.use(a);                 // 2
  f.ret();                  // 3
  ir::Function fn = f.finish();
  build_cfg(fn);
  ASSERT_EQ(fn.blocks.size(), 2u);
  Cfg cfg(fn);
  EXPECT_EQ(cfg.succs(0), (V{1, cfg.exit_node()}));
  EXPECT_EQ(fn.insts[1].reconverge_pc, ir::kNoReconvergence);
}

TEST(Cfg, SwitchViaBrxIdx) {
  FnBuilder f;
  auto x = f.r("x"), y = f.r("y");
  f.movi(x, 1);                            // 0
  uint32_t sw = f.brx(x, {"C0", "C1", "C2", "C1"});  // 1
  f.bind("C0");
  f.movi(y, 0);                            // 2
  f.bra("JOIN");                           // 3
  f.bind("C1");
  f.movi(y, 1);                            // 4
  f.bra("JOIN");                           // 5
  f.bind("C2");
  f.movi(y, 2);                            // 6
  f.bind("JOIN");
  f.use(y);                                // 7
  f.ret();                                 // 8
  ir::Function fn = f.finish();
  EXPECT_EQ(rpc(fn, sw), 7u);
  EXPECT_EQ(fn.blocks[0].succs, (V{1, 2, 3}));  // duplicates removed
  EXPECT_EQ(fn.blocks[4].preds, (V{1, 2, 3}));
}

TEST(Cfg, InfiniteLoopAndUnreachableCodeAreHandled) {
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p");
  f.setp(p, a, a);                                // 0 B0
  uint32_t br = f.bra("SPIN", static_cast<int>(p));  // 1
  f.ret();                                        // 2 B1
  f.add(a, a, a);                                 // 3 B2 unreachable
  f.bind("SPIN");
  f.add(a, a, a);                                 // 4 B3
  f.bra("SPIN");                                  // 5
  ir::Function fn = f.finish();
  build_cfg(fn);
  Cfg cfg(fn);
  EXPECT_FALSE(cfg.reachable(2));
  DominatorTree dom = compute_dominators(cfg);
  EXPECT_EQ(dom.idom(2), DominatorTree::kNone);
  EXPECT_FALSE(dom.dominates(0, 2));
  DominatorTree pdom = compute_post_dominators(cfg);
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) EXPECT_NE(pdom.idom(b), DominatorTree::kNone) << b;
  set_reconvergence_points(fn, cfg, pdom);
  EXPECT_EQ(fn.insts[br].reconverge_pc, ir::kNoReconvergence);
  // Every analysis runs without trouble on such a function.
  ir::Module m;
  m.functions.push_back(fn);
  analyze(m);
  EXPECT_TRUE(m.functions[0].analysis.done);
  EXPECT_EQ(m.functions[0].analysis.loop_headers, (V{3}));
}

TEST(Cfg, BranchToNextInstructionAndLabelAtEnd) {
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p");
  f.setp(p, a, a);                              // 0
  uint32_t br = f.bra("NEXT", static_cast<int>(p));  // 1
  f.bind("NEXT");
  f.add(a, a, a);                               // 2
  f.bra("END");                                 // 3
  f.bind("END");                                // label past the last instruction
  ir::Function fn = f.finish();
  EXPECT_EQ(rpc(fn, br), 2u);
  ASSERT_EQ(fn.blocks.size(), 2u);
  EXPECT_EQ(fn.blocks[0].succs, (V{1}));
  Cfg cfg(fn);
  EXPECT_TRUE(cfg.exits(1));  // branch to the end = leaving the function
}

// Dominators on the Lengauer-Tarjan (1979) example graph.
TEST(Dominators, LengauerTarjanExample) {
  enum { R, A, B, C, D, E, F, G, H, I, J, K, L, N };
  std::vector<std::vector<uint32_t>> succ(N), pred(N);
  auto edge = [&](uint32_t a, uint32_t b) {
    succ[a].push_back(b);
    pred[b].push_back(a);
  };
  edge(R, A); edge(R, B); edge(R, C); edge(A, D); edge(B, A); edge(B, D); edge(B, E);
  edge(C, F); edge(C, G); edge(D, L); edge(E, H); edge(F, I); edge(G, I); edge(G, J);
  edge(H, E); edge(H, K); edge(I, K); edge(J, I); edge(K, I); edge(K, R); edge(L, H);
  DominatorTree dom(succ, pred, R);
  const uint32_t expect[N] = {DominatorTree::kNone, R, R, R, R, R, C, C, R, R, G, R, D};
  for (uint32_t v = 0; v < N; ++v) EXPECT_EQ(dom.idom(v), expect[v]) << "node " << v;
  EXPECT_TRUE(dom.dominates(C, J));
  EXPECT_FALSE(dom.dominates(G, I));
  EXPECT_EQ(dom.common_dominator(J, F), static_cast<uint32_t>(C));
  EXPECT_EQ(dom.depth(J), 3u);
}

// Cooper-Harvey-Kennedy's irreducible example (their Figure 4): every node's
// idom is the entry.
TEST(Dominators, IrreducibleGraph) {
  std::vector<std::vector<uint32_t>> succ(7), pred(7);
  auto edge = [&](uint32_t a, uint32_t b) {
    succ[a].push_back(b);
    pred[b].push_back(a);
  };
  edge(6, 5); edge(6, 4); edge(5, 1); edge(4, 2); edge(4, 3); edge(1, 2); edge(2, 1);
  edge(2, 3); edge(3, 2);
  DominatorTree dom(succ, pred, 6);
  for (uint32_t v = 1; v <= 5; ++v) EXPECT_EQ(dom.idom(v), 6u) << v;
  EXPECT_FALSE(dom.reachable(0));
}

}  // namespace
}  // namespace simtlm::frontend::analysis
