// The RMU's vector cache (models/finereg/vector_cache.h): 32 direct-mapped
// entries indexed by 5 PC bits and tagged with the PC and the kernel.
#include <gtest/gtest.h>

#include "models/finereg/vector_cache.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {
namespace {

TEST(FineRegVectorCache, DirectMappedOnFivePcBits) {
  VectorCache c;
  EXPECT_EQ(c.entries(), 32u);
  EXPECT_EQ(c.storage_bytes(), 384u);  // 32 x 12 B (seed §V-F)
  EXPECT_FALSE(c.access(1, 3));
  EXPECT_TRUE(c.access(1, 3));
  EXPECT_FALSE(c.access(1, 35));  // same index (35 & 31 == 3): replaces pc 3
  EXPECT_FALSE(c.access(1, 3));
  EXPECT_FALSE(c.access(1, 4));   // another index: both stay
  EXPECT_TRUE(c.access(1, 3));
  EXPECT_TRUE(c.access(1, 4));
  EXPECT_FALSE(c.access(2, 4));   // same pc of another kernel
  EXPECT_EQ(c.hits(), 3u);
  EXPECT_EQ(c.misses(), 5u);
}

TEST(FineRegVectorCache, ThirtyTwoStallPcsAllHitAfterTheirFirstMiss) {
  VectorCache c;
  for (int round = 0; round < 3; ++round)
    for (uint32_t pc = 100; pc < 132; ++pc) c.access(7, pc);
  EXPECT_EQ(c.misses(), 32u);
  EXPECT_EQ(c.hits(), 64u);
}

TEST(FineRegVectorCache, EntriesMustBeAPowerOfTwo) {
  EXPECT_THROW(VectorCache(24), Error);
  EXPECT_THROW(VectorCache(0), Error);
  EXPECT_EQ(VectorCache(64).index(64 + 5), 5u);
}

}  // namespace
}  // namespace simtlm::models::finereg
