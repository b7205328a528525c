// Extended-precision arithmetic through CC.CF: multi-word add/sub chains and
// the mad.cc/madc product chains, with hand-computed multi-word results.
#include <gtest/gtest.h>

#include "alu_test_util.h"

namespace simtlm::alu_test {
namespace {

TEST(AluCarry, AddChain96Bit) {
  // 0x00000001_FFFFFFFF_FFFFFFFF + 0x00000002_00000000_00000001 = 0x00000004_00000000_00000000
  uint64_t cf = 0;
  EXPECT_EQ(run(I(Opcode::Add, DataType::U32).cc(), {0xFFFFFFFFu, 0x00000001u}, &cf), 0u);
  EXPECT_EQ(cf, 1u);
  EXPECT_EQ(run(I(Opcode::Addc, DataType::U32).cc(), {0xFFFFFFFFu, 0x00000000u}, &cf), 0u);
  EXPECT_EQ(cf, 1u);
  EXPECT_EQ(run(I(Opcode::Addc, DataType::U32), {0x00000001u, 0x00000002u}, &cf), 4u);
  EXPECT_EQ(cf, 1u);  // addc without .cc leaves the flag alone
}

TEST(AluCarry, AddCcClearsCarryWithoutOverflow) {
  uint64_t cf = 1;
  EXPECT_EQ(run(I(Opcode::Add, DataType::U32).cc(), {1, 2}, &cf), 3u);
  EXPECT_EQ(cf, 0u);
  cf = 1;
  EXPECT_EQ(run(I(Opcode::Add, DataType::U64).cc(), {~0ull, 1}, &cf), 0u);
  EXPECT_EQ(cf, 1u);
  // addc with carry-in 1 into all ones: result 0, carry out 1 even though b = 0
  cf = 1;
  EXPECT_EQ(run(I(Opcode::Addc, DataType::S32).cc(), {0xFFFFFFFFu, 0}, &cf), 0u);
  EXPECT_EQ(cf, 1u);
}

TEST(AluCarry, SubChain64BitBorrow) {
  // 0x00000001_00000000 - 0x00000000_00000001 = 0x00000000_FFFFFFFF
  uint64_t cf = 0;
  EXPECT_EQ(run(I(Opcode::Sub, DataType::U32).cc(), {0x00000000u, 0x00000001u}, &cf), 0xFFFFFFFFu);
  EXPECT_EQ(cf, 1u);  // borrow
  EXPECT_EQ(run(I(Opcode::Subc, DataType::U32).cc(), {0x00000001u, 0x00000000u}, &cf), 0u);
  EXPECT_EQ(cf, 0u);
  // 0 - 0 - borrow: result all ones and borrow out
  cf = 1;
  EXPECT_EQ(run(I(Opcode::Subc, DataType::U32).cc(), {0, 0}, &cf), 0xFFFFFFFFu);
  EXPECT_EQ(cf, 1u);
}

TEST(AluCarry, MadCcChainBuildsWideProductPlusAddend) {
  // 0xFFFFFFFF * 0xFFFFFFFF + 0x00000002_FFFFFFFF = 0x1_00000001_00000000
  uint64_t cf = 0;
  EXPECT_EQ(run(I(Opcode::Mad, DataType::U32).mul(MulMode::Lo).cc(), {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}, &cf),
            0u);
  EXPECT_EQ(cf, 1u);
  EXPECT_EQ(run(I(Opcode::Madc, DataType::U32).mul(MulMode::Hi).cc(), {0xFFFFFFFFu, 0xFFFFFFFFu, 2}, &cf), 1u);
  EXPECT_EQ(cf, 1u);
  // madc.lo without .cc: 3*4 + 5 + carry 1 = 18, flag unchanged
  EXPECT_EQ(run(I(Opcode::Madc, DataType::U32).mul(MulMode::Lo), {3, 4, 5}, &cf), 18u);
  EXPECT_EQ(cf, 1u);
}

TEST(AluCarry, MadcHiSignedProduct) {
  // hi((-1) * 1) = 0xFFFFFFFF (.s32), + 1 + carry 0 = 0 with carry out
  uint64_t cf = 0;
  EXPECT_EQ(run(I(Opcode::Madc, DataType::S32).mul(MulMode::Hi).cc(), {0xFFFFFFFFu, 1, 1}, &cf), 0u);
  EXPECT_EQ(cf, 1u);
}

}  // namespace
}  // namespace simtlm::alu_test
