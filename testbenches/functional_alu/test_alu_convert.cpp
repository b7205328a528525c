// cvt: integer widening/narrowing/saturation, int <-> float rounding on exact
// ties, float -> int saturation and NaN, float <-> float rounding (f16, bf16,
// f32, f64) incl. subnormals, overflow and NaN, integer rounding of floats,
// .ftz/.sat/.relu/.satfinite and the packed f16x2 form.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

uint64_t cvt(DataType d, DataType s, uint64_t v, Rounding r = Rounding::None, bool sat = false,
             bool ftz = false, const char* text = "") {
  I b = I(Opcode::Cvt, d, text).t2(s).rnd(r);
  if (sat) b.sat();
  if (ftz) b.ftz();
  return run(b, {v});
}

TEST(AluConvert, IntToIntExtendsByTheSourceType) {
  EXPECT_EQ(cvt(DataType::U32, DataType::U64, 0x100000005ull), 5u);
  EXPECT_EQ(cvt(DataType::S32, DataType::S8, 0x80), 0xFFFFFF80u);
  EXPECT_EQ(cvt(DataType::U32, DataType::S8, 0x80), 0xFFFFFF80u);  // source signed: sign-extend
  EXPECT_EQ(cvt(DataType::S32, DataType::U8, 0x80), 0x80u);
  EXPECT_EQ(cvt(DataType::S64, DataType::S32, 0xFFFFFFFFu), ~0ull);
  EXPECT_EQ(cvt(DataType::U64, DataType::S32, 0xFFFFFFFFu), ~0ull);
  EXPECT_EQ(cvt(DataType::U64, DataType::U32, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFull);
  EXPECT_EQ(cvt(DataType::U16, DataType::S32, 0x12345678), 0x5678u);
  // .s8 results are sign-extended to the (wider) register
  EXPECT_EQ(cvt(DataType::S8, DataType::S32, 0x1FF), ~0ull);
  EXPECT_EQ(cvt(DataType::U8, DataType::S32, 0x1FF), 0xFFu);
}

TEST(AluConvert, IntToIntSaturates) {
  EXPECT_EQ(cvt(DataType::U8, DataType::S32, 0xFFFFFFFBu, Rounding::None, true), 0u);  // -5
  EXPECT_EQ(cvt(DataType::U8, DataType::S32, 300, Rounding::None, true), 255u);
  EXPECT_EQ(cvt(DataType::S8, DataType::S32, 200, Rounding::None, true), 127u);
  EXPECT_EQ(cvt(DataType::S8, DataType::S32, 0xFFFFFF38u, Rounding::None, true), 0xFFFFFFFFFFFFFF80ull);  // -200
  EXPECT_EQ(cvt(DataType::U32, DataType::S64, ~0ull, Rounding::None, true), 0u);
  EXPECT_EQ(cvt(DataType::U32, DataType::S64, 0x100000000ull, Rounding::None, true), 0xFFFFFFFFu);
  EXPECT_EQ(cvt(DataType::S32, DataType::U32, 0x80000000u, Rounding::None, true), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(DataType::U64, DataType::S64, ~0ull, Rounding::None, true), 0u);
  EXPECT_EQ(cvt(DataType::S64, DataType::U64, ~0ull, Rounding::None, true), 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(DataType::S16, DataType::S32, 0xFFFF8000u, Rounding::None, true), 0x8000u);  // in range
}

TEST(AluConvert, IntToF32RoundingModes) {
  // 2^24 + 1 is a tie between 2^24 and 2^24 + 2 (even: 2^24)
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 16777217), 0x4B800000u);
  // 2^24 + 3 is a tie between 2^24 + 2 (odd mantissa) and 2^24 + 4 (even)
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 16777219, Rounding::Rn), 0x4B800002u);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 16777219, Rounding::Rz), 0x4B800001u);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 16777219, Rounding::Rm), 0x4B800001u);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 16777219, Rounding::Rp), 0x4B800002u);
  // -(2^24 + 1)
  const uint64_t neg = static_cast<uint32_t>(-16777217);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, neg, Rounding::Rm), 0xCB800001u);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, neg, Rounding::Rp), 0xCB800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, neg, Rounding::Rz), 0xCB800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::U64, ~0ull, Rounding::Rn), 0x5F800000u);  // 2^64
  EXPECT_EQ(cvt(DataType::F32, DataType::U64, ~0ull, Rounding::Rz), 0x5F7FFFFFu);
  EXPECT_EQ(cvt(DataType::F32, DataType::U32, 0xFFFFFFFFu, Rounding::Rn), 0x4F800000u);  // 2^32
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 5, Rounding::Rn, true), f32(1.0f));  // .sat
  EXPECT_EQ(cvt(DataType::F32, DataType::S32, 0xFFFFFFFBu, Rounding::Rn, true), 0u);
}

TEST(AluConvert, IntToF64AndF16) {
  EXPECT_EQ(cvt(DataType::F64, DataType::S64, (1ull << 53) + 1, Rounding::Rn), 0x4340000000000000ull);
  EXPECT_EQ(cvt(DataType::F64, DataType::S64, (1ull << 53) + 1, Rounding::Rp), 0x4340000000000001ull);
  EXPECT_EQ(cvt(DataType::F64, DataType::U32, 0xFFFFFFFFu), f64(4294967295.0));
  EXPECT_EQ(cvt(DataType::F64, DataType::S32, 0x80000000u), f64(-2147483648.0));
  EXPECT_EQ(cvt(DataType::F16, DataType::S32, 3, Rounding::Rn), 0x4200u);
  EXPECT_EQ(cvt(DataType::F16, DataType::S32, 65520, Rounding::Rn), 0x7C00u);  // tie past 65504 -> inf
  EXPECT_EQ(cvt(DataType::F16, DataType::S32, 70000, Rounding::Rz), 0x7BFFu);  // largest finite
  EXPECT_EQ(cvt(DataType::F16, DataType::U32, 65519, Rounding::Rn), 0x7BFFu);
}

TEST(AluConvert, IntToBf16AndHalfToInt) {
  // bf16 has 8 significant bits: between 256 and 512 the spacing is 2
  EXPECT_EQ(cvt(DataType::BF16, DataType::S32, 257, Rounding::Rn), 0x4380u);  // tie -> 256 (even)
  EXPECT_EQ(cvt(DataType::BF16, DataType::S32, 259, Rounding::Rn), 0x4382u);  // tie -> 260 (even)
  EXPECT_EQ(cvt(DataType::BF16, DataType::S32, 259, Rounding::Rz), 0x4381u);  // 258
  EXPECT_EQ(cvt(DataType::S32, DataType::F16, 0x7C00, Rounding::Rzi), 0x7FFFFFFFu);  // +inf saturates
  EXPECT_EQ(cvt(DataType::U16, DataType::BF16, 0x4780, Rounding::Rni), 0xFFFFu);    // 65536 -> max
  EXPECT_EQ(cvt(DataType::U16, DataType::BF16, 0x4380, Rounding::Rni), 256u);
}

TEST(AluConvert, FloatToIntRounding) {
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(2.5f), Rounding::Rni), 2u);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(3.5f), Rounding::Rni), 4u);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(-2.5f), Rounding::Rni), 0xFFFFFFFEu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(-2.7f), Rounding::Rzi), 0xFFFFFFFEu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(-2.1f), Rounding::Rmi), 0xFFFFFFFDu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(2.1f), Rounding::Rpi), 3u);
  EXPECT_EQ(cvt(DataType::S16, DataType::F16, 0xC100, Rounding::Rzi), 0xFFFEu);  // f16 -2.5 -> -2
  EXPECT_EQ(cvt(DataType::S64, DataType::F64, f64(-3.5), Rounding::Rni), static_cast<uint64_t>(-4));
}

TEST(AluConvert, FloatToIntSaturatesAndNaNIsZero) {
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, 0x7FC00000u, Rounding::Rzi), 0u);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(1e10f), Rounding::Rzi), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, f32(-1e10f), Rounding::Rzi), 0x80000000u);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, 0x7F800000u, Rounding::Rni), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(DataType::U32, DataType::F32, f32(-1.5f), Rounding::Rzi), 0u);
  EXPECT_EQ(cvt(DataType::U32, DataType::F32, f32(5e9f), Rounding::Rzi), 0xFFFFFFFFu);
  EXPECT_EQ(cvt(DataType::S64, DataType::F64, f64(9.3e18), Rounding::Rzi), 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(DataType::U64, DataType::F64, f64(2e19), Rounding::Rzi), ~0ull);
  EXPECT_EQ(cvt(DataType::U8, DataType::F32, f32(300.0f), Rounding::Rzi), 255u);
  EXPECT_EQ(cvt(DataType::S8, DataType::F32, f32(-200.0f), Rounding::Rzi), 0xFFFFFFFFFFFFFF80ull);
  // 2^31 - 0.5 rounds (to even) to 2^31, which saturates
  EXPECT_EQ(cvt(DataType::S32, DataType::F64, f64(2147483647.5), Rounding::Rni), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F64, f64(-2147483648.0), Rounding::Rni), 0x80000000u);
  EXPECT_EQ(cvt(DataType::U32, DataType::F64, f64(-0.0), Rounding::Rni), 0u);
}

TEST(AluConvert, FloatToIntFtz) {
  // -smallest subnormal: floor is -1, unless .ftz flushes it to -0 first
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, 0x80000001u, Rounding::Rmi), 0xFFFFFFFFu);
  EXPECT_EQ(cvt(DataType::S32, DataType::F32, 0x80000001u, Rounding::Rmi, false, true), 0u);
}

TEST(AluConvert, FloatToFloatIntegerRounding) {
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(2.5f), Rounding::Rni), f32(2.0f));
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(-0.5f), Rounding::Rni), 0x80000000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(-2.7f), Rounding::Rzi), f32(-2.0f));
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(2.7f), Rounding::Rmi), f32(2.0f));
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(2.1f), Rounding::Rpi), f32(3.0f));
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, 0x7F800000u, Rounding::Rni), 0x7F800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, 0x7FC00000u, Rounding::Rni), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(DataType::F64, DataType::F64, f64(0.5), Rounding::Rni), 0u);
  EXPECT_EQ(cvt(DataType::F64, DataType::F64, f64(1.5), Rounding::Rni), f64(2.0));
}

TEST(AluConvert, F32F64) {
  EXPECT_EQ(cvt(DataType::F64, DataType::F32, f32(0.1f)), 0x3FB99999A0000000ull);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(0.1), Rounding::Rn), 0x3DCCCCCDu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(0.1), Rounding::Rz), 0x3DCCCCCCu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(0.1), Rounding::Rm), 0x3DCCCCCCu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(0.1), Rounding::Rp), 0x3DCCCCCDu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(-0.1), Rounding::Rm), 0xBDCCCCCDu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(-0.1), Rounding::Rp), 0xBDCCCCCCu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e300), Rounding::Rn), 0x7F800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e300), Rounding::Rz), 0x7F7FFFFFu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(-1e300), Rounding::Rm), 0xFF800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(-1e300), Rounding::Rp), 0xFF7FFFFFu);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e-50), Rounding::Rn), 0u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e-50), Rounding::Rp), 1u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e-40), Rounding::Rn), 0x000116C2u);  // subnormal
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, f64(1e-40), Rounding::Rn, false, true), 0u);  // .ftz
  EXPECT_EQ(cvt(DataType::F32, DataType::F64, 0x7FF8000000000000ull, Rounding::Rn), 0x7FFFFFFFu);
}

TEST(AluConvert, F32ToF16) {
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1.0f), Rounding::Rn), 0x3C00u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(65504.0f), Rounding::Rn), 0x7BFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(65519.0f), Rounding::Rn), 0x7BFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(65520.0f), Rounding::Rn), 0x7C00u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1e6f), Rounding::Rz), 0x7BFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(-1e6f), Rounding::Rp), 0xFBFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, 0x7F800000u, Rounding::Rn), 0x7C00u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, 0x7FC00000u, Rounding::Rn), 0x7FFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, 0x80000000u, Rounding::Rn), 0x8000u);
}

TEST(AluConvert, F32ToF16RoundingAndSubnormals) {
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1p-24f), Rounding::Rn), 0x0001u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1p-25f), Rounding::Rn), 0x0000u);  // tie -> even 0
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1.8p-25f), Rounding::Rn), 0x0001u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1p-25f), Rounding::Rp), 0x0001u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1p-14f - 0x1p-25f), Rounding::Rn), 0x0400u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(0x1p-14f - 0x1p-25f), Rounding::Rz), 0x03FFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1.0f + 0x1p-11f), Rounding::Rn), 0x3C00u);  // tie
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1.0f + 0x1p-11f + 0x1p-20f), Rounding::Rn), 0x3C01u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1.0f + 0x1p-20f), Rounding::Rp), 0x3C01u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1.0f + 0x1p-20f), Rounding::Rz), 0x3C00u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(-1.0f - 0x1p-20f), Rounding::Rm), 0xBC01u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F64, f64(1.0 / 3.0), Rounding::Rn), 0x3555u);
}

TEST(AluConvert, F16ToF32IsExact) {
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0x0001), 0x33800000u);  // 2^-24
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0x7BFF), 0x477FE000u);  // 65504
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0x7C00), 0x7F800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0xFC00), 0xFF800000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0x3555), 0x3EAAA000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F16, 0x8000), 0x80000000u);
  EXPECT_TRUE(std::isnan(as_f32(cvt(DataType::F32, DataType::F16, 0x7E00))));
  EXPECT_EQ(cvt(DataType::F64, DataType::F16, 0x3C00), f64(1.0));
}

TEST(AluConvert, Bf16) {
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, f32(1.0f), Rounding::Rn), 0x3F80u);
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, f32(1.0f + 0x1p-8f), Rounding::Rn), 0x3F80u);  // tie
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, f32(1.0f + 0x1.8p-8f), Rounding::Rn), 0x3F81u);
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, f32(1.0f + 0x1.8p-8f), Rounding::Rz), 0x3F80u);
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, 0x7F7FFFFFu, Rounding::Rn), 0x7F80u);  // FLT_MAX -> inf
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, 0x7F7FFFFFu, Rounding::Rz), 0x7F7Fu);
  EXPECT_EQ(cvt(DataType::BF16, DataType::F32, 0x7FC00000u, Rounding::Rn), 0x7FFFu);
  EXPECT_EQ(cvt(DataType::F32, DataType::BF16, 0x3F81), 0x3F810000u);
}

TEST(AluConvert, SatFtzReluSatfinite) {
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(1.5f), Rounding::None, true), f32(1.0f));
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, f32(-0.5f), Rounding::None, true), 0u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, 0x7FC00000u, Rounding::None, true), 0u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, 0x80000001u, Rounding::None, false, true), 0x80000000u);
  EXPECT_EQ(cvt(DataType::F32, DataType::F32, 0x80000001u), 0x80000001u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(-3.0f), Rounding::Rn, false, false,
                "cvt.rn.relu.f16.f32 %h1, %f1;"),
            0u);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, 0x7FC00000u, Rounding::Rn, false, false,
                "cvt.rn.relu.f16.f32 %h1, %f1;"),
            0x7FFFu);
  EXPECT_EQ(cvt(DataType::F16, DataType::F32, f32(1e6f), Rounding::Rn, false, false,
                "cvt.rn.satfinite.f16.f32 %h1, %f1;"),
            0x7BFFu);
}

TEST(AluConvert, PackedF16x2) {
  // d = {cvt(a) in the upper half, cvt(b) in the lower half}
  EXPECT_EQ(run(I(Opcode::Cvt, DataType::F16x2).t2(DataType::F32).rnd(Rounding::Rn), {f32(1.0f), f32(2.0f)}),
            0x3C004000u);
  EXPECT_EQ(run(I(Opcode::Cvt, DataType::BF16x2).t2(DataType::F32).rnd(Rounding::Rn), {f32(-1.0f), f32(3.0f)}),
            0xBF804040u);
}

}  // namespace
}  // namespace simtlm::alu_test
