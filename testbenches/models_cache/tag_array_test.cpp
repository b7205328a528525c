// Set indexing of the tag array against the formulas documented in
// models/cache/cache_params.h, computed here with plain division and modulo:
// the power-of-two fast path (shifts and masks) and the general path must
// both give them, for linear and XOR indexing and with an index divisor.
#include <gtest/gtest.h>

#include <random>

#include "models/cache/tag_array.h"

namespace simtlm::models {
namespace {

uint32_t log2_exact(uint32_t v) {
  uint32_t b = 0;
  while ((1u << b) < v) ++b;
  return b;
}

// Linear: (line number / index_divisor) % sets. Xor: the XOR of the
// log2(sets)-bit fields of that number, taken modulo sets.
uint32_t documented_set(const CacheParams& p, uint64_t addr) {
  const uint64_t number = addr / p.line_bytes / p.index_divisor;
  if (p.set_index == SetIndex::Linear || p.sets == 1) return static_cast<uint32_t>(number % p.sets);
  const uint32_t bits = log2_exact(p.sets);
  uint64_t h = 0;
  for (uint64_t n = number; n != 0; n /= (uint64_t(1) << bits)) h ^= n % (uint64_t(1) << bits);
  return static_cast<uint32_t>(h % p.sets);
}

void expect_documented_sets(const CacheParams& p) {
  TagArray tags(p);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t addr = rng() & ((uint64_t(1) << 40) - 1);
    const uint64_t line = tags.line_of(addr);
    ASSERT_EQ(tags.set_of(line), documented_set(p, addr))
        << "sets " << p.sets << " line " << p.line_bytes << " divisor " << p.index_divisor << " addr " << addr;
  }
}

CacheParams geometry(uint32_t sets, uint32_t line, uint32_t divisor, SetIndex index) {
  CacheParams p;
  p.sets = sets;
  p.ways = 4;
  p.line_bytes = line;
  p.sector_bytes = 32;
  p.index_divisor = divisor;
  p.set_index = index;
  return p;
}

TEST(TagArray, PowerOfTwoGeometriesIndexAsDocumented) {
  expect_documented_sets(geometry(32, 128, 1, SetIndex::Linear));   // Fermi L1D
  expect_documented_sets(geometry(64, 128, 12, SetIndex::Linear));  // divisor not a power of two
  expect_documented_sets(geometry(64, 128, 4, SetIndex::Linear));
  expect_documented_sets(geometry(64, 128, 4, SetIndex::Xor));
  expect_documented_sets(geometry(1, 128, 1, SetIndex::Xor));
}

TEST(TagArray, OtherGeometriesIndexAsDocumented) {
  expect_documented_sets(geometry(48, 128, 1, SetIndex::Linear));
  expect_documented_sets(geometry(48, 128, 3, SetIndex::Linear));
  expect_documented_sets(geometry(96, 64, 6, SetIndex::Linear));
}

}  // namespace
}  // namespace simtlm::models
