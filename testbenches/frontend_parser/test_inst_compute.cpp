// Operand conventions of arithmetic, conversion, bit-manipulation and
// comparison instructions.
#include <gtest/gtest.h>

#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;

namespace {

void expect_regs(const One& o, std::initializer_list<const char*> names) {
  ASSERT_EQ(o.inst->ops.size(), names.size()) << o.inst->text;
  size_t i = 0;
  for (const char* n : names) {
    EXPECT_EQ(o.inst->ops[i].kind, OperandKind::Reg) << o.inst->text << " operand " << i;
    EXPECT_EQ(o.inst->ops[i].reg, o.reg(n)) << o.inst->text << " operand " << i;
    ++i;
  }
}

}  // namespace

TEST(Compute, MovForms) {
  auto m = one("mov.u32 %r1, %r2;");
  expect_regs(m, {"%r1", "%r2"});
  EXPECT_EQ(m.inst->type, DataType::U32);
  auto imm = one("mov.f32 %f1, 0f3F800000;");
  EXPECT_EQ(imm.inst->ops[1].imm, 0x3F800000u);
  EXPECT_EQ(one("mov.f64 %fd1, 0f3F800000;").inst->ops[1].imm, 0x3FF0000000000000ull);
  EXPECT_EQ(one("mov.f32 %f1, 1.5;").inst->ops[1].imm, 0x3FC00000u);
  EXPECT_EQ(one("mov.u32 %r1, -1;").inst->ops[1].imm, ~uint64_t{0});
  EXPECT_EQ(one("mov.b16 %rs1, 0x3C00;").inst->ops[1].imm, 0x3C00u);
  auto sreg = one("mov.u32 %r1, %ctaid.y;");
  EXPECT_EQ(sreg.inst->ops[1].kind, OperandKind::Special);
  EXPECT_EQ(sreg.inst->ops[1].sreg, SpecialReg::Ctaid);
  EXPECT_EQ(sreg.inst->ops[1].component, 1);
  auto pack = one("mov.b64 %rd1, {%r1, %r2};");
  EXPECT_EQ(pack.inst->ops[0].kind, OperandKind::Reg);
  ASSERT_EQ(pack.inst->ops[1].kind, OperandKind::Vector);
  EXPECT_EQ(pack.inst->ops[1].elems[1].reg, pack.reg("%r2"));
  auto unpack = one("mov.b64 {%r1, _}, %rd1;");
  ASSERT_EQ(unpack.inst->ops[0].kind, OperandKind::Vector);
  EXPECT_EQ(unpack.inst->ops[0].elems[1].kind, OperandKind::Sink);
  auto half_pack = one("mov.b32 %f2, {0, %rs1};");
  EXPECT_EQ(half_pack.inst->ops[1].elems[0].kind, OperandKind::Imm);
  one("mov.b64 {%rs1, %rs2, %rs3, %rs4}, %rd1;");
  one("mov.pred %p1, %p2;");
  one("mov.b32 %r1, %f1;");  // bit type accepts any register of the same size
  EXPECT_NE(kernel_error("mov.u32 %r1, %f1;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %r1, %rd1;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("mov.b64 %rd1, {%r1, %r2, %r3};").find("2 or 4"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u64 %rd1, {%r1, %r2};").find("needs mov.b32"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %tid.x, %r1;").find("read-only"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %r1, %tid;").find("component"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %r1, %envreg3;").find("unsupported special register"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %r1, %bogus;").find("undefined identifier '%bogus'"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u64 %rd1, %tid.x;").find("32-bit"), std::string::npos);
  EXPECT_NE(kernel_error("mov.u8 %rs1, 1;").find("does not support type .u8"), std::string::npos);
}

TEST(Compute, SpecialRegisters) {
  struct Case {
    const char* text;
    SpecialReg sreg;
    uint8_t comp;
  };
  const Case cases[] = {
      {"mov.u32 %r1, %tid.x;", SpecialReg::Tid, 0},     {"mov.u32 %r1, %ntid.z;", SpecialReg::Ntid, 2},
      {"mov.u32 %r1, %nctaid.x;", SpecialReg::Nctaid, 0}, {"mov.u32 %r1, %laneid;", SpecialReg::Laneid, 0},
      {"mov.u32 %r1, %warpid;", SpecialReg::Warpid, 0}, {"mov.u32 %r1, %nwarpid;", SpecialReg::Nwarpid, 0},
      {"mov.u32 %r1, %smid;", SpecialReg::Smid, 0},     {"mov.u32 %r1, %nsmid;", SpecialReg::Nsmid, 0},
      {"mov.u64 %rd1, %gridid;", SpecialReg::Gridid, 0}, {"mov.u32 %r1, %clock;", SpecialReg::Clock, 0},
      {"mov.u64 %rd1, %clock64;", SpecialReg::Clock64, 0},
      {"mov.u64 %rd1, %globaltimer;", SpecialReg::Globaltimer, 0},
      {"mov.u32 %r1, %globaltimer_lo;", SpecialReg::GlobaltimerLo, 0},
      {"mov.u32 %r1, %globaltimer_hi;", SpecialReg::GlobaltimerHi, 0},
      {"mov.u32 %r1, %lanemask_eq;", SpecialReg::LanemaskEq, 0},
      {"mov.u32 %r1, %lanemask_le;", SpecialReg::LanemaskLe, 0},
      {"mov.u32 %r1, %lanemask_lt;", SpecialReg::LanemaskLt, 0},
      {"mov.u32 %r1, %lanemask_ge;", SpecialReg::LanemaskGe, 0},
      {"mov.u32 %r1, %lanemask_gt;", SpecialReg::LanemaskGt, 0},
      {"mov.u32 %r1, %dynamic_smem_size;", SpecialReg::DynamicSmemSize, 0},
      {"mov.u32 %r1, %total_smem_size;", SpecialReg::TotalSmemSize, 0},
      {"mov.u16 %rs1, %tid.x;", SpecialReg::Tid, 0},
      {"mov.u32 %r1, WARP_SZ;", SpecialReg::WarpSz, 0},
  };
  for (const Case& c : cases) {
    auto o = one(c.text);
    EXPECT_EQ(o.inst->ops[1].kind, OperandKind::Special) << c.text;
    EXPECT_EQ(o.inst->ops[1].sreg, c.sreg) << c.text;
    EXPECT_EQ(o.inst->ops[1].component, c.comp) << c.text;
  }
  auto add = one("add.s32 %r1, %tid.x, 1;");
  EXPECT_EQ(add.inst->ops[1].kind, OperandKind::Special);
}

TEST(Compute, IntegerArithmetic) {
  auto a = one("add.s32 %r1, %r2, -3;");
  EXPECT_EQ(a.inst->op, Opcode::Add);
  EXPECT_EQ(a.inst->ops[2].imm, static_cast<uint64_t>(-3));
  EXPECT_TRUE(one("add.sat.s32 %r1, %r2, %r3;").inst->sat);
  auto cc = one("add.cc.u64 %rd1, %rd2, %rd3;");
  EXPECT_TRUE(cc.inst->cc);
  auto addc = one("addc.cc.u32 %r1, %r2, %r3;");
  EXPECT_EQ(addc.inst->op, Opcode::Addc);
  EXPECT_TRUE(addc.inst->cc);
  EXPECT_EQ(one("subc.u64 %rd1, %rd2, %rd3;").inst->op, Opcode::Subc);
  EXPECT_EQ(one("sub.cc.u32 %r1, %r2, %r3;").inst->op, Opcode::Sub);
  auto w = one("mul.wide.u32 %rd1, %r2, %r3;");
  EXPECT_EQ(w.inst->mul, MulMode::Wide);
  EXPECT_EQ(w.inst->type, DataType::U32);  // source type
  expect_regs(w, {"%rd1", "%r2", "%r3"});
  EXPECT_EQ(one("mul.lo.s32 %r1, %r2, 4;").inst->mul, MulMode::Lo);
  EXPECT_EQ(one("mul.hi.u64 %rd1, %rd2, %rd3;").inst->mul, MulMode::Hi);
  EXPECT_EQ(one("mul.wide.s16 %r1, %rs1, %rs2;").inst->type, DataType::S16);
  auto mad = one("mad.wide.u32 %rd1, %r2, %r3, %rd4;");
  expect_regs(mad, {"%rd1", "%r2", "%r3", "%rd4"});
  EXPECT_TRUE(one("mad.hi.sat.s32 %r1, %r2, %r3, %r4;").inst->sat);
  EXPECT_TRUE(one("mad.lo.cc.u32 %r1, %r2, %r3, %r4;").inst->cc);
  auto madc = one("madc.hi.cc.u64 %rd1, %rd2, %rd3, %rd4;");
  EXPECT_EQ(madc.inst->op, Opcode::Madc);
  EXPECT_EQ(madc.inst->mul, MulMode::Hi);
  EXPECT_EQ(one("mul24.lo.u32 %r1, %r2, %r3;").inst->op, Opcode::Mul24);
  EXPECT_EQ(one("mad24.hi.sat.s32 %r1, %r2, %r3, %r4;").inst->op, Opcode::Mad24);
  EXPECT_EQ(one("sad.s32 %r1, %r2, %r3, %r4;").inst->op, Opcode::Sad);
  EXPECT_EQ(one("div.s32 %r1, %r2, %r3;").inst->op, Opcode::Div);
  EXPECT_EQ(one("div.u64 %rd1, %rd2, %rd3;").inst->type, DataType::U64);
  EXPECT_EQ(one("rem.u32 %r1, %r2, 7;").inst->op, Opcode::Rem);
  EXPECT_EQ(one("abs.s32 %r1, %r2;").inst->op, Opcode::Abs);
  EXPECT_EQ(one("neg.s64 %rd1, %rd2;").inst->op, Opcode::Neg);
  EXPECT_EQ(one("min.u32 %r1, %r2, %r3;").inst->op, Opcode::Min);
  EXPECT_EQ(one("max.s16 %rs1, %rs2, %rs3;").inst->op, Opcode::Max);
  EXPECT_EQ(one("add.s16 %rs1, %rs2, 1;").inst->type, DataType::S16);
  one("add.u32 %u1, %s2, %r3;");  // any 32-bit integer/bit register in a .u32 position
}

TEST(Compute, IntegerArithmeticErrors) {
  EXPECT_NE(kernel_error("mul.u32 %r1, %r2, %r3;").find("needs .lo, .hi or .wide"), std::string::npos);
  EXPECT_NE(kernel_error("mul.wide.u64 %rd1, %rd2, %rd3;").find("16- and 32-bit"), std::string::npos);
  EXPECT_NE(kernel_error("mul.wide.u32 %r1, %r2, %r3;").find("does not match operand type .u64"), std::string::npos);
  EXPECT_NE(kernel_error("add.sat.u32 %r1, %r2, %r3;").find(".sat is only allowed on .s32"), std::string::npos);
  EXPECT_NE(kernel_error("add.rn.s32 %r1, %r2, %r3;").find("rounding"), std::string::npos);
  EXPECT_NE(kernel_error("add.cc.u16 %rs1, %rs2, %rs3;").find(".cc needs"), std::string::npos);
  EXPECT_NE(kernel_error("add.u8 %rs1, %rs2, %rs3;").find("does not support type .u8"), std::string::npos);
  EXPECT_NE(kernel_error("add.b32 %r1, %r2, %r3;").find("does not support type .b32"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %r1, %r2;").find("expects 3 operands"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %r1, %r2, %r3, %r4;").find("expects 3 operands"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %r1, %r2, 1.5;").find("floating-point immediate"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %r1, %r2, 0x100000000;").find("out of range"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %r1, %r2, %nope;").find("undefined identifier '%nope'"), std::string::npos);
  EXPECT_NE(kernel_error("add.u32 %p1, %r2, %r3;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("abs.u32 %r1, %r2;").find("does not support type .u32"), std::string::npos);
  EXPECT_NE(kernel_error("madc.u32 %r1, %r2, %r3, %r4;").find("needs .lo or .hi"), std::string::npos);
  EXPECT_NE(kernel_error("mad24.lo.sat.s32 %r1, %r2, %r3, %r4;").find(".sat"), std::string::npos);
  EXPECT_NE(kernel_error("div.full.s32 %r1, %r2, %r3;").find("integer div takes no modifiers"), std::string::npos);
  EXPECT_NE(kernel_error("frobnicate.u32 %r1, %r2;").find("unknown instruction 'frobnicate'"), std::string::npos);
}

TEST(Compute, FloatArithmetic) {
  auto f = one("fma.rn.ftz.sat.f32 %f1, %f2, %f3, 0f3F800000;");
  EXPECT_EQ(f.inst->op, Opcode::Fma);
  EXPECT_EQ(f.inst->rounding, Rounding::Rn);
  EXPECT_TRUE(f.inst->ftz);
  EXPECT_TRUE(f.inst->sat);
  EXPECT_EQ(f.inst->ops[3].imm, 0x3F800000u);
  EXPECT_EQ(one("fma.rn.f64 %fd1, %fd2, %fd3, 0d3FF0000000000000;").inst->ops[3].imm, 0x3FF0000000000000ull);
  EXPECT_EQ(one("add.rz.f32 %f1, %f2, %f3;").inst->rounding, Rounding::Rz);
  EXPECT_EQ(one("sub.rm.f64 %fd1, %fd2, %fd3;").inst->rounding, Rounding::Rm);
  EXPECT_EQ(one("mul.rp.ftz.f32 %f1, %f2, %f3;").inst->rounding, Rounding::Rp);
  EXPECT_EQ(one("mad.rn.f32 %f1, %f2, %f3, %f4;").inst->op, Opcode::Mad);
  auto da = one("div.approx.ftz.f32 %f1, %f2, %f3;");
  EXPECT_TRUE(da.inst->approx);
  EXPECT_TRUE(da.inst->ftz);
  EXPECT_TRUE(one("div.full.f32 %f1, %f2, %f3;").inst->full);
  EXPECT_EQ(one("div.rn.f64 %fd1, %fd2, %fd3;").inst->rounding, Rounding::Rn);
  EXPECT_TRUE(one("rcp.approx.ftz.f32 %f1, %f2;").inst->approx);
  EXPECT_EQ(one("rcp.rn.f64 %fd1, %fd2;").inst->rounding, Rounding::Rn);
  one("rcp.approx.ftz.f64 %fd1, %fd2;");
  EXPECT_EQ(one("sqrt.rn.f32 %f1, %f2;").inst->op, Opcode::Sqrt);
  EXPECT_TRUE(one("sqrt.approx.f32 %f1, %f2;").inst->approx);
  EXPECT_EQ(one("rsqrt.approx.f64 %fd1, %fd2;").inst->op, Opcode::Rsqrt);
  EXPECT_EQ(one("ex2.approx.ftz.f32 %f1, %f2;").inst->op, Opcode::Ex2);
  EXPECT_EQ(one("ex2.approx.f16 %h1, %h2;").inst->type, DataType::F16);
  EXPECT_EQ(one("lg2.approx.f32 %f1, %f2;").inst->op, Opcode::Lg2);
  EXPECT_EQ(one("sin.approx.ftz.f32 %f1, %f2;").inst->op, Opcode::Sin);
  EXPECT_EQ(one("cos.approx.f32 %f1, %f2;").inst->op, Opcode::Cos);
  EXPECT_EQ(one("tanh.approx.f32 %f1, %f2;").inst->op, Opcode::Tanh);
  EXPECT_EQ(one("copysign.f32 %f1, %f2, %f3;").inst->op, Opcode::Copysign);
  auto t = one("testp.notanumber.f32 %p1, %f2;");
  EXPECT_EQ(t.inst->testp, TestProp::NotANumber);
  expect_regs(t, {"%p1", "%f2"});
  for (const char* p : {"finite", "infinite", "number", "normal", "subnormal"})
    one(std::string("testp.") + p + ".f64 %p1, %fd1;");
  EXPECT_TRUE(one("abs.ftz.f32 %f1, %f2;").inst->ftz);
  EXPECT_EQ(one("neg.f64 %fd1, %fd2;").inst->type, DataType::F64);
  auto mn = one("min.NaN.f32 %f1, %f2, %f3;");
  EXPECT_EQ(mn.inst->cmp, CmpOp::Nan);
  EXPECT_TRUE(one("max.ftz.f32 %f1, %f2, %f3;").inst->ftz);
  EXPECT_EQ(one("add.f16 %rs1, %rs2, %rs3;").inst->type, DataType::F16);  // .b16 registers hold halves
  EXPECT_EQ(one("fma.rn.f16x2 %r1, %r2, %r3, %r4;").inst->type, DataType::F16x2);
  EXPECT_EQ(one("fma.rn.bf16x2 %r1, %r2, %r3, %r4;").inst->type, DataType::BF16x2);
  EXPECT_EQ(one("max.NaN.f16 %h1, %h2, %h3;").inst->cmp, CmpOp::Nan);
  EXPECT_EQ(one("abs.f16x2 %hh1, %hh2;").inst->type, DataType::F16x2);
  EXPECT_EQ(one("add.f32 %f1, %f2, 1;").inst->ops[2].imm, 0x3F800000u);
}

TEST(Compute, FloatErrors) {
  EXPECT_NE(kernel_error("fma.f32 %f1, %f2, %f3, %f4;").find("needs a rounding modifier"), std::string::npos);
  EXPECT_NE(kernel_error("div.f32 %f1, %f2, %f3;").find("exactly one of .approx, .full"), std::string::npos);
  EXPECT_NE(kernel_error("div.f64 %fd1, %fd2, %fd3;").find("needs a rounding"), std::string::npos);
  EXPECT_NE(kernel_error("rcp.f32 %f1, %f2;").find("exactly one of .approx"), std::string::npos);
  EXPECT_NE(kernel_error("sqrt.approx.f64 %fd1, %fd2;").find(".f32"), std::string::npos);
  EXPECT_NE(kernel_error("ex2.f32 %f1, %f2;").find("needs .approx"), std::string::npos);
  EXPECT_NE(kernel_error("sin.approx.f64 %fd1, %fd2;").find("does not support type .f64"), std::string::npos);
  EXPECT_NE(kernel_error("add.ftz.f64 %fd1, %fd2, %fd3;").find(".ftz is not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("add.cc.f32 %f1, %f2, %f3;").find(".cc applies only"), std::string::npos);
  EXPECT_NE(kernel_error("add.f32 %f1, %f2, %u3;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("add.f32 %f1, %f2, %fd3;").find("does not match"), std::string::npos);
  EXPECT_NE(kernel_error("add.rz.f16 %h1, %h2, %h3;").find("only .rn"), std::string::npos);
  EXPECT_NE(kernel_error("testp.f32 %p1, %f1;").find("needs a property"), std::string::npos);
  EXPECT_NE(kernel_error("mul.lo.f32 %f1, %f2, %f3;").find("integer mul"), std::string::npos);
  EXPECT_NE(kernel_error("fma.rn.f32 %f1, %f2, %f3, 0d3FF0000000000000x;").find("malformed number"),
            std::string::npos);
}

TEST(Compute, Conversions) {
  auto c = one("cvt.rn.f32.s32 %f1, %r1;");
  EXPECT_EQ(c.inst->op, Opcode::Cvt);
  EXPECT_EQ(c.inst->type, DataType::F32);
  EXPECT_EQ(c.inst->type2, DataType::S32);
  EXPECT_EQ(c.inst->rounding, Rounding::Rn);
  expect_regs(c, {"%f1", "%r1"});
  EXPECT_EQ(one("cvt.rzi.s32.f32 %r1, %f1;").inst->rounding, Rounding::Rzi);
  EXPECT_EQ(one("cvt.rmi.f32.f32 %f1, %f2;").inst->rounding, Rounding::Rmi);
  EXPECT_EQ(one("cvt.rni.ftz.s32.f32 %r1, %f1;").inst->rounding, Rounding::Rni);
  EXPECT_EQ(one("cvt.rpi.u64.f64 %rd1, %fd1;").inst->rounding, Rounding::Rpi);
  EXPECT_EQ(one("cvt.u64.u32 %rd1, %r1;").inst->rounding, Rounding::None);
  EXPECT_EQ(one("cvt.u16.u32 %rs1, %r1;").inst->type, DataType::U16);
  EXPECT_EQ(one("cvt.u32.u16 %r1, %rs1;").inst->type2, DataType::U16);
  EXPECT_TRUE(one("cvt.sat.s8.s32 %r1, %r2;").inst->sat);  // wider register for .s8 (relaxed)
  EXPECT_EQ(one("cvt.f64.f32 %fd1, %f1;").inst->rounding, Rounding::None);
  EXPECT_EQ(one("cvt.rn.f32.f64 %f1, %fd1;").inst->rounding, Rounding::Rn);
  EXPECT_TRUE(one("cvt.ftz.sat.f32.f32 %f1, %f2;").inst->ftz);
  EXPECT_EQ(one("cvt.rn.f16.f32 %rs1, %f1;").inst->type, DataType::F16);
  EXPECT_EQ(one("cvt.f32.f16 %f1, %rs1;").inst->type2, DataType::F16);
  EXPECT_EQ(one("cvt.rn.bf16.f32 %rs1, %f1;").inst->type, DataType::BF16);
  EXPECT_EQ(one("cvt.f32.bf16 %f1, %rs1;").inst->type2, DataType::BF16);
  EXPECT_EQ(one("cvt.rz.f32.u64 %f1, %rd1;").inst->rounding, Rounding::Rz);
  EXPECT_EQ(one("cvt.u32.u64 %r1, %tid.x;").inst->ops[1].kind, OperandKind::Special);
  auto pk = one("cvt.rn.f16x2.f32 %r1, %f1, %f2;");
  ASSERT_EQ(pk.inst->ops.size(), 3u);
  EXPECT_EQ(pk.inst->type, DataType::F16x2);
  EXPECT_NE(kernel_error("cvt.f32.s32 %f1, %r1;").find("needs a rounding modifier"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.s32.f32 %r1, %f1;").find("integer rounding modifier"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.f32.f64 %f1, %fd1;").find("narrowing float conversion"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.rn.u32.u16 %r1, %rs1;").find("takes no rounding"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.rn.f64.f32 %fd1, %f1;").find("widening"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.u32 %r1, %r2;").find("destination and a source type"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.b32.u32 %r1, %r2;").find("destination type .b32"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.u64.u32 %r1, %r2;").find("does not match operand type .u64"), std::string::npos);
  EXPECT_NE(kernel_error("cvt.ftz.f64.s32 %fd1, %r1;").find(".ftz applies only"), std::string::npos);
}

TEST(Compute, BitsAndLogic) {
  auto p = one("popc.b64 %r1, %rd1;");
  expect_regs(p, {"%r1", "%rd1"});
  EXPECT_EQ(one("clz.b32 %r1, %r2;").inst->op, Opcode::Clz);
  auto bf = one("bfind.shiftamt.u32 %r1, %r2;");
  EXPECT_EQ(bf.inst->op, Opcode::Bfind);
  EXPECT_TRUE(bf.inst->shift_left);
  EXPECT_FALSE(one("bfind.s64 %r1, %rd2;").inst->shift_left);
  EXPECT_EQ(one("brev.b64 %rd1, %rd2;").inst->op, Opcode::Brev);
  auto bfe = one("bfe.u64 %rd1, %rd2, 8, %r3;");
  EXPECT_EQ(bfe.inst->ops.size(), 4u);
  EXPECT_EQ(bfe.inst->ops[2].imm, 8u);
  auto bfi = one("bfi.b64 %rd1, %rd2, %rd3, 32, 32;");
  EXPECT_EQ(bfi.inst->ops.size(), 5u);
  EXPECT_EQ(bfi.inst->ops[4].imm, 32u);
  auto prmt = one("prmt.b32.f4e %r1, %r2, %r3, %r4;");
  EXPECT_EQ(prmt.inst->prmt_mode, 1);
  EXPECT_EQ(one("prmt.b32 %r1, %r2, %r3, 0x5410;").inst->prmt_mode, 0);
  const char* modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(one(std::string("prmt.b32.") + modes[i] + " %r1, %r2, %r3, %r4;").inst->prmt_mode, i + 1);
  auto dp = one("dp4a.s32.u32 %r1, %r2, %r3, %r4;");
  EXPECT_EQ(dp.inst->type, DataType::S32);
  EXPECT_EQ(dp.inst->type2, DataType::U32);
  EXPECT_EQ(one("dp2a.hi.u32.u32 %r1, %r2, %r3, %r4;").inst->mul, MulMode::Hi);
  EXPECT_EQ(one("and.b32 %r1, %r2, 0xFF;").inst->op, Opcode::And);
  EXPECT_EQ(one("or.pred %p1, %p2, %p3;").inst->type, DataType::Pred);
  EXPECT_EQ(one("xor.b64 %rd1, %rd2, %rd3;").inst->op, Opcode::Xor);
  EXPECT_EQ(one("not.pred %p1, %p2;").inst->op, Opcode::Not);
  EXPECT_EQ(one("cnot.b32 %r1, %r2;").inst->op, Opcode::Cnot);
  auto lop = one("lop3.b32 %r1, %r2, %r3, %r4, 0x96;");
  EXPECT_EQ(lop.inst->lop3_lut, 0x96);
  ASSERT_EQ(lop.inst->ops.size(), 5u);
  EXPECT_EQ(lop.inst->ops[4].kind, OperandKind::Imm);
  EXPECT_EQ(one("shl.b64 %rd1, %rd2, %r3;").inst->ops[2].reg, one("shl.b64 %rd1, %rd2, %r3;").reg("%r3"));
  EXPECT_EQ(one("shr.s32 %r1, %r2, 31;").inst->type, DataType::S32);
  auto shf = one("shf.l.wrap.b32 %r1, %r2, %r3, %r4;");
  EXPECT_TRUE(shf.inst->shift_left);
  EXPECT_FALSE(shf.inst->shift_clamp);
  auto shfr = one("shf.r.clamp.b32 %r1, %r2, %r3, 3;");
  EXPECT_FALSE(shfr.inst->shift_left);
  EXPECT_TRUE(shfr.inst->shift_clamp);
  EXPECT_NE(kernel_error("lop3.b32 %r1, %r2, %r3, %r4, %r5;").find("not allowed here"), std::string::npos);
  EXPECT_NE(kernel_error("lop3.b32 %r1, %r2, %r3, %r4, 256;").find("0..255"), std::string::npos);
  EXPECT_NE(kernel_error("shf.b32 %r1, %r2, %r3, %r4;").find("direction"), std::string::npos);
  EXPECT_NE(kernel_error("shf.l.b32 %r1, %r2, %r3, %r4;").find("mode"), std::string::npos);
  EXPECT_NE(kernel_error("shl.u32 %r1, %r2, 1;").find("does not support type .u32"), std::string::npos);
  EXPECT_NE(kernel_error("popc.u32 %r1, %r2;").find("does not support"), std::string::npos);
  EXPECT_NE(kernel_error("dp4a.u32 %r1, %r2, %r3, %r4;").find("two types"), std::string::npos);
  EXPECT_NE(kernel_error("cnot.pred %p1, %p2;").find("does not support"), std::string::npos);
  EXPECT_EQ(one("and.pred %p1, %p2, 1;").inst->ops[2].imm, 1u);
  EXPECT_EQ(one("mov.pred %p1, -1;").inst->ops[1].imm, 1u);  // nvcc -G: non-zero is true
  EXPECT_EQ(one("mov.pred %p1, 0;").inst->ops[1].imm, 0u);
  EXPECT_NE(kernel_error("mov.pred %p1, 1.0;").find("predicate"), std::string::npos);
}

TEST(Compute, Comparisons) {
  auto s = one("setp.lt.s32 %p1, %r1, 10;");
  EXPECT_EQ(s.inst->op, Opcode::Setp);
  EXPECT_EQ(s.inst->cmp, CmpOp::Lt);
  EXPECT_EQ(s.inst->type, DataType::S32);
  ASSERT_EQ(s.inst->ops.size(), 3u);
  EXPECT_FALSE(s.inst->dual_dst);
  auto d = one("setp.gtu.and.ftz.f32 %p1|%p2, %f1, %f2, !%p3;");
  EXPECT_TRUE(d.inst->dual_dst);
  EXPECT_EQ(d.inst->boolop, BoolOp::And);
  EXPECT_TRUE(d.inst->ftz);
  ASSERT_EQ(d.inst->ops.size(), 5u);
  EXPECT_EQ(d.inst->ops[0].reg, d.reg("%p1"));
  EXPECT_EQ(d.inst->ops[1].reg, d.reg("%p2"));
  EXPECT_EQ(d.inst->ops[4].reg, d.reg("%p3"));
  EXPECT_TRUE(d.inst->ops[4].negate);
  for (const char* c : {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"})
    one(std::string("setp.") + c + ".u32 %p1, %r1, %r2;");
  for (const char* c : {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"})
    one(std::string("setp.") + c + ".f64 %p1, %fd1, %fd2;");
  EXPECT_EQ(one("setp.eq.b16 %p1, %rs1, 1;").inst->type, DataType::B16);
  EXPECT_EQ(one("setp.ne.or.s64 %p1, %rd1, %rd2, %p2;").inst->boolop, BoolOp::Or);
  EXPECT_EQ(one("setp.ne.xor.s64 %p1, %rd1, %rd2, %p2;").inst->boolop, BoolOp::Xor);
  auto set = one("set.gt.and.u32.f32 %r1, %f1, %f2, %p1;");
  EXPECT_EQ(set.inst->op, Opcode::Set);
  EXPECT_EQ(set.inst->type, DataType::U32);
  EXPECT_EQ(set.inst->type2, DataType::F32);
  ASSERT_EQ(set.inst->ops.size(), 4u);
  auto selp = one("selp.f32 %f1, 0f3F800000, %f2, %p1;");
  EXPECT_EQ(selp.inst->ops[1].imm, 0x3F800000u);
  EXPECT_EQ(selp.inst->ops[3].reg, selp.reg("%p1"));
  auto slct = one("slct.ftz.f32.f32 %f1, %f2, %f3, %f4;");
  EXPECT_EQ(slct.inst->type2, DataType::F32);
  auto slcti = one("slct.u32.s32 %r1, %r2, %r3, -1;");
  EXPECT_EQ(slcti.inst->type, DataType::U32);
  EXPECT_EQ(slcti.inst->type2, DataType::S32);
  EXPECT_NE(kernel_error("setp.lo.s32 %p1, %r1, %r2;").find("comparison not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("setp.lt.b32 %p1, %r1, %r2;").find("comparison not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("setp.equ.s32 %p1, %r1, %r2;").find("comparison not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("setp.s32 %p1, %r1, %r2;").find("needs a comparison"), std::string::npos);
  EXPECT_NE(kernel_error("setp.eq.s32 %r1, %r1, %r2;").find("does not match operand type .pred"), std::string::npos);
  EXPECT_NE(kernel_error("setp.eq.and.s32 %p1, %r1, %r2;").find("expects 4 operands"), std::string::npos);
  EXPECT_NE(kernel_error("setp.eq.s32 %p1, %r1, !%r2;").find("'!' is not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("selp.b32 %r1, %r2, %r3, !%p1;").find("'!' is not allowed"), std::string::npos);
  EXPECT_NE(kernel_error("add.s32 %r1|%r2, %r3, %r4;").find("dual destination"), std::string::npos);
  EXPECT_NE(kernel_error("set.eq.b32.s32 %r1, %r2, %r3;").find("set destination type"), std::string::npos);
  EXPECT_NE(kernel_error("slct.u32.u32 %r1, %r2, %r3, %r4;").find("selector type"), std::string::npos);
}

TEST(Compute, GuardsLocAndText) {
  auto m = parse_kernel("  @%p1 add.s32 %r1, %r2, 1;\n  @!%p2   bra.uni \t $L1;\n$L1:\n  mov.u32 %r1, 0; // c\n");
  const Function& k = m->functions[0];
  const Instruction& a = k.insts[0];
  EXPECT_TRUE(a.has_guard);
  EXPECT_FALSE(a.guard_negated);
  EXPECT_EQ(k.regs[a.guard_reg].name, "%p1");
  EXPECT_EQ(a.text, "@%p1 add.s32 %r1, %r2, 1");
  EXPECT_EQ(a.loc.line, 18u);
  EXPECT_EQ(a.loc.column, 8u);
  const Instruction& b = k.insts[1];
  EXPECT_TRUE(b.guard_negated);
  EXPECT_TRUE(b.uni);
  EXPECT_EQ(b.text, "@!%p2 bra.uni $L1");
  EXPECT_EQ(b.ops[0].target, 2u);
  EXPECT_EQ(k.insts[2].text, "mov.u32 %r1, 0");
  EXPECT_NE(kernel_error("@%r1 ret;").find("guard is not a .pred"), std::string::npos);
  EXPECT_NE(kernel_error("@%q ret;").find("undefined guard predicate"), std::string::npos);
  EXPECT_NE(kernel_error("add.s32 %r1, %r2, 1").find("expected ';'"), std::string::npos);
}
