// FineReg's allocator without an SM (models/finereg/finereg_allocator.h):
// admission by the ACRF and by the active limits, and the added storage the
// seed's §V-F lists, computed from the configuration.
#include <gtest/gtest.h>

#include "models/finereg/finereg_allocator.h"
#include "models/sm/occupancy.h"

namespace simtlm::models::finereg {
namespace {

regfile::AllocatorParams params() {
  regfile::AllocatorParams p;
  p.policy = "finereg";
  p.registers = 65536;  // 256 KB
  p.granularity = 8;
  p.max_ctas = 128;     // resident slots
  p.active_ctas = 32;
  p.active_warps = 64;
  p.active_threads = 2048;
  return p;             // finereg: the defaults, 128/128 KB
}

TEST(FineRegAllocator, TheAcrfBindsRegisterHeavyCtas) {
  // 256 threads x 32 registers = 8192 registers = 32 KB: 4 fit in the
  // 128 KB ACRF (8 would fit the whole register file).
  const CtaShape shape = cta_shape(256, 32, 32, 0);
  FineRegAllocator a(params());
  EXPECT_EQ(a.max_ctas(shape), 4u);
  EXPECT_EQ(a.capacity(), 32768u);
  for (uint32_t s = 0; s < 4; ++s) {
    ASSERT_TRUE(a.can_admit(shape)) << s;
    a.admit(s, shape);
  }
  EXPECT_FALSE(a.can_admit(shape));
  EXPECT_EQ(a.monitor().count(CtaSwitchState::Active), 4u);
  a.release(2);
  EXPECT_TRUE(a.can_admit(shape));
  EXPECT_EQ(a.monitor().state(2), CtaSwitchState::Free);
}

TEST(FineRegAllocator, ActiveWarpsBindSmallRegisterCtas) {
  // 512 threads x 8 registers = 16 KB: 8 fit the ACRF, but 16 warps each
  // reach the 64 active warps at 4.
  const CtaShape shape = cta_shape(512, 32, 8, 0);
  FineRegAllocator a(params());
  for (uint32_t s = 0; s < 4; ++s) a.admit(s, shape);
  EXPECT_FALSE(a.can_admit(shape));
  EXPECT_EQ(a.active_warps(), 64u);
  EXPECT_LT(a.in_use(), a.capacity());
}

TEST(FineRegAllocator, StorageOfTheSeedsStructures) {
  // 128 slots x 2 fields x 2 bits + 32 x 12 B vector cache + 128 pointer-table
  // lines x (10-bit pointer + 11-bit count) + 1024 tags x 21 bits + the
  // 128-byte staging buffer + Virtual Thread's switching logic (the paper's
  // 2.4 KB = 2.4 x 8192 bits, rounded).
  FineRegAllocator a(params());
  EXPECT_EQ(a.counters().storage_bits, 512u + 32u * 12 * 8 + 128u * 21 + 1024u * 21 + 128u * 8 + 19661u);
}

}  // namespace
}  // namespace simtlm::models::finereg
