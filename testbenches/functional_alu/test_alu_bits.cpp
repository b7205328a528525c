// Bit manipulation: popc, clz, bfind, brev, bfe, bfi, prmt, dp4a, dp2a.
// Expected values follow the manual's pseudo-code, evaluated by hand.
#include <gtest/gtest.h>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

TEST(AluBits, Popc) {
  EXPECT_EQ(run(I(Opcode::Popc, DataType::B32), {0xF0F0F0F0u}), 16u);
  EXPECT_EQ(run(I(Opcode::Popc, DataType::B32), {0xFFFFFFFF00000001ull}), 1u);
  EXPECT_EQ(run(I(Opcode::Popc, DataType::B64), {~0ull}), 64u);
  EXPECT_EQ(run(I(Opcode::Popc, DataType::B32), {0}), 0u);
}

TEST(AluBits, Clz) {
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B32), {0}), 32u);
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B32), {1}), 31u);
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B32), {0x80000000u}), 0u);
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B32), {0xFFFFFFFF00000100ull}), 23u);
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B64), {0}), 64u);
  EXPECT_EQ(run(I(Opcode::Clz, DataType::B64), {1}), 63u);
}

TEST(AluBits, Bfind) {
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32), {0}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32), {0x00010000}), 16u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32), {0x80000000u}), 31u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::S32), {0xFFFFFFFFu}), 0xFFFFFFFFu);  // -1: no non-sign bit
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::S32), {0xFFFF0000u}), 15u);          // msb 0 of negative
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::S32), {0x40000000u}), 30u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::S64), {1}), 0u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U64), {1ull << 40}), 40u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32, "bfind.shiftamt.u32 %r1, %r2;"), {0x00010000}), 15u);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32, "bfind.shiftamt.u32 %r1, %r2;"), {0}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U64, "bfind.shiftamt.u64 %r1, %rd2;"), {1}), 63u);
  // the parser records .shiftamt as shift_left
  EXPECT_EQ(run(I(Opcode::Bfind, DataType::U32).shf(true, false), {0x00010000}), 15u);
}

TEST(AluBits, Brev) {
  EXPECT_EQ(run(I(Opcode::Brev, DataType::B32), {1}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Brev, DataType::B32), {0x12345678}), 0x1E6A2C48u);
  EXPECT_EQ(run(I(Opcode::Brev, DataType::B32), {0xFFFFFFFF00000000ull}), 0u);
  EXPECT_EQ(run(I(Opcode::Brev, DataType::B64), {1}), 0x8000000000000000ull);
  EXPECT_EQ(run(I(Opcode::Brev, DataType::B64), {0x0000000000000003ull}), 0xC000000000000000ull);
}

TEST(AluBits, BfeBasicAndSigned) {
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U32), {0x12345678, 4, 8}), 0x67u);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0x000000F0, 4, 4}), 0xFFFFFFFFu);  // field 0xF, sign 1
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0x00000070, 4, 4}), 7u);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U32), {0x12345678, 0x104, 0x208}), 0x67u);  // only 8 bits of b, c
}

TEST(AluBits, BfeCornerCases) {
  // len 0 -> 0, for signed types too
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0xFFFFFFFFu, 4, 0}), 0u);
  // field running past the msb: pos 31, len 8 -> one bit; sign = a[min(38, 31)]
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U32), {0x80000000u, 31, 8}), 1u);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0x80000000u, 31, 8}), 0xFFFFFFFFu);
  // start beyond the msb: replicated sign bit (a[31]) for signed, 0 for unsigned
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0x80000000u, 40, 4}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S32), {0x7FFFFFFFu, 40, 4}), 0u);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U32), {0x80000000u, 40, 4}), 0u);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U64), {0xFF00000000000000ull, 56, 8}), 0xFFu);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::S64), {0xFF00000000000000ull, 56, 8}), ~0ull);
  EXPECT_EQ(run(I(Opcode::Bfe, DataType::U64), {~0ull, 0, 64}), ~0ull);
}

TEST(AluBits, Bfi) {
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B32), {0xF, 0, 4, 4}), 0xF0u);
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B32), {0x0, 0xFFFFFFFFu, 8, 8}), 0xFFFF00FFu);
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B32), {0xF, 0x12345678, 4, 0}), 0x12345678u);   // len 0 -> b
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B32), {0xF, 0x12345678, 32, 4}), 0x12345678u);  // pos > msb -> b
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B32), {0xAB, 0, 28, 8}), 0xB0000000u);          // clipped at msb
  EXPECT_EQ(run(I(Opcode::Bfi, DataType::B64), {1, 0, 63, 1}), 0x8000000000000000ull);
}

TEST(AluBits, PrmtDefaultMode) {
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32), {0x03020100, 0x07060504, 0x7531}), 0x07050301u);
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32), {0x03020100, 0x07060504, 0x0123}), 0x00010203u);
  // selector msb set: replicate the sign of the selected byte
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32), {0x00008000, 0, 0x0009}), 0x000000FFu);
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32), {0x00008000, 0, 0x000B}), 0x00000000u);
  // {b, a} bytes 0..7 = 44 33 22 11 BB AA 99 88; selector 4 picks b4 = 0xBB, 0xC its sign
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32), {0x11223344, 0x8899AABB, 0xCC44}), 0xFFFFBBBBu);
}

TEST(AluBits, PrmtModes) {
  // bytes of {b, a} equal their index, so each result byte names its source byte
  const uint64_t a = 0x03020100, b = 0x07060504;
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(1), {a, b, 1}), 0x04030201u);  // f4e
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(1), {a, b, 3}), 0x06050403u);
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(2), {a, b, 0}), 0x05060700u);  // b4e
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(2), {a, b, 3}), 0x00010203u);
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(3), {a, b, 2}), 0x02020202u);  // rc8
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(4), {a, b, 1}), 0x03020101u);  // ecl
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(5), {a, b, 2}), 0x02020100u);  // ecr
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(6), {a, b, 1}), 0x03020302u);  // rc16
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(6), {a, b, 5}), 0x03020302u);  // only c[1:0]
  EXPECT_EQ(run(I(Opcode::Prmt, DataType::B32).prmt(6), {a, b, 2}), 0x01000100u);
}

TEST(AluBits, Dp4a) {
  EXPECT_EQ(run(I(Opcode::Dp4a, DataType::U32).t2(DataType::U32), {0x01020304, 0x01010101, 10}), 20u);
  EXPECT_EQ(run(I(Opcode::Dp4a, DataType::S32).t2(DataType::S32), {0xFFFFFFFFu, 0x01020304, 0}), 0xFFFFFFF6u);
  EXPECT_EQ(run(I(Opcode::Dp4a, DataType::S32).t2(DataType::U32), {0xFFFFFFFFu, 0xFF000000u, 255}), 0u);
  EXPECT_EQ(run(I(Opcode::Dp4a, DataType::U32).t2(DataType::S32), {0xFF, 0xFF, 0}), 0xFFFFFF01u);
}

TEST(AluBits, Dp2a) {
  // a halves {2, 1}, b bytes {4, 3, 2, 1}
  EXPECT_EQ(run(I(Opcode::Dp2a, DataType::U32).t2(DataType::U32).mul(MulMode::Lo), {0x00020001, 0x04030201, 0}),
            5u);
  EXPECT_EQ(run(I(Opcode::Dp2a, DataType::U32).t2(DataType::U32).mul(MulMode::Hi), {0x00020001, 0x04030201, 0}),
            11u);
  EXPECT_EQ(run(I(Opcode::Dp2a, DataType::S32).t2(DataType::S32).mul(MulMode::Hi), {0xFFFF0001u, 0x04030201, 0}),
            0xFFFFFFFFu);
}

}  // namespace
}  // namespace simtlm::alu_test
