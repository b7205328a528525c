// f32/f64 arithmetic: rounding modes on exactly representable ties, fused
// multiply-add, .ftz/.sat, IEEE special values, min/max NaN and signed-zero rules.
// Bit patterns are derived by hand from the IEEE-754 encodings.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <limits>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

const uint64_t kOne = 0x3F800000u;           // 1.0f
const uint64_t kOnePlusUlp = 0x3F800001u;    // 1 + 2^-23
const uint64_t kHalfUlpOfOne = 0x33800000u;  // 2^-24
const uint64_t kInf32 = 0x7F800000u;

TEST(AluFloat, AddRoundingModesOnATie) {
  // 1 + 2^-24 lies exactly halfway between 1 and 1 + 2^-23.
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32), {kOne, kHalfUlpOfOne}), kOne);  // ties to even
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rn), {kOne, kHalfUlpOfOne}), kOne);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rz), {kOne, kHalfUlpOfOne}), kOne);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rm), {kOne, kHalfUlpOfOne}), kOne);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rp), {kOne, kHalfUlpOfOne}), kOnePlusUlp);
  // negative: -(1 + 2^-24)
  const uint64_t neg_one = 0xBF800000u, neg_half_ulp = 0xB3800000u;
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rm), {neg_one, neg_half_ulp}), 0xBF800001u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rp), {neg_one, neg_half_ulp}), neg_one);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rz), {neg_one, neg_half_ulp}), neg_one);
  // 1 + 3*2^-25 (above the tie) rounds up under .rn
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32), {kOne, 0x33C00000u}), kOnePlusUlp);
}

TEST(AluFloat, DirectedRoundingRestoresNearest) {
  run(I(Opcode::Add, DataType::F32).rnd(Rounding::Rz), {kOne, kHalfUlpOfOne});
  run(I(Opcode::Fma, DataType::F64).rnd(Rounding::Rp), {f64(1.0), f64(1.0), f64(1.0)});
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(AluFloat, AddF64AndSpecials) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::F64), {f64(1.5), f64(2.25)}), f64(3.75));
  // 1 + 2^-53 is a tie in f64: rn -> 1, rp -> 1 + 2^-52
  EXPECT_EQ(run(I(Opcode::Add, DataType::F64).rnd(Rounding::Rn), {f64(1.0), 0x3CA0000000000000ull}), f64(1.0));
  EXPECT_EQ(run(I(Opcode::Add, DataType::F64).rnd(Rounding::Rp), {f64(1.0), 0x3CA0000000000000ull}),
            0x3FF0000000000001ull);
  // inf + -inf = NaN, written as the canonical NaN
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32), {kInf32, 0xFF800000u}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::F64), {0x7FF0000000000000ull, 0x7FF0000000000000ull}),
            0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::F32), {f32(1.0f), f32(1.0f)}), 0u);  // +0 under .rn
  EXPECT_EQ(run(I(Opcode::Sub, DataType::F32).rnd(Rounding::Rm), {f32(1.0f), f32(1.0f)}), 0x80000000u);
}

TEST(AluFloat, SatClampsToUnitIntervalAndNaNToZero) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).sat(), {f32(0.75f), f32(0.5f)}), kOne);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).sat(), {f32(-2.0f), f32(1.0f)}), 0u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).sat(), {f32(0.25f), f32(0.5f)}), f32(0.75f));
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).sat(), {kInf32, 0xFF800000u}), 0u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32).sat(), {f32(-0.0f), f32(1.0f)}), 0u);  // -0 -> +0
}

TEST(AluFloat, FtzFlushesInputsAndResults) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32), {0x00000001, 0x00000001}), 0x00000002u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).ftz(), {0x00000001, 0x00000001}), 0u);
  // 1.5*2^-126 - 2^-126 = 2^-127: subnormal result
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32), {0x00C00000u, 0x80800000u}), 0x00400000u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::F32).ftz(), {0x00C00000u, 0x80800000u}), 0u);
  // sign-preserving: -2^-127 flushes to -0
  EXPECT_EQ(run(I(Opcode::Sub, DataType::F32).ftz(), {0x80C00000u, 0x80800000u}), 0x80000000u);
}

TEST(AluFloat, MulRounding) {
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32).rnd(Rounding::Rn), {kOnePlusUlp, kOnePlusUlp}), 0x3F800002u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32).rnd(Rounding::Rz), {kOnePlusUlp, kOnePlusUlp}), 0x3F800002u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32).rnd(Rounding::Rp), {kOnePlusUlp, kOnePlusUlp}), 0x3F800003u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F64), {f64(1.5), f64(2.0)}), f64(3.0));
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32), {f32(3.0f), f32(-4.0f)}), f32(-12.0f));
}

TEST(AluFloat, FmaIsFused) {
  // a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b + c = 2^-24 exactly; an unfused
  // mul would round a*b to 1 + 2^-11 and give 0.
  const uint64_t a = 0x3F800800u, c = 0xBF801000u;
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rn), {a, a, c}), kHalfUlpOfOne);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::F32), {a, a, c}), kHalfUlpOfOne);  // mad.f32 = fma
  EXPECT_EQ(run(I(Opcode::Mul, DataType::F32).rnd(Rounding::Rn), {a, a}), 0x3F801000u);
  // f64: a = b = 1 + 2^-27, c = -(1 + 2^-26) -> 2^-54
  const uint64_t da = 0x3FF0000002000000ull, dc = 0xBFF0000004000000ull;
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F64).rnd(Rounding::Rn), {da, da, dc}), 0x3C90000000000000ull);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::F64).rnd(Rounding::Rn), {da, da, dc}), 0x3C90000000000000ull);
}

TEST(AluFloat, FmaDirectedRoundingAndSat) {
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rn), {kOne, kOne, kHalfUlpOfOne}), kOne);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rz), {kOne, kOne, kHalfUlpOfOne}), kOne);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rp), {kOne, kOne, kHalfUlpOfOne}), kOnePlusUlp);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rm), {0xBF800000u, kOne, 0xB3800000u}), 0xBF800001u);
  EXPECT_EQ(run(I(Opcode::Fma, DataType::F32).rnd(Rounding::Rn).sat(), {f32(2.0f), kOne, 0}), kOne);
}

TEST(AluFloat, DivIeeeRounding) {
  const uint64_t three = f32(3.0f);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rn), {kOne, three}), 0x3EAAAAABu);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rz), {kOne, three}), 0x3EAAAAAAu);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rm), {kOne, three}), 0x3EAAAAAAu);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rp), {kOne, three}), 0x3EAAAAABu);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F64).rnd(Rounding::Rn), {f64(1.0), f64(3.0)}), 0x3FD5555555555555ull);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F64).rnd(Rounding::Rp), {f64(1.0), f64(3.0)}), 0x3FD5555555555556ull);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rn), {kOne, 0}), kInf32);
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).rnd(Rounding::Rn), {0, 0}), 0x7FFFFFFFu);
}

TEST(AluFloat, DivApproxAndFull) {
  const float third = 1.0f / 3.0f;
  const float approx = as_f32(run(I(Opcode::Div, DataType::F32).approx(), {kOne, f32(3.0f)}));
  const float full = as_f32(run(I(Opcode::Div, DataType::F32).full(), {kOne, f32(3.0f)}));
  // manual: max error 2 ulp
  EXPECT_LE(std::fabs(approx - third), 2 * std::nextafter(third, 1.0f) - 2 * third);
  EXPECT_LE(std::fabs(full - third), 2 * std::nextafter(third, 1.0f) - 2 * third);
  // manual: for 2^126 < |b| < 2^128 div.approx gives 0 (NaN when a is infinite)
  EXPECT_EQ(run(I(Opcode::Div, DataType::F32).approx(), {kOne, 0x7F000000u}), 0u);
  EXPECT_TRUE(std::isnan(as_f32(run(I(Opcode::Div, DataType::F32).approx(), {kInf32, 0x7F000000u}))));
}

TEST(AluFloat, AbsNegAreSignOperations) {
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F32), {f32(-0.0f)}), 0u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F32), {0xFFC00000u}), 0x7FC00000u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F32).ftz(), {0x80000001u}), 0u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::F32), {0x80000001u}), 0x00000001u);
  EXPECT_EQ(run(I(Opcode::Neg, DataType::F32), {0}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Neg, DataType::F64), {f64(2.5)}), f64(-2.5));
  EXPECT_EQ(run(I(Opcode::Neg, DataType::F32).ftz(), {0x00000001u}), 0x80000000u);
}

TEST(AluFloat, MinMaxNaNRules) {
  const uint64_t nan = 0x7FC00000u, one = f32(1.0f);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32), {nan, one}), one);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32), {one, nan}), one);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32), {nan, 0xFFC00001u}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32, "min.NaN.f32 %f1, %f2, %f3;"), {nan, one}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32, "max.NaN.f32 %f1, %f2, %f3;"), {one, nan}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32, "max.NaN.f32 %f1, %f2, %f3;"), {one, f32(2.0f)}), f32(2.0f));
  EXPECT_EQ(run(I(Opcode::Max, DataType::F64), {0x7FF8000000000000ull, f64(-3.0)}), f64(-3.0));
  // the parser records .NaN as cmp = nan
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32).cmp(CmpOp::Nan), {one, nan}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32), {f32(-1.0f), f32(2.0f)}), f32(-1.0f));
}

TEST(AluFloat, MinMaxSignedZeros) {
  const uint64_t pz = 0, nz = 0x80000000u;
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32), {pz, nz}), nz);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32), {nz, pz}), nz);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32), {pz, nz}), pz);
  EXPECT_EQ(run(I(Opcode::Max, DataType::F32), {nz, pz}), pz);
  EXPECT_EQ(run(I(Opcode::Min, DataType::F64), {0, 0x8000000000000000ull}), 0x8000000000000000ull);
  // .ftz: +subnormal flushes to +0, then min(+0, -0) = -0
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32).ftz(), {0x00000001u, nz}), nz);
  // .xorsign.abs: min(|-2|, |3|) = 2 with sign(-2) ^ sign(3)
  EXPECT_EQ(run(I(Opcode::Min, DataType::F32, "min.xorsign.abs.f32 %f1, %f2, %f3;"), {f32(-2.0f), f32(3.0f)}),
            f32(-2.0f));
}

TEST(AluFloat, Copysign) {
  // copysign d, a, b: b's magnitude with a's sign
  EXPECT_EQ(run(I(Opcode::Copysign, DataType::F32), {f32(-1.0f), f32(2.0f)}), f32(-2.0f));
  EXPECT_EQ(run(I(Opcode::Copysign, DataType::F32), {f32(1.0f), f32(-3.0f)}), f32(3.0f));
  EXPECT_EQ(run(I(Opcode::Copysign, DataType::F64), {f64(-0.0), f64(5.0)}), f64(-5.0));
}

}  // namespace
}  // namespace simtlm::alu_test
