#include "models/dram/dram_address.h"

namespace simtlm::models {

DramAddressMap::DramAddressMap(const DramParams& p)
    : chunk_(p.bank_interleave_bytes),
      banks_(p.banks),
      bank_groups_(p.bank_groups),
      row_bytes_(p.row_bytes),
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
  DramAddress a;
  uint64_t bank = (local / chunk_) % banks_;
  const uint64_t chunk_in_row = (local / (chunk_ * banks_)) % (row_bytes_ / chunk_);
  a.row = local / (row_bytes_ * banks_);
  if (bank_xor_) {
    bank ^= a.row % banks_;
  }
  a.bank = static_cast<uint32_t>(bank);
  a.bank_group = static_cast<uint32_t>(bank % bank_groups_);
  a.column = static_cast<uint32_t>(chunk_in_row * chunk_ + local % chunk_);
  return a;
}

}  // namespace simtlm::models
