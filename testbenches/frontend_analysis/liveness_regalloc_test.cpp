// Liveness on straight-line and loop code, and register counts on cases whose
// optimum is worked out by hand in the comments.
#include <gtest/gtest.h>

#include "frontend/analysis/analyze.h"
#include "testbenches/frontend_analysis/ir_builder.h"

namespace simtlm::frontend::analysis {
namespace {

using testing_ir::FnBuilder;
using testing_ir::reg;
using V = std::vector<uint32_t>;

struct Analysed {
  ir::Function fn;
  std::unique_ptr<FunctionAnalyses> a;
};
Analysed run(ir::Function fn) {
  Analysed r{std::move(fn), nullptr};
  build_cfg(r.fn);
  r.a = std::make_unique<FunctionAnalyses>(r.fn);
  return r;
}

TEST(Liveness, StraightLine) {
  FnBuilder f;
  auto a = f.r("a"), b = f.r("b"), c = f.r("c");
  f.movi(a, 1);     // 0  live-in {}
  f.movi(b, 2);     // 1  {a}
  f.add(c, a, b);   // 2  {a,b}
  f.add(c, c, a);   // 3  {a,c}
  f.use(c);         // 4  {c}
  f.ret();          // 5  {}
  Analysed r = run(f.finish());
  const Liveness& l = r.a->liveness;
  EXPECT_EQ(l.live_in_regs(0), V{});
  EXPECT_EQ(l.live_in_regs(1), (V{a}));
  EXPECT_EQ(l.live_in_regs(2), (V{a, b}));
  EXPECT_EQ(l.live_in_regs(3), (V{a, c}));
  EXPECT_EQ(l.live_out_regs(3), (V{c}));
  EXPECT_EQ(l.live_in_regs(4), (V{c}));
  EXPECT_EQ(l.live_out_regs(4), V{});
  EXPECT_TRUE(l.live_at_entry().none());
  EXPECT_EQ(r.a->registers.regs32, 2u);
  EXPECT_EQ(r.a->registers.max_live_regs32, 2u);
}

TEST(Liveness, LoopCarriedValues) {
  // s = 0; i = 0; n = 8; do { t = i + i; s = s + t; i = i + n; } while (p); use s
  FnBuilder f;
  auto s = f.r("s"), i = f.r("i"), n = f.r("n"), t = f.r("t"), p = f.p("p");
  f.movi(s, 0);       // 0
  f.movi(i, 0);       // 1
  f.movi(n, 8);       // 2
  f.bind("L");
  f.add(t, i, i);     // 3  live-in {s,i,n}
  f.add(s, s, t);     // 4  {s,i,n,t}
  f.add(i, i, n);     // 5  {s,i,n}
  f.setp(p, i, n);    // 6  {s,i,n}
  f.bra("L", static_cast<int>(p));  // 7  {s,i,n,p}
  f.use(s);           // 8  {s}
  f.ret();            // 9
  Analysed r = run(f.finish());
  const Liveness& l = r.a->liveness;
  EXPECT_EQ(l.live_in_regs(3), (V{s, i, n}));
  EXPECT_EQ(l.live_in_regs(4), (V{s, i, n, t}));
  EXPECT_EQ(l.live_in_regs(7), (V{s, i, n, p}));
  EXPECT_EQ(l.live_out_regs(7), (V{s, i, n}));  // union over loop and exit
  EXPECT_EQ(l.block_live_out(1).to_vector(), (V{s, i, n}));
  EXPECT_EQ(l.live_in_regs(8), (V{s}));
  // Optimal: s, i, n and t are simultaneously live -> 4 registers, 1 predicate.
  EXPECT_EQ(r.a->registers.regs32, 4u);
  EXPECT_EQ(r.a->registers.preds, 1u);
  EXPECT_EQ(r.a->registers.max_live_regs32, 4u);
  EXPECT_EQ(r.a->loops.headers(), (V{1}));
}

TEST(Liveness, GuardedWriteDoesNotKill) {
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p");
  f.setp(p, a, a);   // 0
  ir::Instruction mv;
  mv.op = ir::Opcode::Mov;
  mv.type = ir::DataType::U32;
  mv.ops = {reg(a), testing_ir::imm(1)};
  mv.has_guard = true;
  mv.guard_reg = p;
  f.emit(mv);        // 1: @p mov a, 1
  f.use(a);          // 2
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->liveness.live_in_regs(1), (V{a, p}));
  EXPECT_EQ(r.a->liveness.live_in_regs(0), (V{a}));  // read before any unconditional write
  EXPECT_EQ(r.a->liveness.live_at_entry().to_vector(), (V{a}));
}

TEST(Liveness, DivergentPathsUnion) {
  // if (p) x = a; else x = b; use x   -> a and b both live before the branch
  FnBuilder f;
  auto a = f.r("a"), b = f.r("b"), x = f.r("x"), p = f.p("p");
  f.movi(a, 1);                        // 0
  f.movi(b, 2);                        // 1
  f.setp(p, a, b);                     // 2
  f.bra("ELSE", static_cast<int>(p));  // 3
  f.mov(x, a);                         // 4
  f.bra("JOIN");                       // 5
  f.bind("ELSE");
  f.mov(x, b);                         // 6
  f.bind("JOIN");
  f.use(x);                            // 7
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->liveness.live_out_regs(3), (V{a, b}));
  EXPECT_EQ(r.a->liveness.live_in_regs(6), (V{b}));
  // a and b interfere; x is a copy of whichever is dead afterwards -> 2 regs.
  EXPECT_EQ(r.a->registers.regs32, 2u);
}

TEST(RegAlloc, CopyCoalescing) {
  // a = 1; b = a; c = b + b; use c  -> one register suffices.
  FnBuilder f;
  auto a = f.r("a"), b = f.r("b"), c = f.r("c");
  f.movi(a, 1);
  f.mov(b, a);
  f.add(c, b, b);
  f.use(c);
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->registers.regs32, 1u);
  EXPECT_EQ(r.a->registers.phys[a], r.a->registers.phys[b]);
}

TEST(RegAlloc, PairsAreAligned) {
  // x(64) and z(64) and y(32) live together: 5 units, pairs even-aligned:
  // x=R0:1, z=R2:3, y=R4 -> 5 registers.
  FnBuilder f;
  auto x = f.d("x"), z = f.d("z"), y = f.r("y"), w = f.d("w");
  f.op(ir::Opcode::Mov, {reg(x), testing_ir::imm(1)}, ir::DataType::U64);
  f.movi(y, 2);
  f.op(ir::Opcode::Mov, {reg(z), testing_ir::imm(3)}, ir::DataType::U64);
  f.op(ir::Opcode::Add, {reg(w), reg(x), reg(z)}, ir::DataType::U64);  // w may reuse x or z
  f.op(ir::Opcode::St, {testing_ir::addr_reg(w), reg(y)});
  f.ret();
  Analysed r = run(f.finish());
  const RegisterAllocation& ra = r.a->registers;
  EXPECT_EQ(ra.regs32, 5u);
  EXPECT_EQ(ra.max_live_regs32, 5u);
  EXPECT_EQ(ra.phys[x] % 2, 0u);
  EXPECT_EQ(ra.phys[z] % 2, 0u);
  EXPECT_EQ(ra.phys[w] % 2, 0u);
  EXPECT_NE(ra.phys[x], ra.phys[z]);
  EXPECT_EQ(ra.regs_per_thread(), 10u);  // 5 + 4 reserved, rounded up to even
  // Before the add: x, z and y live -> physical registers 0..4.
  EXPECT_EQ(live_physical_regs(r.fn, ra, r.a->liveness.live_in(3)), (V{0, 1, 2, 3, 4}));
}

TEST(RegAlloc, PairAfterSingleNeedsNoHole) {
  // a(32) is live while d(64) is defined: 3 units; optimal is d=R0:1, a=R2
  // (a=R0 would push d to R2:3 and use 4).
  FnBuilder f;
  auto a = f.r("a"), d = f.d("d");
  f.movi(a, 1);
  f.op(ir::Opcode::Mov, {reg(d), testing_ir::imm(7)}, ir::DataType::U64);
  f.op(ir::Opcode::St, {testing_ir::addr_reg(d), reg(a)});
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->registers.regs32, 3u);
}

TEST(RegAlloc, PredicatesAreSeparate) {
  // p and q live at the same time, then r alone: 2 predicate registers and
  // a single 32-bit register.
  FnBuilder f;
  auto a = f.r("a"), p = f.p("p"), q = f.p("q"), s = f.p("s");
  f.movi(a, 1);
  f.setp(p, a, a);
  f.setp(q, a, a);
  f.bra("X", static_cast<int>(p));
  f.bra("X", static_cast<int>(q));
  f.bind("X");
  f.setp(s, a, a);
  f.bra("Y", static_cast<int>(s));
  f.bind("Y");
  f.use(a);
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->registers.preds, 2u);
  EXPECT_EQ(r.a->registers.regs32, 1u);
  EXPECT_EQ(r.a->registers.max_live_preds, 2u);
}

TEST(RegAlloc, DeadDefinitionStillNeedsARegister) {
  // b is written while a is live and never read: still two registers.
  FnBuilder f;
  auto a = f.r("a"), b = f.r("b");
  f.movi(a, 1);
  f.movi(b, 2);
  f.use(a);
  f.ret();
  Analysed r = run(f.finish());
  EXPECT_EQ(r.a->registers.regs32, 2u);
}

TEST(RegAlloc, InterferingValuesGetDistinctRegisters) {
  // Random-ish straight-line code: check the colouring is valid against the
  // liveness (no two simultaneously live values share a register unit).
  FnBuilder f;
  std::vector<uint32_t> r;
  for (int i = 0; i < 12; ++i) r.push_back(i % 3 == 0 ? f.d("d" + std::to_string(i)) : f.r("r" + std::to_string(i)));
  for (int i = 0; i < 12; ++i)
    f.op(ir::Opcode::Mov, {reg(r[i]), testing_ir::imm(static_cast<uint64_t>(i))},
         i % 3 == 0 ? ir::DataType::U64 : ir::DataType::U32);
  for (int i = 0; i < 12; i += 2) f.use(r[i]);
  for (int i = 1; i < 12; i += 2) f.use(r[i]);
  f.ret();
  Analysed an = run(f.finish());
  const auto& ra = an.a->registers;
  const auto& fn = an.fn;
  for (uint32_t i = 0; i < fn.insts.size(); ++i) {
    std::vector<int> owner(64, -1);
    an.a->liveness.live_out(i).for_each([&](size_t v) {
      for (uint32_t k = 0; k < reg_units(fn.regs[v]); ++k) {
        EXPECT_EQ(owner[ra.phys[v] + k], -1) << "clash at " << i;
        owner[ra.phys[v] + k] = static_cast<int>(v);
      }
    });
  }
  EXPECT_EQ(ra.max_live_regs32, 16u);  // 4 pairs + 8 singles
  EXPECT_EQ(ra.regs32, 16u);
}

}  // namespace
}  // namespace simtlm::frontend::analysis
