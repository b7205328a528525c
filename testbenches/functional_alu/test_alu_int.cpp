// Integer arithmetic: expected values are hand-computed from the PTX ISA
// definitions (wrap-around, .hi/.wide halves, saturation) and the
// simtlm decisions documented in docs/ptx-support.md (division by zero).
#include <gtest/gtest.h>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

TEST(AluInt, AddWrapsAndIgnoresBitsAboveTheType) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::U32), {0xFFFFFFFFu, 1}), 0u);
  // Garbage above bit 31 of a 32-bit source is ignored.
  EXPECT_EQ(run(I(Opcode::Add, DataType::U32), {0xABCD0000FFFFFFFFull, 2}), 1u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::S16), {0x7FFF, 1}), 0x8000u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::U64), {~0ull, 1}), 0u);
}

TEST(AluInt, AddSubSaturateS32) {
  EXPECT_EQ(run(I(Opcode::Add, DataType::S32).sat(), {0x7FFFFFFF, 1}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Add, DataType::S32).sat(), {0x80000000u, 0xFFFFFFFFu}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Add, DataType::S32).sat(), {5, 0xFFFFFFFDu}), 2u);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::S32).sat(), {0x80000000u, 1}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::S32).sat(), {0x7FFFFFFF, 0xFFFFFFFFu}), 0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::S32), {5, 7}), 0xFFFFFFFEu);
  EXPECT_EQ(run(I(Opcode::Sub, DataType::U64), {0, 1}), ~0ull);
}

TEST(AluInt, MulLoAndHi32) {
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U32).mul(MulMode::Lo), {0x10000, 0x10000}), 0u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U32).mul(MulMode::Lo), {0xFFFFFFFFu, 0xFFFFFFFFu}), 1u);
  // 0xFFFFFFFF^2 = 0xFFFFFFFE_00000001
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U32).mul(MulMode::Hi), {0xFFFFFFFFu, 0xFFFFFFFFu}), 0xFFFFFFFEu);
  // signed: (-1)(-1) = 1 -> hi 0; (-2)(3) = -6 -> hi all ones; INT_MIN^2 = 2^62 -> hi 2^30
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S32).mul(MulMode::Hi), {0xFFFFFFFFu, 0xFFFFFFFFu}), 0u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S32).mul(MulMode::Hi), {0xFFFFFFFEu, 3}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S32).mul(MulMode::Hi), {0x80000000u, 0x80000000u}), 0x40000000u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S32).mul(MulMode::Lo), {0xFFFFFFFEu, 3}), 0xFFFFFFFAu);
}

TEST(AluInt, MulWide) {
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S32).mul(MulMode::Wide), {0xFFFFFFFEu, 3}), 0xFFFFFFFFFFFFFFFAull);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U32).mul(MulMode::Wide), {0xFFFFFFFFu, 0xFFFFFFFFu}),
            0xFFFFFFFE00000001ull);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S16).mul(MulMode::Wide), {0x8000, 0x8000}), 0x40000000u);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S16).mul(MulMode::Wide), {0xFFFF, 2}), 0xFFFFFFFEu);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U16).mul(MulMode::Wide), {0xFFFF, 0xFFFF}), 0xFFFE0001u);
}

TEST(AluInt, MulHi64) {
  // (2^64-1)^2 = 2^128 - 2^65 + 1 -> high word 2^64 - 2
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U64).mul(MulMode::Hi), {~0ull, ~0ull}), 0xFFFFFFFFFFFFFFFEull);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S64).mul(MulMode::Hi), {~0ull, 1}), ~0ull);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::S64).mul(MulMode::Hi), {1ull << 63, 1ull << 63}), 1ull << 62);
  EXPECT_EQ(run(I(Opcode::Mul, DataType::U64).mul(MulMode::Lo), {~0ull, ~0ull}), 1u);
}

TEST(AluInt, Mad) {
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Lo), {3, 4, 5}), 17u);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Lo), {0xFFFFFFFDu, 4, 5}), 0xFFFFFFF9u);
  // hi(0xFFFFFFFF^2) = 0xFFFFFFFE, + 3 wraps to 1
  EXPECT_EQ(run(I(Opcode::Mad, DataType::U32).mul(MulMode::Hi), {0xFFFFFFFFu, 0xFFFFFFFFu, 3}), 1u);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::U32).mul(MulMode::Wide), {0xFFFFFFFFu, 2, 1}), 0x1FFFFFFFFull);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Wide), {0xFFFFFFFFu, 2, 1}), ~0ull);
  // hi((2^31-1)^2) = 0x3FFFFFFF; + 0x7FFFFFFF overflows -> INT_MAX with .sat
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Hi).sat(), {0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF}),
            0x7FFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Hi), {0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF}),
            0xBFFFFFFEu);
  // hi((-2^31)(2^31-1)) = hi(-2^62 + 2^31) = 0xC0000000; + INT_MIN saturates low
  EXPECT_EQ(run(I(Opcode::Mad, DataType::S32).mul(MulMode::Hi).sat(), {0x80000000u, 0x7FFFFFFF, 0x80000000u}),
            0x80000000u);
}

TEST(AluInt, Mul24AndMad24) {
  // (2^24-1)^2 = 0xFFFFFE000001: lo = 0xFE000001, hi = bits 47..16 = 0xFFFFFE00
  EXPECT_EQ(run(I(Opcode::Mul24, DataType::U32).mul(MulMode::Lo), {0x00FFFFFF, 0x00FFFFFF}), 0xFE000001u);
  EXPECT_EQ(run(I(Opcode::Mul24, DataType::U32).mul(MulMode::Hi), {0x00FFFFFF, 0x00FFFFFF}), 0xFFFFFE00u);
  // bits 31..24 of the operands are ignored
  EXPECT_EQ(run(I(Opcode::Mul24, DataType::U32).mul(MulMode::Lo), {0xFF000002u, 0x12000003u}), 6u);
  // .s32: 0x00FFFFFF is -1 as a 24-bit value
  EXPECT_EQ(run(I(Opcode::Mul24, DataType::S32).mul(MulMode::Lo), {0x00FFFFFF, 2}), 0xFFFFFFFEu);
  EXPECT_EQ(run(I(Opcode::Mul24, DataType::S32).mul(MulMode::Hi), {0x00FFFFFF, 2}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Mad24, DataType::U32).mul(MulMode::Lo), {2, 3, 4}), 10u);
}

TEST(AluInt, Sad) {
  EXPECT_EQ(run(I(Opcode::Sad, DataType::S32), {0xFFFFFFFBu, 3, 10}), 18u);  // |-5-3| + 10
  EXPECT_EQ(run(I(Opcode::Sad, DataType::U32), {3, 5, 1}), 3u);
  EXPECT_EQ(run(I(Opcode::Sad, DataType::U32), {0, 0xFFFFFFFFu, 1}), 0u);  // wraps
  EXPECT_EQ(run(I(Opcode::Sad, DataType::S16), {0x8000, 0x7FFF, 0}), 0xFFFFu);
}

TEST(AluInt, DivisionIncludingZeroAndOverflow) {
  EXPECT_EQ(run(I(Opcode::Div, DataType::U32), {7, 2}), 3u);
  EXPECT_EQ(run(I(Opcode::Div, DataType::U32), {7, 0}), 0xFFFFFFFFu);  // simtlm: all ones
  EXPECT_EQ(run(I(Opcode::Div, DataType::U64), {7, 0}), ~0ull);
  EXPECT_EQ(run(I(Opcode::Div, DataType::S32), {0xFFFFFFF9u, 2}), 0xFFFFFFFDu);  // -7/2 = -3
  EXPECT_EQ(run(I(Opcode::Div, DataType::S32), {0x80000000u, 0xFFFFFFFFu}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Div, DataType::S32), {5, 0}), 0xFFFFFFFFu);  // simtlm: -1
  EXPECT_EQ(run(I(Opcode::Div, DataType::S16), {0x8000, 0xFFFF}), 0x8000u);
  EXPECT_EQ(run(I(Opcode::Div, DataType::S64), {1ull << 63, ~0ull}), 1ull << 63);
}

TEST(AluInt, Remainder) {
  EXPECT_EQ(run(I(Opcode::Rem, DataType::S32), {0xFFFFFFF9u, 2}), 0xFFFFFFFFu);  // -7 % 2 = -1
  EXPECT_EQ(run(I(Opcode::Rem, DataType::S32), {7, 0xFFFFFFFEu}), 1u);            // 7 % -2 = 1
  EXPECT_EQ(run(I(Opcode::Rem, DataType::S32), {0x80000000u, 0xFFFFFFFFu}), 0u);
  EXPECT_EQ(run(I(Opcode::Rem, DataType::U32), {7, 0}), 7u);  // simtlm: dividend
  EXPECT_EQ(run(I(Opcode::Rem, DataType::S32), {0xFFFFFFF9u, 0}), 0xFFFFFFF9u);
  EXPECT_EQ(run(I(Opcode::Rem, DataType::U64), {10, 3}), 1u);
}

TEST(AluInt, AbsNeg) {
  EXPECT_EQ(run(I(Opcode::Abs, DataType::S32), {0xFFFFFFFBu}), 5u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::S32), {0x80000000u}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Abs, DataType::S16), {0xFFFF}), 1u);
  EXPECT_EQ(run(I(Opcode::Neg, DataType::S32), {5}), 0xFFFFFFFBu);
  EXPECT_EQ(run(I(Opcode::Neg, DataType::S64), {1ull << 63}), 1ull << 63);
  EXPECT_EQ(run(I(Opcode::Neg, DataType::S16), {1}), 0xFFFFu);
}

TEST(AluInt, MinMax) {
  EXPECT_EQ(run(I(Opcode::Min, DataType::S32), {0xFFFFFFFFu, 1}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Min, DataType::U32), {0xFFFFFFFFu, 1}), 1u);
  EXPECT_EQ(run(I(Opcode::Max, DataType::S32), {0xFFFFFFFFu, 1}), 1u);
  EXPECT_EQ(run(I(Opcode::Max, DataType::U16), {0xFFFF, 1}), 0xFFFFu);
  EXPECT_EQ(run(I(Opcode::Max, DataType::S64), {~0ull, 0x8000000000000000ull}), ~0ull);
  EXPECT_EQ(run(I(Opcode::Max, DataType::S32, "max.relu.s32 %r1, %r2, %r3;"), {0xFFFFFFFBu, 0xFFFFFFFDu}), 0u);
  EXPECT_EQ(run(I(Opcode::Max, DataType::S32, "max.relu.s32 %r1, %r2, %r3;"), {7, 0xFFFFFFFDu}), 7u);
}

}  // namespace
}  // namespace simtlm::alu_test
