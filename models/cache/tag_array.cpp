#include "models/cache/tag_array.h"

namespace simtlm::models {

TagArray::TagArray(const CacheParams& params)
    : sets_(params.sets),
      ways_(params.ways),
      line_bytes_(params.line_bytes),
      index_divisor_(params.index_divisor),
      replacement_(params.replacement),
      lines_(static_cast<size_t>(params.sets) * params.ways) {}

uint32_t TagArray::set_of(uint64_t line_addr) const {
  const uint64_t line_number = line_addr / line_bytes_ / index_divisor_;
  return static_cast<uint32_t>(line_number % sets_);
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
