// f16 / bf16 arithmetic (scalar and packed x2): round-to-nearest-even ties,
// fused multiply-add, overflow, subnormals, .ftz/.sat/.relu, min/max rules.
// f16: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200; bf16: 1.0 = 0x3F80.
#include <gtest/gtest.h>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

TEST(AluHalf, AddF16) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16), {0x3C00, 0x4000}), 0x4200u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16).rnd(Rounding::Rn), {0x3C00, 0x1000}), 0x3C00u);  // 1 + 2^-11: tie
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16), {0x3C00, 0x1200}), 0x3C01u);  // 1 + 1.5*2^-11: up
  EXPECT_EQ(run(I(Opcode::Sub, DataType::F16), {0x4200, 0x3C00}), 0x4000u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16).sat(), {0x3A00, 0x3800}), 0x3C00u);  // 0.75 + 0.5 -> 1.0
}

TEST(AluHalf, MulF16OverflowAndSubnormals) {
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F16), {0x5C00, 0x5C00}), 0x7C00u);  // 256 * 256 -> inf
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F16), {0x0400, 0x3800}), 0x0200u);  // 2^-14 * 0.5 = 2^-15
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F16).ftz(), {0x0400, 0x3800}), 0u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16).ftz(), {0x0001, 0x3C00}), 0x3C00u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16), {0x7C00, 0xFC00}), 0x7FFFu);  // inf - inf: canonical NaN
}

TEST(AluHalf, FmaF16IsFused) {
  // a = b = 1 + 2^-6, c = -(1 + 2^-5): a*b + c = 2^-12 (an unfused product rounds to 1 + 2^-5)
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F16).rnd(Rounding::Rn), {0x3C10, 0x3C10, 0xBC20}), 0x0C00u);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F16, "fma.rn.relu.f16 %h1, %h2, %h3, %h4;").rnd(Rounding::Rn),
                {0x3C00, 0xC000, 0}),
            0u);  // 1 * -2 + 0 -> relu -> +0
}

TEST(AluHalf, Bf16) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::BF16).rnd(Rounding::Rn), {0x3F80, 0x3B80}), 0x3F80u);  // tie -> even
  EXPECT_EQ(run(I(Opcode::Add, DataType::BF16).rnd(Rounding::Rn), {0x3F80, 0x3BC0}), 0x3F81u);
  // a = b = 1 + 2^-4, c = -(1 + 2^-3): fused result 2^-8
  EXPECT_EQ(run(I(Opcode::Fma, DataType::BF16).rnd(Rounding::Rn), {0x3F88, 0x3F88, 0xBF90}), 0x3B80u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::BF16).rnd(Rounding::Rn), {0x4000, 0x4040}), 0x40C0u);  // 2 * 3 = 6
}

TEST(AluHalf, PackedX2) {
  // {hi 1.0, lo 2.0} + {hi 1.0, lo 1.0} = {hi 2.0, lo 3.0}
  EXPECT_EQ(run(I(Opcode::Add, DataType::F16x2), {0x3C004000, 0x3C003C00}), 0x40004200u);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F16x2).rnd(Rounding::Rn), {0x40003C00, 0x40004000, 0x3C003C00}),
            0x45004200u);  // {2*2+1, 1*2+1} = {5.0, 3.0}
  EXPECT_EQ(run(I(Opcode::Neg, DataType::BF16x2), {0x3F80BF80}), 0xBF803F80u);
}

TEST(AluHalf, NegAbsMinMax) {
  EXPECT_EQ(run(I(Opcode::Neg, DataType::F16), {0x3C00}), 0xBC00u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F16), {0xBC00}), 0x3C00u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F16).ftz(), {0x8001}), 0u);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F16), {0x7E00, 0x3C00}), 0x3C00u);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F16, "min.NaN.f16 %h1, %h2, %h3;"), {0x7E00, 0x3C00}), 0x7FFFu);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F16), {0x8000, 0x0000}), 0x0000u);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F16), {0x0000, 0x8000}), 0x8000u);
  EXPECT_EQ(run(I(Opcode::Max, DataType::BF16), {0xBF80, 0x3F80}), 0x3F80u);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F16x2), {0x3C004000, 0x40003C00}), 0x40004000u);
}

TEST(AluHalf, Ex2Tanh) {
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F16).approx(), {0x3C00}), 0x4000u);  // 2^1
  EXPECT_EQ(run(I(Opcode::Tanh, DataType::F16).approx(), {0}), 0u);
  EXPECT_EQ(run(I(Opcode::Ex2, DataType::F16x2).approx(), {0x3C000000}), 0x40003C00u);  // {2^1, 2^0}
}

}  // namespace
}  // namespace simtlm::alu_test
