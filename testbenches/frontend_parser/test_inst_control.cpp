// Operand conventions of control flow, synchronisation and warp-level
// instructions.
#include <gtest/gtest.h>

#include "frontend/ptx/extensions.h"
#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;
using simtlm::frontend::ptx::ExtensionRegistry;

TEST(Control, BranchesAndReturns) {
  auto m = parse_kernel("  bra L2;\nL1:\n  exit;\nL2:\n  @%p1 bra.uni L1;\n  ret.uni;\n");
  const Function& k = m->functions[0];
  ASSERT_EQ(k.insts.size(), 5u);
  EXPECT_EQ(k.insts[0].op, Opcode::Bra);
  ASSERT_EQ(k.insts[0].ops.size(), 1u);
  EXPECT_EQ(k.insts[0].ops[0].kind, OperandKind::Label);
  EXPECT_EQ(k.insts[0].ops[0].target, 2u);
  EXPECT_FALSE(k.insts[0].uni);
  EXPECT_EQ(k.insts[1].op, Opcode::Exit);
  EXPECT_EQ(k.insts[2].ops[0].target, 1u);
  EXPECT_TRUE(k.insts[2].uni);
  EXPECT_EQ(k.insts[3].op, Opcode::Ret);
  EXPECT_TRUE(k.insts[3].uni);
  EXPECT_NE(kernel_error("bra %r1;").find("indirect branches"), std::string::npos);
  EXPECT_NE(kernel_error("bra 5;").find("needs a label"), std::string::npos);
  EXPECT_NE(kernel_error("ret %r1;").find("expects 0 operands"), std::string::npos);
}

TEST(Control, BrxIdx) {
  auto m = parse_kernel("ts: .branchtargets A, B, C;\n  brx.idx %r1, ts;\nA:\n  mov.u32 %r2, 1;\nB:\n"
                        "  mov.u32 %r2, 2;\nC:\n  @%p1 brx.idx.uni %r3, later;\n"
                        "later: .branchtargets C, A;\n");
  const Function& k = m->functions[0];
  const Instruction& b = k.insts[0];
  EXPECT_EQ(b.op, Opcode::BrxIdx);
  ASSERT_EQ(b.ops.size(), 2u);
  EXPECT_EQ(b.ops[0].kind, OperandKind::Reg);
  EXPECT_EQ(b.ops[1].kind, OperandKind::Label);
  EXPECT_EQ(b.ops[1].target, 0u);
  EXPECT_EQ(b.targets, (std::vector<uint32_t>{1, 2, 3}));
  const Instruction& b2 = k.insts[3];
  EXPECT_TRUE(b2.uni);
  EXPECT_EQ(b2.targets, (std::vector<uint32_t>{3, 1}));
  EXPECT_NE(kernel_error("brx.idx %r1, nolist;").find("undefined .branchtargets list 'nolist'"), std::string::npos);
  EXPECT_NE(kernel_error("ts: .branchtargets A, NOPE;\n brx.idx %r1, ts;\nA:\n ret;").find("undefined label 'NOPE'"),
            std::string::npos);
  EXPECT_NE(kernel_error("brx %r1, ts;").find("brx needs .idx"), std::string::npos);
}

TEST(Control, CallPrototypeDeclarationsAreAccepted) {
  // .callprototype / .calltargets are accepted (indirect calls themselves are not).
  auto m = parse_kernel("  { .param .b32 p;\n proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                        " tgts: .calltargets f0, f1;\n }\n");
  EXPECT_EQ(m->functions[0].insts.size(), 1u);
}

TEST(Sync, Barriers) {
  auto b = one("bar.sync 0;");
  EXPECT_EQ(b.inst->op, Opcode::Bar);
  EXPECT_EQ(b.inst->barrier, BarrierKind::Sync);
  ASSERT_EQ(b.inst->ops.size(), 1u);
  EXPECT_EQ(b.inst->ops[0].kind, OperandKind::Imm);
  auto bc = one("barrier.sync.aligned 2, 64;");
  EXPECT_EQ(bc.inst->barrier, BarrierKind::Sync);
  ASSERT_EQ(bc.inst->ops.size(), 2u);
  EXPECT_EQ(bc.inst->ops[1].imm, 64u);
  EXPECT_EQ(one("barrier.sync %r1;").inst->ops[0].kind, OperandKind::Reg);
  EXPECT_EQ(one("bar.cta.sync 1;").inst->barrier, BarrierKind::Sync);
  auto ar = one("bar.arrive 1, 64;");
  EXPECT_EQ(ar.inst->barrier, BarrierKind::Arrive);
  EXPECT_EQ(ar.inst->ops.size(), 2u);
  auto red = one("bar.red.popc.u32 %r1, 0, !%p1;");
  EXPECT_EQ(red.inst->barrier, BarrierKind::Red);
  EXPECT_EQ(red.inst->bar_red_op, 1);
  ASSERT_EQ(red.inst->ops.size(), 3u);
  EXPECT_EQ(red.inst->ops[0].reg, red.reg("%r1"));
  EXPECT_TRUE(red.inst->ops[2].negate);
  auto redand = one("bar.red.and.pred %p2, 1, 64, %p1;");
  EXPECT_EQ(redand.inst->bar_red_op, 2);
  ASSERT_EQ(redand.inst->ops.size(), 4u);
  EXPECT_EQ(one("barrier.red.or.pred %p2, 0, %p1;").inst->bar_red_op, 3);
  EXPECT_NE(kernel_error("bar 0;").find("needs .sync, .arrive or .red"), std::string::npos);
  EXPECT_NE(kernel_error("bar.arrive 1;").find("expects 2 operands"), std::string::npos);
  EXPECT_NE(kernel_error("bar.red.popc.pred %p1, 0, %p2;").find("needs .u32"), std::string::npos);
  EXPECT_NE(kernel_error("bar.sync 16;").find("0..15"), std::string::npos);
  EXPECT_NE(kernel_error("bar.sync.aligned 0;").find("unknown or unsupported modifier"), std::string::npos);

  auto ws = one("bar.warp.sync -1;");
  EXPECT_EQ(ws.inst->op, Opcode::Extension);
  EXPECT_EQ(ws.inst->ext_id, ExtensionRegistry::kBarWarpSync);
  ASSERT_EQ(ws.inst->ops.size(), 1u);
  EXPECT_EQ(ws.inst->ops[0].imm & 0xFFFFFFFFu, 0xFFFFFFFFu);
  auto trap = one("trap;");
  EXPECT_EQ(trap.inst->op, Opcode::Extension);
  EXPECT_EQ(trap.inst->ext_id, ExtensionRegistry::kTrap);
  EXPECT_TRUE(trap.inst->ops.empty());
}

TEST(Sync, FencesAndMembars) {
  EXPECT_EQ(one("membar.cta;").inst->scope, MemScope::Cta);
  EXPECT_EQ(one("membar.gl;").inst->scope, MemScope::Gpu);
  EXPECT_EQ(one("membar.sys;").inst->scope, MemScope::Sys);
  auto f = one("fence.sc.sys;");
  EXPECT_EQ(f.inst->op, Opcode::Fence);
  EXPECT_EQ(f.inst->order, MemOrder::Sc);
  EXPECT_EQ(f.inst->scope, MemScope::Sys);
  EXPECT_EQ(one("fence.acq_rel.gpu;").inst->order, MemOrder::AcqRel);
  EXPECT_EQ(one("fence.cta;").inst->order, MemOrder::AcqRel);
  EXPECT_EQ(one("fence.acq_rel.cluster;").inst->scope, MemScope::Cluster);
  EXPECT_NE(kernel_error("membar;").find("needs .cta, .gl or .sys"), std::string::npos);
  EXPECT_NE(kernel_error("fence.sc;").find("needs a scope"), std::string::npos);
  EXPECT_NE(kernel_error("fence.proxy.alias;").find("unknown or unsupported modifier"), std::string::npos);
}

TEST(Sync, ShuffleVoteActivemask) {
  auto s = one("shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, -1;");
  EXPECT_EQ(s.inst->op, Opcode::Shfl);
  EXPECT_EQ(s.inst->shfl, ShflMode::Down);
  EXPECT_TRUE(s.inst->dual_dst);
  ASSERT_EQ(s.inst->ops.size(), 6u);
  EXPECT_EQ(s.inst->ops[0].reg, s.reg("%r1"));
  EXPECT_EQ(s.inst->ops[1].reg, s.reg("%p1"));
  EXPECT_EQ(s.inst->ops[3].imm, 16u);
  EXPECT_EQ(s.inst->ops[5].imm & 0xFFFFFFFFu, 0xFFFFFFFFu);
  auto s2 = one("shfl.sync.idx.b32 %r1, %r2, %r3, %r4, %r5;");
  EXPECT_FALSE(s2.inst->dual_dst);
  EXPECT_EQ(s2.inst->ops.size(), 5u);
  EXPECT_EQ(one("shfl.sync.up.b32 %f1, %f2, 1, 0, 0xffffffff;").inst->shfl, ShflMode::Up);
  EXPECT_EQ(one("shfl.sync.bfly.b32 %r1, %r2, 1, 31, 0xffffffff;").inst->shfl, ShflMode::Bfly);
  auto v = one("vote.sync.ballot.b32 %r1, !%p1, %r2;");
  EXPECT_EQ(v.inst->vote, VoteMode::Ballot);
  ASSERT_EQ(v.inst->ops.size(), 3u);
  EXPECT_TRUE(v.inst->ops[1].negate);
  EXPECT_EQ(one("vote.sync.all.pred %p1, %p2, -1;").inst->vote, VoteMode::All);
  EXPECT_EQ(one("vote.sync.any.pred %p1, %p2, -1;").inst->vote, VoteMode::Any);
  EXPECT_EQ(one("vote.sync.uni.pred %p1, %p2, -1;").inst->vote, VoteMode::Uni);
  auto am = one("activemask.b32 %r1;");
  EXPECT_EQ(am.inst->op, Opcode::Activemask);
  ASSERT_EQ(am.inst->ops.size(), 1u);
  auto ns = one("nanosleep.u32 100;");
  EXPECT_EQ(ns.inst->op, Opcode::Nanosleep);
  EXPECT_EQ(ns.inst->ops[0].imm, 100u);
  EXPECT_NE(kernel_error("shfl.down.b32 %r1, %r2, 1, 31;").find("without .sync"), std::string::npos);
  EXPECT_NE(kernel_error("vote.all.pred %p1, %p2;").find("without .sync"), std::string::npos);
  EXPECT_NE(kernel_error("vote.sync.ballot.pred %r1, %p1, -1;").find("needs .b32"), std::string::npos);
  EXPECT_NE(kernel_error("vote.sync.all.pred %p1, %r1, -1;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("shfl.sync.idx.b32 %r1|%r2, %r2, 1, 31, -1;").find("does not match operand type .pred"),
            std::string::npos);
  EXPECT_NE(kernel_error("activemask.b64 %rd1;").find(".b32"), std::string::npos);
}

TEST(Sync, BmskBuiltinExtension) {
  auto b = one("bmsk.clamp.b32 %r1, %r2, 8;");
  EXPECT_EQ(b.inst->op, Opcode::Extension);
  EXPECT_EQ(b.inst->ext_id, ExtensionRegistry::kBmsk);
  EXPECT_TRUE(b.inst->shift_clamp);
  ASSERT_EQ(b.inst->ops.size(), 3u);
  EXPECT_EQ(b.inst->ops[2].imm, 8u);
  EXPECT_FALSE(one("bmsk.wrap.b32 %r1, %r2, %r3;").inst->shift_clamp);
  EXPECT_NE(kernel_error("bmsk.b32 %r1, %r2, %r3;").find("needs .clamp or .wrap"), std::string::npos);
  EXPECT_NE(kernel_error("bmsk.clamp.wrap.b32 %r1, %r2, %r3;").find("conflicting"), std::string::npos);
  EXPECT_NE(kernel_error("bmsk.clamp.u32 %r1, %r2, %r3;").find("only .b32"), std::string::npos);
}

TEST(Sync, ReduxSyncBuiltinExtension) {
  auto r = one("redux.sync.add.s32 %r1, %r2, -1;");
  EXPECT_EQ(r.inst->op, Opcode::Extension);
  EXPECT_EQ(r.inst->ext_id, ExtensionRegistry::kReduxSync);
  EXPECT_EQ(r.inst->atom, AtomOp::Add);
  EXPECT_EQ(r.inst->type, DataType::S32);
  ASSERT_EQ(r.inst->ops.size(), 3u);
  EXPECT_EQ(r.inst->ops[0].reg, r.reg("%r1"));
  EXPECT_EQ(r.inst->ops[1].reg, r.reg("%r2"));
  EXPECT_EQ(r.inst->ops[2].kind, OperandKind::Imm);
  EXPECT_EQ(one("redux.sync.xor.b32 %r1, %r2, %r3;").inst->atom, AtomOp::Xor);
  EXPECT_NE(kernel_error("redux.sync.add.b32 %r1, %r2, -1;").find("need .u32 or .s32"), std::string::npos);
  EXPECT_NE(kernel_error("redux.sync.u32 %r1, %r2, -1;").find("needs an operation"), std::string::npos);
  EXPECT_NE(kernel_error("redux.sync.add.min.u32 %r1, %r2, -1;").find("more than one operation"),
            std::string::npos);
}
