#include "models/cache/tag_array.h"

namespace simtlm::models {

TagArray::TagArray(const CacheParams& params)
    : sets_(params.sets),
      ways_(params.ways),
      line_bytes_(params.line_bytes),
      index_divisor_(params.index_divisor),
      replacement_(params.replacement),
      set_index_(params.set_index),
      lines_(static_cast<size_t>(params.sets) * params.ways) {
  while ((1u << set_bits_) < sets_) {
    ++set_bits_;
  }
  const auto is_pow2 = [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  const uint64_t divisor = uint64_t(line_bytes_) * index_divisor_;
  pow2_ = is_pow2(divisor) && is_pow2(sets_);
  if (pow2_) {
    number_shift_ = static_cast<uint32_t>(__builtin_ctzll(divisor));
    set_mask_ = sets_ - 1;
  }
}

uint32_t TagArray::set_of(uint64_t line_addr) const {
  uint64_t line_number = pow2_ ? line_addr >> number_shift_ : line_addr / line_bytes_ / index_divisor_;
  if (set_index_ == SetIndex::Linear || set_bits_ == 0) {
    return static_cast<uint32_t>(pow2_ ? line_number & set_mask_ : line_number % sets_);
  }
  // XOR fold: every set_bits-wide field of the line number is XORed into the
  // index, so power-of-two strides spread over the sets.
  const uint64_t field = (1ull << set_bits_) - 1;
  uint64_t h = 0;
  while (line_number != 0) {
    h ^= line_number & field;
    line_number >>= set_bits_;
  }
  return static_cast<uint32_t>(pow2_ ? h & set_mask_ : h % sets_);
}

CacheLine* TagArray::find(uint64_t line_addr) {
  CacheLine* base = &lines_[static_cast<size_t>(set_of(line_addr)) * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (base[w].allocated && base[w].line_addr == line_addr) {
      return &base[w];
    }
  }
  return nullptr;
}

CacheLine* TagArray::victim(uint64_t line_addr) {
  CacheLine* base = &lines_[static_cast<size_t>(set_of(line_addr)) * ways_];
  CacheLine* best = nullptr;
  for (uint32_t w = 0; w < ways_; ++w) {
    CacheLine& line = base[w];
    if (!line.allocated) {
      return &line;
    }
    if (line.reserved) {
      continue;
    }
    const uint64_t stamp = replacement_ == ReplacementPolicy::LRU ? line.last_use : line.inserted;
    const uint64_t best_stamp =
        best == nullptr ? 0 : (replacement_ == ReplacementPolicy::LRU ? best->last_use : best->inserted);
    if (best == nullptr || stamp < best_stamp) {
      best = &line;
    }
  }
  return best;
}

void TagArray::install(CacheLine& line, uint64_t line_addr, int32_t sm, int32_t warp) {
  line = CacheLine();
  line.line_addr = line_addr;
  line.allocated = true;
  line.owner_sm = sm;
  line.owner_warp = warp;
  line.inserted = ++clock_;
  line.last_use = line.inserted;
}

void TagArray::invalidate(CacheLine& line) { line = CacheLine(); }

uint64_t TagArray::allocated_lines() const {
  uint64_t n = 0;
  for (const CacheLine& line : lines_) {
    n += line.allocated ? 1 : 0;
  }
  return n;
}

}  // namespace simtlm::models
