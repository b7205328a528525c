// Logic, shifts, mov and selp.
#include <gtest/gtest.h>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

TEST(AluLogic, BitwiseOnBitTypes) {
  EXPECT_EQ(run(I(Opcode::And, DataType::B32), {0xFFFF0000FF00FF00ull, 0x0FF00FF0}), 0x0F000F00u);
  EXPECT_EQ(run(I(Opcode::Or, DataType::B16), {0x1200, 0x0034}), 0x1234u);
  EXPECT_EQ(run(I(Opcode::Xor, DataType::B64), {~0ull, 0x0F0F0F0F0F0F0F0Full}), 0xF0F0F0F0F0F0F0F0ull);
  EXPECT_EQ(run(I(Opcode::Not, DataType::B16), {0x00FF}), 0xFF00u);
  EXPECT_EQ(run(I(Opcode::Not, DataType::B32), {0}), 0xFFFFFFFFu);
}

TEST(AluLogic, PredicatesAreLogical) {
  EXPECT_EQ(run(I(Opcode::And, DataType::Pred), {1, 1}), 1u);
  EXPECT_EQ(run(I(Opcode::And, DataType::Pred), {1, 0}), 0u);
  EXPECT_EQ(run(I(Opcode::Or, DataType::Pred), {0, 1}), 1u);
  EXPECT_EQ(run(I(Opcode::Xor, DataType::Pred), {1, 1}), 0u);
  EXPECT_EQ(run(I(Opcode::Not, DataType::Pred), {1}), 0u);
  EXPECT_EQ(run(I(Opcode::Not, DataType::Pred), {0}), 1u);
  EXPECT_EQ(run(I(Opcode::Cnot, DataType::Pred), {0}), 1u);
  EXPECT_EQ(run(I(Opcode::Cnot, DataType::Pred), {1}), 0u);
}

TEST(AluLogic, Cnot) {
  EXPECT_EQ(run(I(Opcode::Cnot, DataType::B32), {0}), 1u);
  EXPECT_EQ(run(I(Opcode::Cnot, DataType::B32), {5}), 0u);
  EXPECT_EQ(run(I(Opcode::Cnot, DataType::B16), {0xFFFF0000u}), 1u);  // low 16 bits are zero
}

TEST(AluLogic, Lop3TruthTables) {
  // With a = 0xF0.., b = 0xCC.., c = 0xAA.. every byte of the result is the table itself.
  const uint64_t ta = 0xF0F0F0F0u, tb = 0xCCCCCCCCu, tc = 0xAAAAAAAAu;
  for (unsigned lut : {0x00u, 0xFFu, 0x96u, 0xE8u, 0x80u, 0xFEu, 0x1Bu, 0x6Au}) {
    EXPECT_EQ(run(I(Opcode::Lop3, DataType::B32).lut(static_cast<uint8_t>(lut)), {ta, tb, tc, lut}),
              lut * 0x01010101u)
        << "lut 0x" << std::hex << lut;
  }
  EXPECT_EQ(run(I(Opcode::Lop3, DataType::B32).lut(0x96), {0x12345678, 0x0F0F0F0F, 0xFFFF0000u, 0x96}),
            0x12345678u ^ 0x0F0F0F0Fu ^ 0xFFFF0000u);
  EXPECT_EQ(run(I(Opcode::Lop3, DataType::B32).lut(0xE8), {0b1100, 0b1010, 0b1001, 0xE8}), 0b1000u);  // majority
  EXPECT_EQ(run(I(Opcode::Lop3, DataType::B32).lut(0xEA), {0b0011, 0b0101, 0b1000, 0xEA}), 0b1001u);  // (a&b)|c
  EXPECT_EQ(run(I(Opcode::Lop3, DataType::B32).lut(0xF0), {0x12345678, 1, 2, 0xF0}), 0x12345678u);
}

TEST(AluLogic, ShlClampsLargeAmounts) {
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B32), {1, 31}), 0x80000000u);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B32), {1, 32}), 0u);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B32), {1, 0xFFFFFFFFu}), 0u);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B16), {0x8001, 1}), 0x0002u);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B64), {1, 63}), 0x8000000000000000ull);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B64), {1, 64}), 0u);
  EXPECT_EQ(run(I(Opcode::Shl, DataType::B32), {1, 0x100000001ull}), 2u);  // amount is .u32
}

TEST(AluLogic, ShrLogicalAndArithmetic) {
  EXPECT_EQ(run(I(Opcode::Shr, DataType::U32), {0x80000000u, 31}), 1u);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::U32), {0x80000000u, 32}), 0u);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::B32), {0x80000000u, 4}), 0x08000000u);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::S32), {0x80000000u, 4}), 0xF8000000u);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::S32), {0x80000000u, 100}), 0xFFFFFFFFu);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::S32), {0x40000000u, 100}), 0u);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::S16), {0x8000, 15}), 0xFFFFu);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::S64), {0x8000000000000000ull, 63}), ~0ull);
  EXPECT_EQ(run(I(Opcode::Shr, DataType::U64), {~0ull, 64}), 0u);
}

TEST(AluLogic, ShfFunnelShifts) {
  const uint64_t a = 0x12345678, b = 0x9ABCDEF0;  // {b, a} = 0x9ABCDEF0_12345678
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(true, false), {a, b, 8}), 0xBCDEF012u);
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(true, false), {a, b, 40}), 0xBCDEF012u);  // 40 & 31
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(true, true), {a, b, 40}), 0x12345678u);   // min(40, 32)
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(true, false), {a, b, 0}), 0x9ABCDEF0u);
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(false, false), {a, b, 8}), 0xF0123456u);
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(false, true), {a, b, 40}), 0x9ABCDEF0u);
  EXPECT_EQ(run(I(Opcode::Shf, DataType::B32).shf(false, false), {a, b, 32}), 0x12345678u);  // 32 & 31 = 0
}

TEST(AluLogic, MovCopiesTypeBits) {
  EXPECT_EQ(run(I(Opcode::Mov, DataType::U32), {0xFFFFFFFF12345678ull}), 0x12345678u);
  EXPECT_EQ(run(I(Opcode::Mov, DataType::B16), {0xABCD1234u}), 0x1234u);
  EXPECT_EQ(run(I(Opcode::Mov, DataType::F64), {0x400921FB54442D18ull}), 0x400921FB54442D18ull);
  EXPECT_EQ(run(I(Opcode::Mov, DataType::F32), {f32(-1.5f)}), f32(-1.5f));
  EXPECT_EQ(run(I(Opcode::Mov, DataType::Pred), {1}), 1u);
}

TEST(AluLogic, Selp) {
  EXPECT_EQ(run(I(Opcode::Selp, DataType::B32), {11, 22, 1}), 11u);
  EXPECT_EQ(run(I(Opcode::Selp, DataType::B32), {11, 22, 0}), 22u);
  EXPECT_EQ(run(I(Opcode::Selp, DataType::F64), {f64(1.0), f64(2.0), 0}), f64(2.0));
  EXPECT_EQ(run(I(Opcode::Selp, DataType::U16), {0xFFFF1234u, 0, 1}), 0x1234u);
}

}  // namespace
}  // namespace simtlm::alu_test
