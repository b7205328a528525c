// Operand conventions of memory instructions: ld, ldu, st, cvta, mov of
// symbols, atom, red, prefetch, isspacep.
#include <gtest/gtest.h>

#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;

TEST(Memory, LoadForms) {
  auto o = one("ld.global.u32 %r1, [%rd2+16];");
  const Instruction& i = *o.inst;
  EXPECT_EQ(i.op, Opcode::Ld);
  EXPECT_EQ(i.type, DataType::U32);
  EXPECT_EQ(i.space, StateSpace::Global);
  EXPECT_EQ(i.vec, 1);
  ASSERT_EQ(i.ops.size(), 2u);
  EXPECT_EQ(i.ops[0].kind, OperandKind::Reg);
  EXPECT_EQ(i.ops[0].reg, o.reg("%r1"));
  EXPECT_EQ(i.ops[1].kind, OperandKind::Address);
  EXPECT_EQ(i.ops[1].base, OperandKind::Reg);
  EXPECT_EQ(i.ops[1].reg, o.reg("%rd2"));
  EXPECT_EQ(i.ops[1].offset, 16);

  auto neg = one("ld.u32 %r1, [%rd2+-8];");
  EXPECT_EQ(neg.inst->space, StateSpace::Generic);
  EXPECT_EQ(neg.inst->ops[1].offset, -8);
  EXPECT_EQ(one("ld.u32 %r1, [%rd2-4];").inst->ops[1].offset, -4);

  auto sym = one("ld.shared.f32 %f1, [smem+12];");
  EXPECT_EQ(sym.inst->ops[1].base, OperandKind::Symbol);
  EXPECT_EQ(sym.inst->ops[1].var, sym.var("smem"));
  EXPECT_EQ(sym.inst->ops[1].offset, 12);

  auto param = one("ld.param.u64 %rd1, [k_param_0];");
  EXPECT_EQ(param.inst->space, StateSpace::Param);
  EXPECT_EQ(param.inst->ops[1].var, param.var("k_param_0"));
  EXPECT_EQ(param.inst->ops[1].offset, 0);

  auto abs = one("ld.global.u32 %r1, [4096];");
  EXPECT_EQ(abs.inst->ops[1].base, OperandKind::None);
  EXPECT_EQ(abs.inst->ops[1].offset, 4096);

  auto narrow = one("ld.global.u8 %r1, [%rd1];");  // wider register allowed for ld
  EXPECT_EQ(narrow.inst->type, DataType::U8);

  auto s32addr = one("ld.shared.u32 %r1, [%r2];");  // 32-bit address register
  EXPECT_EQ(s32addr.inst->ops[1].reg, s32addr.reg("%r2"));
}

TEST(Memory, LoadVectorsAndQualifiers) {
  auto v = one("ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1];");
  const Instruction& i = *v.inst;
  EXPECT_EQ(i.vec, 4);
  EXPECT_EQ(i.type, DataType::F32);
  ASSERT_EQ(i.ops[0].kind, OperandKind::Vector);
  ASSERT_EQ(i.ops[0].elems.size(), 4u);
  EXPECT_EQ(i.ops[0].elems[0].reg, v.reg("%f1"));
  EXPECT_EQ(i.ops[0].elems[2].kind, OperandKind::Sink);
  EXPECT_EQ(one("ld.v2.u64 {%rd1, %rd2}, [%rd3];").inst->vec, 2);
  EXPECT_EQ(one("ld.global.ca.u32 %r1, [%rd1];").inst->space, StateSpace::Global);
  EXPECT_EQ(one("ld.global.ca.u32 %r1, [%rd1];").inst->cache_op, CacheOp::Ca);
  EXPECT_EQ(one("ld.global.u32 %r1, [%rd1];").inst->cache_op, CacheOp::None);
  one("ld.global.L1::evict_last.L2::256B.u32 %r1, [%rd1];");
  auto vol = one("ld.volatile.shared.u32 %r1, [%rd1];");
  EXPECT_TRUE(vol.inst->volatile_);
  EXPECT_EQ(vol.inst->order, MemOrder::Volatile);
  auto acq = one("ld.acquire.gpu.global.b32 %r1, [%rd1];");
  EXPECT_EQ(acq.inst->order, MemOrder::Acquire);
  EXPECT_EQ(acq.inst->scope, MemScope::Gpu);
  auto rel = one("ld.relaxed.cta.u32 %r1, [%rd1];");
  EXPECT_EQ(rel.inst->order, MemOrder::Relaxed);
  EXPECT_EQ(rel.inst->scope, MemScope::Cta);
  EXPECT_EQ(one("ld.weak.global.u32 %r1, [%rd1];").inst->order, MemOrder::Weak);
  EXPECT_EQ(one("ld.local.u32 %r1, [%rd1];").inst->space, StateSpace::Local);
  EXPECT_EQ(one("ld.const.u32 %r1, [%rd1];").inst->space, StateSpace::Const);
  EXPECT_EQ(one("ld.shared::cta.u32 %r1, [%rd1];").inst->space, StateSpace::Shared);
  EXPECT_EQ(one("ld.param::entry.u32 %r1, [k_param_1];").inst->space, StateSpace::Param);
  auto ldu = one("ldu.global.v2.f32 {%f1, %f2}, [%rd1];");
  EXPECT_EQ(ldu.inst->op, Opcode::Ldu);
  EXPECT_EQ(ldu.inst->vec, 2);
  EXPECT_EQ(ldu.inst->space, StateSpace::Global);
}

// PTX ISA "Cache Operators": ld takes .ca .cg .cs .lu .cv, st takes .wb .cg
// .cs .wt, ld.global.nc only .ca .cg .cs; none goes with .volatile or a
// .relaxed/.acquire/.release order (.weak is allowed).
TEST(Memory, CacheOperatorsAreRecordedAndChecked) {
  const std::pair<const char*, CacheOp> loads[] = {
      {"ca", CacheOp::Ca}, {"cg", CacheOp::Cg}, {"cs", CacheOp::Cs}, {"lu", CacheOp::Lu}, {"cv", CacheOp::Cv}};
  for (const auto& [name, op] : loads) {
    EXPECT_EQ(one(std::string("ld.global.") + name + ".u32 %r1, [%rd1];").inst->cache_op, op) << name;
  }
  for (const char* name : {"ca", "lu", "cv"}) {
    EXPECT_NE(kernel_error(std::string("st.global.") + name + ".u32 [%rd1], %r1;").find("not allowed on st"),
              std::string::npos)
        << name;
  }
  const std::pair<const char*, CacheOp> stores[] = {
      {"wb", CacheOp::Wb}, {"cg", CacheOp::Cg}, {"cs", CacheOp::Cs}, {"wt", CacheOp::Wt}};
  for (const auto& [name, op] : stores) {
    EXPECT_EQ(one(std::string("st.global.") + name + ".u32 [%rd1], %r1;").inst->cache_op, op) << name;
  }
  EXPECT_NE(kernel_error("ld.global.wb.u32 %r1, [%rd1];").find("cache operator .wb not allowed on ld"),
            std::string::npos);
  EXPECT_EQ(one("ld.global.nc.cs.v2.f32 {%f1, %f2}, [%rd1];").inst->cache_op, CacheOp::Cs);
  EXPECT_NE(kernel_error("ld.global.nc.lu.u32 %r1, [%rd1];").find("only the cache operators"), std::string::npos);
  EXPECT_EQ(one("ld.weak.global.cg.u32 %r1, [%rd1];").inst->cache_op, CacheOp::Cg);
  EXPECT_NE(kernel_error("ld.relaxed.gpu.global.cg.u32 %r1, [%rd1];").find("memory order"), std::string::npos);
  EXPECT_NE(kernel_error("ld.volatile.global.cg.u32 %r1, [%rd1];").find("with .volatile"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.cg.cs.u32 %r1, [%rd1];").find("duplicate"), std::string::npos);
}

TEST(Memory, LoadErrors) {
  EXPECT_NE(kernel_error("ld.global.u64 %r1, [%rd1];").find("does not match operand type .u64"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.f32 %fd1, [%rd1];").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32 %r1, %rd1;").find("not allowed here"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32 %r1, [%f1];").find("32- or 64-bit integer"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32 %r1, [nope];").find("undefined identifier 'nope'"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.v4.f32 {%f1, %f2}, [%rd1];").find("expected 4"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd1];").find("wider than 16 bytes"),
            std::string::npos);
  EXPECT_NE(kernel_error("ld.shared.nc.u32 %r1, [%rd1];").find("needs the .global"), std::string::npos);
  EXPECT_NE(kernel_error("ld.acquire.global.u32 %r1, [%rd1];").find("needs a scope"), std::string::npos);
  EXPECT_NE(kernel_error("ld.release.gpu.global.u32 %r1, [%rd1];").find("not allowed on ld"), std::string::npos);
  EXPECT_NE(kernel_error("ld.volatile.relaxed.gpu.u32 %r1, [%rd1];").find(".volatile cannot"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.global.u32 %r1, [%rd1];").find("duplicate"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32.u32 %r1, [%rd1];").find("exactly one type"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global %r1, [%rd1];").find("missing type"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.xyz.u32 %r1, [%rd1];").find("unknown or unsupported modifier '.xyz'"),
            std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32 %r1;").find("expects 2 operands"), std::string::npos);
  EXPECT_NE(kernel_error("ld.shared::cluster.u32 %r1, [%rd1];").find("not supported"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.u32 5, [%rd1];").find("cannot be a destination"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.pred %p1, [%rd1];").find("cannot access .pred"), std::string::npos);
}

TEST(Memory, StoreForms) {
  auto s = one("st.global.u32 [%rd1+4], %r2;");
  const Instruction& i = *s.inst;
  EXPECT_EQ(i.op, Opcode::St);
  ASSERT_EQ(i.ops.size(), 2u);
  EXPECT_EQ(i.ops[0].kind, OperandKind::Address);
  EXPECT_EQ(i.ops[0].offset, 4);
  EXPECT_EQ(i.ops[1].reg, s.reg("%r2"));
  auto imm = one("st.shared.f32 [smem], 0f3F800000;");
  EXPECT_EQ(imm.inst->ops[1].kind, OperandKind::Imm);
  EXPECT_EQ(imm.inst->ops[1].imm, 0x3F800000u);
  auto vec = one("st.local.v4.u32 [%rd1], {%r1, %r2, 0, %r4};");
  EXPECT_EQ(vec.inst->ops[1].kind, OperandKind::Vector);
  EXPECT_EQ(vec.inst->ops[1].elems[2].kind, OperandKind::Imm);
  auto byte = one("st.global.u8 [%rd1], %rs1;");  // narrower store from a wider register
  EXPECT_EQ(byte.inst->type, DataType::U8);
  auto rel = one("st.release.sys.global.b32 [%rd1], %r1;");
  EXPECT_EQ(rel.inst->order, MemOrder::Release);
  EXPECT_EQ(rel.inst->scope, MemScope::Sys);
  for (const char* c : {"wb", "cg", "cs", "wt"}) one(std::string("st.global.") + c + ".u32 [%rd1], %r1;");
  EXPECT_NE(kernel_error("st.const.u32 [%rd1], %r1;").find("cannot store to the .const"), std::string::npos);
  EXPECT_NE(kernel_error("st.global.v2.u32 [%rd1], {%r1, _};").find("'_' is only allowed in destination"),
            std::string::npos);
  EXPECT_NE(kernel_error("st.global.nc.u32 [%rd1], %r1;").find("unknown or unsupported modifier '.nc'"),
            std::string::npos);
}

TEST(Memory, CvtaAndSymbolAddresses) {
  auto c = one("cvta.to.global.u64 %rd1, %rd2;");
  EXPECT_EQ(c.inst->op, Opcode::Cvta);
  EXPECT_TRUE(c.inst->cvta_to);
  EXPECT_EQ(c.inst->space, StateSpace::Global);
  EXPECT_EQ(c.inst->type, DataType::U64);
  auto s = one("cvta.shared.u64 %rd1, smem;");
  EXPECT_FALSE(s.inst->cvta_to);
  EXPECT_EQ(s.inst->space, StateSpace::Shared);
  EXPECT_EQ(s.inst->ops[1].kind, OperandKind::Symbol);
  EXPECT_EQ(s.inst->ops[1].var, s.var("smem"));
  auto m = one("mov.u64 %rd1, smem;");
  EXPECT_EQ(m.inst->ops[1].kind, OperandKind::Symbol);
  auto m32 = one("mov.u32 %r1, smem+16;");
  EXPECT_EQ(m32.inst->ops[1].kind, OperandKind::Symbol);
  EXPECT_EQ(m32.inst->ops[1].offset, 16);
  EXPECT_EQ(one("cvta.local.u32 %r1, %r2;").inst->type, DataType::U32);
  EXPECT_NE(kernel_error("cvta.to.shared.u64 %rd1, smem;").find("cannot be used as a value"), std::string::npos);
  EXPECT_NE(kernel_error("cvta.u64 %rd1, %rd2;").find("needs a state space"), std::string::npos);
  EXPECT_NE(kernel_error("cvta.global.b64 %rd1, %rd2;").find(".u32 or .u64"), std::string::npos);
  EXPECT_NE(kernel_error("mov.f32 %f1, smem;").find("cannot be used as a value"), std::string::npos);
  EXPECT_NE(kernel_error("add.u64 %rd1, smem, 1;").find("cannot be used as a value"), std::string::npos);
}

TEST(Memory, Atomics) {
  auto a = one("atom.global.add.u32 %r1, [%rd1], 1;");
  const Instruction& i = *a.inst;
  EXPECT_EQ(i.op, Opcode::Atom);
  EXPECT_EQ(i.atom, AtomOp::Add);
  EXPECT_EQ(i.type, DataType::U32);
  EXPECT_EQ(i.space, StateSpace::Global);
  ASSERT_EQ(i.ops.size(), 3u);
  EXPECT_EQ(i.ops[0].reg, a.reg("%r1"));
  EXPECT_EQ(i.ops[1].kind, OperandKind::Address);
  EXPECT_EQ(i.ops[2].kind, OperandKind::Imm);
  EXPECT_EQ(i.ops[2].imm, 1u);
  auto cas = one("atom.shared.cas.b32 %r1, [smem+4], %r2, %r3;");
  EXPECT_EQ(cas.inst->atom, AtomOp::Cas);
  EXPECT_EQ(cas.inst->space, StateSpace::Shared);
  ASSERT_EQ(cas.inst->ops.size(), 4u);
  EXPECT_EQ(cas.inst->ops[3].reg, cas.reg("%r3"));
  auto gen = one("atom.add.relaxed.gpu.s32 %r1,[%rd1],%r2;");
  EXPECT_EQ(gen.inst->space, StateSpace::Generic);
  EXPECT_EQ(gen.inst->order, MemOrder::Relaxed);
  EXPECT_EQ(gen.inst->scope, MemScope::Gpu);
  auto f = one("atom.global.add.f32 %f1, [%rd1], 0f3F800000;");
  EXPECT_EQ(f.inst->ops[2].imm, 0x3F800000u);
  EXPECT_EQ(one("atom.global.add.f64 %fd1, [%rd1], %fd2;").inst->type, DataType::F64);
  EXPECT_EQ(one("atom.global.add.u64 %rd1, [%rd1], 1;").inst->type, DataType::U64);
  EXPECT_EQ(one("atom.global.cta.add.u32 %r1, [%rd1], 4;").inst->scope, MemScope::Cta);
  EXPECT_EQ(one("atom.max.acq_rel.cta.s32 %r1,[%rd1],%r2;").inst->order, MemOrder::AcqRel);
  EXPECT_EQ(one("atom.global.exch.b32 %r1, [%rd1], %r2;").inst->atom, AtomOp::Exch);
  EXPECT_EQ(one("atom.global.inc.u32 %r1, [%rd1], 10;").inst->atom, AtomOp::Inc);
  EXPECT_EQ(one("atom.global.dec.u32 %r1, [%rd1], 10;").inst->atom, AtomOp::Dec);
  for (const char* op : {"and", "or", "xor"}) one(std::string("atom.global.") + op + ".b32 %r1, [%rd1], %r2;");
  for (const char* op : {"min", "max"}) one(std::string("atom.global.") + op + ".s32 %r1, [%rd1], %r2;");
  one("atom.global.add.noftz.f16 %h1, [%rd1], %h2;");
  auto red = one("red.global.add.u32 [%rd1], %r2;");
  EXPECT_EQ(red.inst->op, Opcode::Red);
  ASSERT_EQ(red.inst->ops.size(), 2u);
  EXPECT_EQ(red.inst->ops[0].kind, OperandKind::Address);
  EXPECT_EQ(red.inst->ops[1].reg, red.reg("%r2"));
  EXPECT_EQ(one("red.release.gpu.shared.max.u64 [%rd1], %rd2;").inst->order, MemOrder::Release);
}

TEST(Memory, AtomicErrors) {
  EXPECT_NE(kernel_error("atom.global.u32 %r1, [%rd1], 1;").find("needs an operation"), std::string::npos);
  EXPECT_NE(kernel_error("atom.global.inc.s32 %r1, [%rd1], 1;").find("does not support this operation"),
            std::string::npos);
  EXPECT_NE(kernel_error("atom.global.and.f32 %f1, [%rd1], %f2;").find("does not support"), std::string::npos);
  EXPECT_NE(kernel_error("atom.global.cas.b32 %r1, [%rd1], %r2;").find("expects 4 operands"), std::string::npos);
  EXPECT_NE(kernel_error("atom.local.add.u32 %r1, [%rd1], 1;").find("supports only .global, .shared"),
            std::string::npos);
  EXPECT_NE(kernel_error("red.global.cas.b32 [%rd1], %r2;").find("red does not support .cas"), std::string::npos);
  EXPECT_NE(kernel_error("red.acquire.gpu.global.add.u32 [%rd1], %r2;").find("memory order not allowed"),
            std::string::npos);
  EXPECT_NE(kernel_error("atom.global.add.f16 %h1, [%rd1], %h2;").find("needs .noftz"), std::string::npos);
  EXPECT_NE(kernel_error("atom.global.add.u32 %rd1, [%rd1], 1;").find("does not match"), std::string::npos);
}

TEST(Memory, PrefetchAndIsspacep) {
  auto p = one("prefetch.global.L2 [%rd1];");
  EXPECT_EQ(p.inst->op, Opcode::Prefetch);
  EXPECT_EQ(p.inst->space, StateSpace::Global);
  ASSERT_EQ(p.inst->ops.size(), 1u);
  EXPECT_EQ(p.inst->ops[0].kind, OperandKind::Address);
  EXPECT_EQ(one("prefetch.L1 [%rd1];").inst->space, StateSpace::Generic);
  EXPECT_EQ(one("prefetch.global.L2::evict_last [%rd1];").inst->op, Opcode::Prefetch);
  EXPECT_EQ(one("prefetchu.L1 [%rd1];").inst->op, Opcode::Prefetch);
  EXPECT_NE(kernel_error("prefetch.global [%rd1];").find("cache level"), std::string::npos);
  auto s = one("isspacep.shared %p1, %rd1;");
  EXPECT_EQ(s.inst->op, Opcode::Isspacep);
  EXPECT_EQ(s.inst->space, StateSpace::Shared);
  EXPECT_EQ(s.inst->ops[0].reg, s.reg("%p1"));
  EXPECT_EQ(s.inst->ops[1].reg, s.reg("%rd1"));
  EXPECT_EQ(one("isspacep.global %p1, %rd1;").inst->space, StateSpace::Global);
  EXPECT_NE(kernel_error("isspacep %p1, %rd1;").find("needs a state space"), std::string::npos);
}
