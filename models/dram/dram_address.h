// Physical address -> (bank group, bank, row, column) of one DRAM channel.
//
// 1. The channel interleave is removed: with C = channels and
//    G = channel_interleave_bytes, local = (addr / (G*C)) * G + addr % G
//    (the platform interleaves channels linearly in G-byte chunks; for the
//    GPU platform G = gpu.l2.interleave_bytes x sub_partitions_per_channel).
// 2. The local address is split, from the least significant end, into
//      column low   : K bytes                     (K  = bank_interleave_bytes)
//      bank low     : L bits                      (L  = low_bank_bits)
//      column high  : row_bytes / K chunks
//      bank high    : log2(banks) - L bits        (banks / 2^L values)
//      row          : the rest
//    i.e. |row|bank high|column high|bank low|column low| (row bits highest,
//    the shape of GPGPU-Sim's GDDR5 maps such as GTX480's
//    "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"). The flat bank is
//    bank_high * 2^L + bank_low. 2^L banks take turns every K bytes and each
//    of them fills a whole row before the map moves on to the next banks and
//    then to the next row.
//    With bank_xor the flat bank is XORed with the low bits of the row.
// 3. bank_group = flat % bank_groups: the low bank bits select the bank
//    group (GPGPU-Sim's lower-bits bank-group indexing), so chunks that take
//    turns in the low bank bits alternate bank groups and back-to-back
//    bursts are spaced by tCCD rather than tCCDL.
// column = column_high * K + column_low (byte offset inside the row).
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
  uint64_t low_banks_;       // 2^low_bank_bits
  uint64_t chunks_per_row_;  // row_bytes / chunk
  uint64_t bank_groups_;
  bool bank_xor_;
  uint64_t channels_;
  uint64_t channel_granule_;
};

}  // namespace simtlm::models
