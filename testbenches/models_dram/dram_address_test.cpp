// Address-mapping properties of the GPU platform's DRAM side, with the
// gtx480 preset's mapping parameters (checked against the built-in
// configuration first). Every expected value below is derived by hand from
// these parameters (docs/memory-system.md, "Address mapping"):
//
//   slices  = channels x sub_partitions = 6 x 2 = 12, linear, 256-byte chunks
//   channel = slice / 2, so a channel owns G = 512 contiguous bytes out of
//             every G x channels = 3072
//   local   = (addr / 3072) x 512 + addr % 512      (channel bits removed)
//   local   = |row|bank high (3 bits)|column high (3 bits)|bank low (1 bit)|column low (512 B)|
//             K = 512, low_bank_bits = 1, row = 4096 B per bank, 16 banks
//   so one bank pair (bank low 0/1) holds 2 x 4096 = 8 KB of consecutive
//   local bytes, and 16 banks x 4 KB = 64 KB of local bytes make one row
//   of every bank.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "models/dram/dram_address.h"
#include "models/noc/address_map.h"
#include "simtlm/config.h"

namespace simtlm::models {
namespace {

constexpr uint64_t kChannels = 6, kSub = 2, kSliceChunk = 256, kLine = 128;
constexpr uint64_t kChannelChunk = kSliceChunk * kSub;      // 512
constexpr uint64_t kStride = kChannelChunk * kChannels;     // 3072
constexpr uint64_t kRowBytes = 4096, kBanks = 16, kGroups = 4;

DramParams gtx480_mapping() {
  DramParams p;
  p.banks = kBanks;
  p.bank_groups = kGroups;
  p.row_bytes = kRowBytes;
  p.bus_width_bytes = 8;  // 2 chips x 4 bytes: 64-byte bursts
  p.bank_interleave_bytes = 512;
  p.low_bank_bits = 1;
  p.channels = kChannels;
  p.channel_interleave_bytes = kChannelChunk;
  p.validate("test");
  return p;
}

// Global address of byte `offset` of channel-chunk `m` of channel `c`.
uint64_t global(uint64_t c, uint64_t m, uint64_t offset = 0) { return m * kStride + c * kChannelChunk + offset; }

TEST(DramAddressMap, PresetUsesTheMappingTheseTestsDeriveFrom) {
  const Config cfg = Config::preset("gtx480");
  EXPECT_EQ(cfg.u64("gpu.dram.channels"), kChannels);
  EXPECT_EQ(cfg.u64("gpu.l2.sub_partitions_per_channel"), kSub);
  EXPECT_EQ(cfg.u64("gpu.l2.interleave_bytes"), kSliceChunk);
  EXPECT_EQ(cfg.str("gpu.l2.slice_hash"), "linear");
  EXPECT_EQ(cfg.u64("gpu.dram.row_bytes"), kRowBytes);
  EXPECT_EQ(cfg.u64("gpu.dram.banks"), kBanks);
  EXPECT_EQ(cfg.u64("gpu.dram.bank_groups"), kGroups);
  EXPECT_EQ(cfg.u64("gpu.dram.bank_interleave_bytes"), 512u);
  EXPECT_EQ(cfg.u64("gpu.dram.low_bank_bits"), 1u);
  EXPECT_FALSE(cfg.boolean("gpu.dram.bank_xor"));
}

TEST(DramAddressMap, LinesOfOneChannelChunkShareBankAndRow) {
  const DramAddressMap map(gtx480_mapping());
  for (uint64_t c = 0; c < kChannels; ++c) {
    for (uint64_t m : {0u, 1u, 2u, 17u, 130u}) {
      const DramAddress first = map.decode(global(c, m));
      for (uint64_t i = 0; i < kChannelChunk / kLine; ++i) {
        const DramAddress a = map.decode(global(c, m, i * kLine));
        EXPECT_EQ(a.bank, first.bank) << "channel " << c << " chunk " << m << " line " << i;
        EXPECT_EQ(a.row, first.row);
        EXPECT_EQ(a.column, first.column + i * kLine);
      }
    }
  }
  // By hand: chunk m of a channel has local address 512 m, so
  // bank low = m % 2, column high = (m / 2) % 8, bank high = (m / 16) % 8,
  // row = m / 128, bank = 2 x bank high + bank low.
  struct Case {
    uint64_t m, bank, row, column;
  };
  for (const Case& k : {Case{0, 0, 0, 0}, Case{1, 1, 0, 0}, Case{2, 0, 0, 512}, Case{3, 1, 0, 512},
                        Case{15, 1, 0, 7 * 512}, Case{16, 2, 0, 0}, Case{33, 5, 0, 0}, Case{127, 15, 0, 7 * 512},
                        Case{128, 0, 1, 0}, Case{128 * 5 + 16 * 3 + 2 * 6 + 1, 7, 5, 6 * 512}}) {
    const DramAddress a = map.decode(global(4, k.m, 100));
    EXPECT_EQ(a.bank, k.bank) << "chunk " << k.m;
    EXPECT_EQ(a.row, k.row) << "chunk " << k.m;
    EXPECT_EQ(a.column, k.column + 100) << "chunk " << k.m;
    EXPECT_EQ(a.bank_group, k.bank % kGroups) << "chunk " << k.m;
  }
}

TEST(DramAddressMap, ASequentialStreamFillsWholeRowsOfABankPair) {
  const DramAddressMap map(gtx480_mapping());
  // The first 8 KB of channel 2's local space (16 chunks = 48 KB of global
  // addresses): banks 0 and 1 only, row 0, every line of each bank's row once.
  std::map<uint32_t, std::set<uint32_t>> columns;  // bank -> line columns
  for (uint64_t m = 0; m < 16; ++m) {
    for (uint64_t i = 0; i < kChannelChunk / kLine; ++i) {
      const DramAddress a = map.decode(global(2, m, i * kLine));
      EXPECT_EQ(a.row, 0u);
      columns[a.bank].insert(a.column);
    }
  }
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0].size(), kRowBytes / kLine);  // every line of the row, once
  EXPECT_EQ(columns[1].size(), kRowBytes / kLine);
  // The two banks taking turns are in different bank groups (tCCD, not tCCDL).
  EXPECT_NE(map.decode(global(2, 0)).bank_group, map.decode(global(2, 1)).bank_group);
}

TEST(DramAddressMap, AddressesDifferingOnlyInRowBitsShareTheBank) {
  const DramAddressMap map(gtx480_mapping());
  // One row of every bank = 16 x 4096 = 64 KB of local bytes = 128 channel
  // chunks = 128 x 3072 = 393216 global bytes.
  const uint64_t row_step = 128 * kStride;
  for (uint64_t base : {global(0, 0), global(3, 5, 256), global(5, 77, 384)}) {
    const DramAddress a = map.decode(base);
    for (uint64_t r = 1; r < 4; ++r) {
      const DramAddress b = map.decode(base + r * row_step);
      EXPECT_EQ(b.bank, a.bank);
      EXPECT_EQ(b.bank_group, a.bank_group);
      EXPECT_EQ(b.column, a.column);
      EXPECT_EQ(b.row, a.row + r);
    }
  }
}

TEST(DramAddressMap, LinearSweepUsesEveryChannelEvenlyWithoutAliasing) {
  const DramParams p = gtx480_mapping();
  const DramAddressMap map(p);
  // The platform's slice map; the channel of a slice is slice / sub-partitions.
  const AddressMap slice = linear_interleave(kChannels * kSub, kSliceChunk);
  const uint64_t lines = 6 * 1024;  // 768 KB
  std::vector<uint64_t> per_channel(kChannels, 0);
  std::vector<std::set<uint64_t>> local(kChannels);
  for (uint64_t k = 0; k < lines; ++k) {
    const uint64_t addr = k * kLine;
    const unsigned c = slice(addr) / kSub;
    ASSERT_LT(c, kChannels);
    EXPECT_EQ(c, (addr / kChannelChunk) % kChannels);
    ++per_channel[c];
    local[c].insert(map.local_address(addr));
  }
  for (uint64_t c = 0; c < kChannels; ++c) {
    EXPECT_EQ(per_channel[c], lines / kChannels) << "channel " << c;
    // The channel's lines are exactly the local lines 0 .. lines/6 - 1.
    ASSERT_EQ(local[c].size(), lines / kChannels);
    EXPECT_EQ(*local[c].begin(), 0u);
    EXPECT_EQ(*local[c].rbegin(), (lines / kChannels - 1) * kLine);
  }
}

TEST(DramAddressMap, AllLowBankBitsIsTheBankRotationLayout) {
  DramParams p;  // default: every bank bit below the high column bits
  p.validate("test");
  const DramAddressMap map(p);
  // 256-byte chunks rotate over the 16 banks; a row spans 16 x 2048 bytes.
  EXPECT_EQ(map.decode(5 * 256 + 3).bank, 5u);
  EXPECT_EQ(map.decode(16 * 256).bank, 0u);
  EXPECT_EQ(map.decode(16 * 256).column, 256u);
  EXPECT_EQ(map.decode(16 * 2048).row, 1u);
  // low_bank_bits = 0: a whole row in one bank before the next bank.
  p.low_bank_bits = 0;
  const DramAddressMap flat(p);
  EXPECT_EQ(flat.decode(2047).bank, 0u);
  EXPECT_EQ(flat.decode(2047).column, 2047u);
  EXPECT_EQ(flat.decode(2048).bank, 1u);
  EXPECT_EQ(flat.decode(16 * 2048).row, 1u);
  p.low_bank_bits = 5;  // 32 banks do not divide 16
  EXPECT_ANY_THROW(p.validate("test"));
}

}  // namespace
}  // namespace simtlm::models
