// Physical address -> (bank group, bank, row, column) of one DRAM channel.
//
// 1. The channel interleave is removed: with C = channels and
//    G = channel_interleave_bytes, local = (addr / (G*C)) * G + addr % G.
// 2. The local address is split, from the least significant end, into
//      offset in chunk  : local % K                 (K = bank_interleave_bytes)
//      bank (flat)      : (local / K) % banks
//      chunk in row     : (local / (K * banks)) % (row_bytes / K)
//      row              : local / (row_bytes * banks)
//    so K contiguous bytes sit in one bank, consecutive chunks rotate over the
//    banks, and a row of every bank fills before the next row.
//    With bank_xor the flat bank is XORed with the low bits of the row.
// 3. bank_group = flat % bank_groups (consecutive chunks alternate bank
//    groups), column byte = chunk_in_row * K + offset.
#pragma once

#include <cstdint>

#include "models/dram/dram_params.h"

namespace simtlm::models {

struct DramAddress {
  uint32_t bank = 0;        // flat bank index, 0..banks-1
  uint32_t bank_group = 0;
  uint64_t row = 0;
  uint32_t column = 0;      // byte offset inside the row
};

class DramAddressMap {
 public:
  explicit DramAddressMap(const DramParams& params);
  uint64_t local_address(uint64_t addr) const;
  DramAddress decode(uint64_t addr) const;

 private:
  uint64_t chunk_;
  uint64_t banks_;
  uint64_t bank_groups_;
  uint64_t row_bytes_;
  bool bank_xor_;
  uint64_t channels_;
  uint64_t channel_granule_;
};

}  // namespace simtlm::models
