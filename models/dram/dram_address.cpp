#include "models/dram/dram_address.h"

namespace simtlm::models {

DramAddressMap::DramAddressMap(const DramParams& p)
    : chunk_(p.bank_interleave_bytes),
      banks_(p.banks),
      low_banks_(p.low_banks()),
      chunks_per_row_(p.row_bytes / p.bank_interleave_bytes),
      bank_groups_(p.bank_groups),
      bank_xor_(p.bank_xor),
      channels_(p.channels),
      channel_granule_(p.channel_interleave_bytes) {}

uint64_t DramAddressMap::local_address(uint64_t addr) const {
  if (channels_ <= 1) {
    return addr;
  }
  return (addr / (channel_granule_ * channels_)) * channel_granule_ + addr % channel_granule_;
}

DramAddress DramAddressMap::decode(uint64_t addr) const {
  const uint64_t local = local_address(addr);
  const uint64_t column_low = local % chunk_;
  uint64_t rest = local / chunk_;
  const uint64_t bank_low = rest % low_banks_;
  rest /= low_banks_;
  const uint64_t column_high = rest % chunks_per_row_;
  rest /= chunks_per_row_;
  const uint64_t high_banks = banks_ / low_banks_;
  const uint64_t bank_high = rest % high_banks;
  DramAddress a;
  a.row = rest / high_banks;
  uint64_t bank = bank_high * low_banks_ + bank_low;
  if (bank_xor_) {
    bank ^= a.row % banks_;
  }
  a.bank = static_cast<uint32_t>(bank);
  a.bank_group = static_cast<uint32_t>(bank % bank_groups_);
  a.column = static_cast<uint32_t>(column_high * chunk_ + column_low);
  return a;
}

}  // namespace simtlm::models
