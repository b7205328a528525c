// setp / set / slct: integer signedness, IEEE ordered/unordered comparisons with
// NaN, the BoolOp combine and the dual destination q = !(a cmp b) BOOLOP c.
#include <gtest/gtest.h>

#include <limits>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

const uint64_t kNaN32 = 0x7FC00000u;
const uint64_t kNaN64 = 0x7FF8000000000000ull;

uint64_t setp(CmpOp c, DataType t, uint64_t a, uint64_t b) {
  return run(I(Opcode::Setp, t).cmp(c), {a, b});
}

TEST(AluCompare, SetpIntegerSignedness) {
  EXPECT_EQ(setp(CmpOp::Lt, DataType::S32, 0xFFFFFFFFu, 1), 1u);
  EXPECT_EQ(setp(CmpOp::Lt, DataType::U32, 0xFFFFFFFFu, 1), 0u);
  EXPECT_EQ(setp(CmpOp::Lo, DataType::U32, 1, 0xFFFFFFFFu), 1u);
  EXPECT_EQ(setp(CmpOp::Hi, DataType::U32, 2, 1), 1u);
  EXPECT_EQ(setp(CmpOp::Hs, DataType::U32, 1, 1), 1u);
  EXPECT_EQ(setp(CmpOp::Ls, DataType::U32, 2, 1), 0u);
  EXPECT_EQ(setp(CmpOp::Ge, DataType::S64, 0x8000000000000000ull, 0), 0u);
  EXPECT_EQ(setp(CmpOp::Gt, DataType::S16, 0x7FFF, 0x8000), 1u);
  EXPECT_EQ(setp(CmpOp::Eq, DataType::B32, 0xFFFFFFFF00000005ull, 5), 1u);  // bits above 31 ignored
  EXPECT_EQ(setp(CmpOp::Ne, DataType::B64, 1, 2), 1u);
}

TEST(AluCompare, SetpDualDestination) {
  uint64_t q = 7;
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt), {1, 2}, nullptr, &q), 1u);
  EXPECT_EQ(q, 0u);
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt), {2, 1}, nullptr, &q), 0u);
  EXPECT_EQ(q, 1u);
}

TEST(AluCompare, SetpBoolOpCombine) {
  uint64_t q = 7;
  // and: t = 1, c = 0 -> p = 0, q = !1 & 0 = 0
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).boolop(BoolOp::And), {1, 2, 0}, nullptr, &q), 0u);
  EXPECT_EQ(q, 0u);
  // and: t = 1, c = 1 -> p = 1, q = 0
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).boolop(BoolOp::And), {1, 2, 1}, nullptr, &q), 1u);
  EXPECT_EQ(q, 0u);
  // or: t = 0, c = 1 -> p = 1, q = 1
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).boolop(BoolOp::Or), {2, 1, 1}, nullptr, &q), 1u);
  EXPECT_EQ(q, 1u);
  // or: t = 0, c = 0 -> p = 0, q = 1
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).boolop(BoolOp::Or), {2, 1, 0}, nullptr, &q), 0u);
  EXPECT_EQ(q, 1u);
  // xor: t = 1, c = 1 -> p = 0, q = 1
  EXPECT_EQ(run(I(Opcode::Setp, DataType::S32).cmp(CmpOp::Lt).boolop(BoolOp::Xor), {1, 2, 1}, nullptr, &q), 0u);
  EXPECT_EQ(q, 1u);
}

TEST(AluCompare, SetpFloatOrderedAndUnordered) {
  const uint64_t one = f32(1.0f);
  EXPECT_EQ(setp(CmpOp::Lt, DataType::F32, kNaN32, one), 0u);
  EXPECT_EQ(setp(CmpOp::Ltu, DataType::F32, kNaN32, one), 1u);
  EXPECT_EQ(setp(CmpOp::Ne, DataType::F32, kNaN32, one), 0u);
  EXPECT_EQ(setp(CmpOp::Neu, DataType::F32, kNaN32, one), 1u);
  EXPECT_EQ(setp(CmpOp::Eq, DataType::F32, kNaN32, kNaN32), 0u);
  EXPECT_EQ(setp(CmpOp::Equ, DataType::F32, kNaN32, kNaN32), 1u);
  EXPECT_EQ(setp(CmpOp::Equ, DataType::F32, one, f32(2.0f)), 0u);
  EXPECT_EQ(setp(CmpOp::Geu, DataType::F32, one, f32(2.0f)), 0u);
  EXPECT_EQ(setp(CmpOp::Ge, DataType::F32, f32(2.0f), one), 1u);
  EXPECT_EQ(setp(CmpOp::Eq, DataType::F32, f32(0.0f), f32(-0.0f)), 1u);
  EXPECT_EQ(setp(CmpOp::Num, DataType::F32, one, kNaN32), 0u);
  EXPECT_EQ(setp(CmpOp::Num, DataType::F32, one, one), 1u);
  EXPECT_EQ(setp(CmpOp::Nan, DataType::F32, one, kNaN32), 1u);
  EXPECT_EQ(setp(CmpOp::Gtu, DataType::F64, kNaN64, f64(1.0)), 1u);
  EXPECT_EQ(setp(CmpOp::Gt, DataType::F64, kNaN64, f64(1.0)), 0u);
  EXPECT_EQ(setp(CmpOp::Le, DataType::F64, f64(-std::numeric_limits<double>::infinity()), f64(1.0)), 1u);
}

TEST(AluCompare, SetpFtzFlushesSubnormalInputs) {
  EXPECT_EQ(run(I(Opcode::Setp, DataType::F32).cmp(CmpOp::Eq), {0x00000001, 0}), 0u);
  EXPECT_EQ(run(I(Opcode::Setp, DataType::F32).cmp(CmpOp::Eq).ftz(), {0x00000001, 0}), 1u);
}

TEST(AluCompare, SetpHalf) {
  EXPECT_EQ(setp(CmpOp::Lt, DataType::F16, 0x3C00, 0x4000), 1u);  // 1.0 < 2.0
  EXPECT_EQ(setp(CmpOp::Lt, DataType::F16, 0x7E00, 0x4000), 0u);  // NaN
  EXPECT_EQ(setp(CmpOp::Ltu, DataType::F16, 0x7E00, 0x4000), 1u);
  EXPECT_EQ(setp(CmpOp::Gt, DataType::BF16, 0x3F80, 0xBF80), 1u);  // 1.0 > -1.0
  // f16x2: p = lower halves (1.0 < 2.0), q = upper halves (2.0 < 1.0)
  uint64_t q = 7;
  EXPECT_EQ(run(I(Opcode::Setp, DataType::F16x2).cmp(CmpOp::Lt), {0x40003C00, 0x3C004000}, nullptr, &q), 1u);
  EXPECT_EQ(q, 0u);
}

TEST(AluCompare, Set) {
  EXPECT_EQ(run(I(Opcode::Set, DataType::U32).t2(DataType::S32).cmp(CmpOp::Lt), {0xFFFFFFFFu, 0}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Set, DataType::U32).t2(DataType::S32).cmp(CmpOp::Gt), {0xFFFFFFFFu, 0}), 0u);
  EXPECT_EQ(run(I(Opcode::Set, DataType::F32).t2(DataType::F32).cmp(CmpOp::Lt), {f32(-1.0f), f32(0.0f)}),
            f32(1.0f));
  EXPECT_EQ(run(I(Opcode::Set, DataType::F32).t2(DataType::F32).cmp(CmpOp::Lt), {kNaN32, f32(0.0f)}), 0u);
  EXPECT_EQ(run(I(Opcode::Set, DataType::S32).t2(DataType::F64).cmp(CmpOp::Nan), {kNaN64, f64(0.0)}),
            0xFFFFFFFFu);
  // with a boolean combine: (1 < 2) and !c(=0) -> false
  EXPECT_EQ(run(I(Opcode::Set, DataType::U32).t2(DataType::U32).cmp(CmpOp::Lt).boolop(BoolOp::And), {1, 2, 0}),
            0u);
  EXPECT_EQ(run(I(Opcode::Set, DataType::U32).t2(DataType::U32).cmp(CmpOp::Lt).boolop(BoolOp::Or), {2, 1, 1}),
            0xFFFFFFFFu);
}

TEST(AluCompare, Slct) {
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::S32), {11, 22, 0}), 11u);
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::S32), {11, 22, 0xFFFFFFFFu}), 22u);
  EXPECT_EQ(run(I(Opcode::Slct, DataType::F64).t2(DataType::S32), {f64(1.0), f64(2.0), 5}), f64(1.0));
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::F32), {11, 22, f32(-0.0f)}), 11u);
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::F32), {11, 22, kNaN32}), 22u);
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::F32), {11, 22, 0x80000001u}), 22u);  // -subnormal
  EXPECT_EQ(run(I(Opcode::Slct, DataType::U32).t2(DataType::F32).ftz(), {11, 22, 0x80000001u}), 11u);
}

}  // namespace
}  // namespace simtlm::alu_test
