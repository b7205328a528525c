// select_alu contract: nullptr for non-ALU opcodes, a precise Ptx error for
// unsupported forms, and kernels that touch only the lanes in `mask`.
#include <gtest/gtest.h>

#include <string>

#include "alu_test_util.h"
#include "simtlm/error.h"

namespace simtlm::alu_test {
namespace {

TEST(AluSelect, NonAluOpcodesReturnNull) {
  for (Opcode op : {Opcode::Ld, Opcode::St, Opcode::Bra, Opcode::Bar, Opcode::Atom, Opcode::Shfl,
                    Opcode::Ret, Opcode::Exit, Opcode::Vote}) {
    EXPECT_EQ(functional::select_alu(I(op, DataType::U32).inst), nullptr);
  }
}

void expect_unsupported(const I& b, const std::string& text) {
  try {
    functional::select_alu(b.inst);
    ADD_FAILURE() << "no error for '" << text << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    EXPECT_EQ(std::string(e.what()), "line 42: unsupported instruction form '" + text + "'");
  }
}

TEST(AluSelect, UnsupportedFormsThrowWithLine) {
  const std::string t1 = "add.sat.u32 %r1, %r2, %r3;";
  expect_unsupported(I(Opcode::Add, DataType::U32, t1).sat().line(42), t1);
  const std::string t2 = "mul.wide.u64 %rd1, %rd2, %rd3;";
  expect_unsupported(I(Opcode::Mul, DataType::U64, t2).mul(MulMode::Wide).line(42), t2);
  const std::string t3 = "cvt.s32.f32 %r1, %f1;";  // float -> int needs .rni/.rzi/.rmi/.rpi
  expect_unsupported(I(Opcode::Cvt, DataType::S32, t3).t2(DataType::F32).line(42), t3);
  const std::string t4 = "cvt.f32.f64 %f1, %fd1;";  // narrowing needs a rounding modifier
  expect_unsupported(I(Opcode::Cvt, DataType::F32, t4).t2(DataType::F64).line(42), t4);
  const std::string t5 = "abs.u32 %r1, %r2;";
  expect_unsupported(I(Opcode::Abs, DataType::U32, t5).line(42), t5);
  const std::string t6 = "add.ftz.f64 %fd1, %fd2, %fd3;";
  expect_unsupported(I(Opcode::Add, DataType::F64, t6).ftz().line(42), t6);
  const std::string t7 = "lop3.b64 %rd1, %rd2, %rd3, %rd4, 0x96;";
  expect_unsupported(I(Opcode::Lop3, DataType::B64, t7).line(42), t7);
}

TEST(AluSelect, InactiveLanesAreUntouched) {
  const ir::Instruction inst = I(Opcode::Add, DataType::U32).inst;
  functional::AluKernel k = functional::select_alu(inst);
  uint64_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  uint64_t d[4] = {0xAA, 0xBB, 0xCC, 0xDD};
  functional::AluArgs args;
  args.inst = &inst;
  args.dst[0] = d;
  args.src[0] = a;
  args.src[1] = b;
  args.mask = 0b0101;
  args.width = 4;
  k(args);
  EXPECT_EQ(d[0], 11u);
  EXPECT_EQ(d[1], 0xBBu);
  EXPECT_EQ(d[2], 33u);
  EXPECT_EQ(d[3], 0xDDu);
}

TEST(AluSelect, SixtyFourLaneWarpAndInPlaceUpdate) {
  const ir::Instruction inst = I(Opcode::Fma, DataType::F32).rnd(Rounding::Rz).inst;
  functional::AluKernel k = functional::select_alu(inst);
  uint64_t x[64], y[64];
  for (unsigned i = 0; i < 64; ++i) {
    x[i] = f32(static_cast<float>(i));
    y[i] = f32(2.0f);
  }
  functional::AluArgs args;
  args.inst = &inst;
  args.dst[0] = x;  // d aliases a: x = x * 2 + x
  args.src[0] = x;
  args.src[1] = y;
  args.src[2] = x;
  args.mask = 0x8000000000000001ull;
  args.width = 64;
  k(args);
  EXPECT_EQ(x[0], f32(0.0f));
  EXPECT_EQ(x[63], f32(189.0f));
  EXPECT_EQ(x[62], f32(62.0f));  // inactive
}

TEST(AluSelect, FmaRnSparseAndDenseMasks) {
  // fma.rn.f32 may take the host-FMA kernel; check both lane-loop shapes.
  const ir::Instruction inst = I(Opcode::Fma, DataType::F32).rnd(Rounding::Rn).inst;
  functional::AluKernel k = functional::select_alu(inst);
  for (uint64_t mask : {0x0000000000000007ull, 0x8000000000000005ull}) {
    uint64_t a[64], b[64], c[64], d[64];
    for (unsigned i = 0; i < 64; ++i) {
      a[i] = 0x3F800800u;  // 1 + 2^-12
      b[i] = 0x3F800800u;
      c[i] = 0xBF801000u;  // -(1 + 2^-11)
      d[i] = 7;
    }
    functional::AluArgs args;
    args.inst = &inst;
    args.dst[0] = d;
    args.src[0] = a;
    args.src[1] = b;
    args.src[2] = c;
    args.mask = mask;
    args.width = 64;
    k(args);
    for (unsigned i = 0; i < 64; ++i) {
      EXPECT_EQ(d[i], ((mask >> i) & 1) != 0 ? 0x33800000u : 7u) << "lane " << i;  // 2^-24, fused
    }
  }
}

TEST(AluSelect, SetpWithSinkDestinations) {
  // setp p|_ : only dst[0]; setp _|q : only dst[1]
  const ir::Instruction inst = I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).inst;
  functional::AluKernel k = functional::select_alu(inst);
  uint64_t a = 1, b = 2, q = 9;
  functional::AluArgs args;
  args.inst = &inst;
  args.dst[1] = &q;
  args.src[0] = &a;
  args.src[1] = &b;
  args.mask = 1;
  k(args);
  EXPECT_EQ(q, 0u);
}

}  // namespace
}  // namespace simtlm::alu_test
