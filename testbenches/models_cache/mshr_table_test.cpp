// The MSHR table against a plain map: random allocations and releases of
// dense and sparse line addresses, with every address looked up after each
// step; and the lowest free entry taken by each allocation (the entry order
// the caches' results depend on).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "models/cache/mshr_table.h"

namespace simtlm::models {
namespace {

void run_random_ops(uint32_t entries, uint64_t address_lines, uint64_t seed) {
  MshrTable table(entries, 4);
  std::map<uint64_t, MshrEntry*> reference;
  std::vector<bool> busy(entries, false);  // reference for "lowest free entry"
  MshrEntry* first = nullptr;
  std::mt19937_64 rng(seed);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t line = (rng() % address_lines) * 128;
    auto it = reference.find(line);
    if (it == reference.end() && !table.full() && rng() % 3 != 0) {
      MshrEntry& e = table.allocate(line);
      EXPECT_EQ(e.line_addr, line);
      if (first == nullptr) first = &e;  // entry 0: the table starts empty
      size_t lowest = 0;
      while (busy[lowest]) ++lowest;
      ASSERT_EQ(&e - first, static_cast<std::ptrdiff_t>(lowest)) << "step " << step;
      busy[lowest] = true;
      reference[line] = &e;
    } else if (it != reference.end()) {
      busy[static_cast<size_t>(it->second - first)] = false;
      table.release(*it->second);
      reference.erase(it);
    }
    ASSERT_EQ(table.in_use(), reference.size());
    for (uint64_t l = 0; l < address_lines; ++l) {
      const auto ref = reference.find(l * 128);
      MshrEntry* found = table.find(l * 128);
      if (ref == reference.end()) {
        ASSERT_EQ(found, nullptr) << "line " << l * 128 << " step " << step;
      } else {
        ASSERT_EQ(found, ref->second) << "line " << l * 128 << " step " << step;
      }
    }
  }
}

TEST(MshrTable, LookupsMatchAMapThroughRandomAllocationsAndReleases) {
  run_random_ops(32, 48, 1);   // Fermi L1D size, table often full
  run_random_ops(32, 4096, 2);  // sparse addresses
  run_random_ops(1, 4, 3);
  run_random_ops(5, 16, 4);     // not a power of two
  run_random_ops(256, 320, 5);  // the presets' L2: four words of free bits
  run_random_ops(100, 160, 6);  // a partial last word
}

TEST(MshrTable, AllocationTakesTheLowestFreeEntry) {
  MshrTable table(4, 2);
  std::vector<MshrEntry*> e;
  for (uint64_t i = 0; i < 4; ++i) e.push_back(&table.allocate(i * 128));
  EXPECT_TRUE(table.full());
  table.release(*e[2]);
  table.release(*e[1]);
  EXPECT_EQ(&table.allocate(9 * 128), e[1]);
  EXPECT_EQ(&table.allocate(7 * 128), e[2]);
  EXPECT_EQ(table.find(9 * 128), e[1]);
  EXPECT_EQ(table.find(7 * 128), e[2]);
  EXPECT_EQ(table.find(1 * 128), nullptr);
  EXPECT_EQ(table.find(3 * 128), e[3]);
}

}  // namespace
}  // namespace simtlm::models
