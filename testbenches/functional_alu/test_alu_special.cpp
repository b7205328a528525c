// rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh and testp: IEEE-exact cases with
// known bit patterns, the special-value tables of the manual, and the accuracy
// bounds the manual gives for the .approx forms.
#include <gtest/gtest.h>

#include <cmath>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

const uint64_t kInf32 = 0x7F800000u, kNegInf32 = 0xFF800000u;

TEST(AluSpecial, RcpIeee) {
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).rnd(Rounding::Rn), {f32(3.0f)}), 0x3EAAAAABu);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).rnd(Rounding::Rz), {f32(3.0f)}), 0x3EAAAAAAu);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).rnd(Rounding::Rn), {0}), kInf32);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).rnd(Rounding::Rn), {0x80000000u}), kNegInf32);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).rnd(Rounding::Rn), {kInf32}), 0u);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F64).rnd(Rounding::Rn), {f64(4.0)}), f64(0.25));
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F64).rnd(Rounding::Rp), {f64(3.0)}), 0x3FD5555555555556ull);
}

TEST(AluSpecial, RcpApprox) {
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).approx(), {f32(2.0f)}), f32(0.5f));
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F32).approx().ftz(), {0x00000001u}), kInf32);
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F64).approx().ftz(), {f64(2.0)}), f64(0.5));
  EXPECT_EQ(run(I(Opcode::Rcp, DataType::F64).approx().ftz(), {0x8000000000000001ull}), 0xFFF0000000000000ull);
}

TEST(AluSpecial, SqrtIeee) {
  // sqrt(2): f32 0x3FB504F3 lies below the true value, f64 0x3FF6A09E667F3BCD above it.
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).rnd(Rounding::Rn), {f32(2.0f)}), 0x3FB504F3u);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).rnd(Rounding::Rz), {f32(2.0f)}), 0x3FB504F3u);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).rnd(Rounding::Rp), {f32(2.0f)}), 0x3FB504F4u);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F64).rnd(Rounding::Rn), {f64(2.0)}), 0x3FF6A09E667F3BCDull);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F64).rnd(Rounding::Rz), {f64(2.0)}), 0x3FF6A09E667F3BCCull);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F64).rnd(Rounding::Rm), {f64(2.0)}), 0x3FF6A09E667F3BCCull);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).rnd(Rounding::Rn), {f32(-1.0f)}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).rnd(Rounding::Rn), {0x80000000u}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).approx(), {kInf32}), kInf32);
  EXPECT_EQ(run(I(Opcode::Sqrt, DataType::F32).approx(), {f32(16.0f)}), f32(4.0f));
}

TEST(AluSpecial, Rsqrt) {
  EXPECT_EQ(run(I(Opcode::Rsqrt, DataType::F32).approx(), {f32(4.0f)}), f32(0.5f));
  EXPECT_EQ(run(I(Opcode::Rsqrt, DataType::F32).approx(), {0}), kInf32);
  EXPECT_EQ(run(I(Opcode::Rsqrt, DataType::F32).approx(), {0x80000000u}), kNegInf32);
  EXPECT_EQ(run(I(Opcode::Rsqrt, DataType::F32).approx(), {kInf32}), 0u);
  EXPECT_TRUE(std::isnan(as_f32(run(I(Opcode::Rsqrt, DataType::F32).approx(), {f32(-1.0f)}))));
  EXPECT_EQ(run(I(Opcode::Rsqrt, DataType::F64).approx(), {f64(0.25)}), f64(2.0));
}

TEST(AluSpecial, Ex2Lg2) {
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F32).approx(), {f32(3.0f)}), f32(8.0f));
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F32).approx(), {kNegInf32}), 0u);
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F32).approx(), {kInf32}), kInf32);
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F32).approx().ftz(), {0x00000001u}), f32(1.0f));
  const float r = as_f32(run(I(Opcode::Ex2, DataType::F32).approx(), {f32(0.5f)}));
  EXPECT_NEAR(r, 1.41421356f, 1.41421356f * 0x1p-22f);
  EXPECT_EQ(run(I(Opcode::Lg2, DataType::F32).approx(), {f32(8.0f)}), f32(3.0f));
  EXPECT_EQ(run(I(Opcode::Lg2, DataType::F32).approx(), {0}), kNegInf32);
  EXPECT_EQ(run(I(Opcode::Lg2, DataType::F32).approx(), {kInf32}), kInf32);
  EXPECT_TRUE(std::isnan(as_f32(run(I(Opcode::Lg2, DataType::F32).approx(), {f32(-1.0f)}))));
}

TEST(AluSpecial, SinCosTanh) {
  EXPECT_EQ(run(I(Opcode::Sin, DataType::F32).approx(), {0}), 0u);
  EXPECT_EQ(run(I(Opcode::Sin, DataType::F32).approx(), {0x80000000u}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Cos, DataType::F32).approx(), {0}), f32(1.0f));
  EXPECT_TRUE(std::isnan(as_f32(run(I(Opcode::Sin, DataType::F32).approx(), {kInf32}))));
  const float s = as_f32(run(I(Opcode::Sin, DataType::F32).approx(), {f32(0.52359877f)}));  // pi/6
  EXPECT_NEAR(s, 0.5f, 0x1p-20f);
  EXPECT_EQ(run(I(Opcode::Tanh, DataType::F32).approx(), {0}), 0u);
  EXPECT_EQ(run(I(Opcode::Tanh, DataType::F32).approx(), {kInf32}), f32(1.0f));
  EXPECT_EQ(run(I(Opcode::Tanh, DataType::F32).approx(), {kNegInf32}), f32(-1.0f));
  EXPECT_NEAR(as_f32(run(I(Opcode::Tanh, DataType::F32).approx(), {f32(0.5f)})), 0.46211716f, 1e-3f);
}

uint64_t testp(ir::TestProp p, DataType t, uint64_t v) { return run(I(Opcode::Testp, t).testp(p), {v}); }

TEST(AluSpecial, Testp) {
  using P = ir::TestProp;
  const uint64_t nan = 0x7FC00000u;
  EXPECT_EQ(testp(P::Finite, DataType::F32, f32(1.0f)), 1u);
  EXPECT_EQ(testp(P::Finite, DataType::F32, kInf32), 0u);
  EXPECT_EQ(testp(P::Finite, DataType::F32, nan), 0u);
  EXPECT_EQ(testp(P::Infinite, DataType::F32, kNegInf32), 1u);
  EXPECT_EQ(testp(P::Infinite, DataType::F32, nan), 0u);
  EXPECT_EQ(testp(P::Number, DataType::F32, nan), 0u);
  EXPECT_EQ(testp(P::Number, DataType::F32, kInf32), 1u);
  EXPECT_EQ(testp(P::NotANumber, DataType::F32, nan), 1u);
  EXPECT_EQ(testp(P::Normal, DataType::F32, 0), 1u);  // zero counts as normal
  EXPECT_EQ(testp(P::Normal, DataType::F32, 0x80000000u), 1u);
  EXPECT_EQ(testp(P::Normal, DataType::F32, 0x00000001u), 0u);
  EXPECT_EQ(testp(P::Normal, DataType::F32, kInf32), 0u);
  EXPECT_EQ(testp(P::Subnormal, DataType::F32, 0x00000001u), 1u);
  EXPECT_EQ(testp(P::Subnormal, DataType::F32, 0), 0u);
  EXPECT_EQ(testp(P::Subnormal, DataType::F64, 0x0000000000000001ull), 1u);
  EXPECT_EQ(testp(P::NotANumber, DataType::F64, 0x7FF0000000000001ull), 1u);
}

}  // namespace
}  // namespace simtlm::alu_test
