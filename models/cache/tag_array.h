// Tag array of a sectored set-associative cache: per line a tag (kept as the
// full line address), per-sector valid and dirty bits, a reservation flag
// (a fill is outstanding, so the line cannot be evicted), the owner warp (the
// warp whose miss allocated the line, for CCWS-style victim tags) and the
// replacement stamps. No data is stored.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cache/cache_params.h"

namespace simtlm::models {

struct CacheLine {
  uint64_t line_addr = 0;
  bool allocated = false;      // the frame holds line_addr
  uint32_t valid = 0;          // sector valid bits
  uint32_t dirty = 0;          // sector dirty bits
  bool reserved = false;       // a fill is outstanding (MSHR entry exists)
  bool invalidate_after_fill = false;  // a write-evict hit it while reserved
  int32_t owner_sm = -1;
  int32_t owner_warp = -1;
  uint64_t last_use = 0;       // LRU stamp
  uint64_t inserted = 0;       // FIFO stamp
};

class TagArray {
 public:
  TagArray(const CacheParams& params);

  uint64_t line_of(uint64_t addr) const { return addr & ~static_cast<uint64_t>(line_bytes_ - 1); }
  uint32_t set_of(uint64_t line_addr) const;

  // The frame holding line_addr, or nullptr.
  CacheLine* find(uint64_t line_addr);
  // The frame to use for line_addr: an unallocated frame of its set if any,
  // else the replacement victim among frames that are not reserved; nullptr
  // when every frame of the set is reserved.
  CacheLine* victim(uint64_t line_addr);
  // Makes `line` hold line_addr with no valid sectors, owned by (sm, warp).
  void install(CacheLine& line, uint64_t line_addr, int32_t sm, int32_t warp);
  void touch(CacheLine& line) { line.last_use = ++clock_; }
  // Makes `line` the next victim of its set under LRU and FIFO (evict-first
  // insertion); among several such lines the lowest way goes first.
  void demote(CacheLine& line) { line.last_use = line.inserted = 0; }
  void invalidate(CacheLine& line);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  const CacheLine& at(uint32_t set, uint32_t way) const { return lines_[static_cast<size_t>(set) * ways_ + way]; }
  // Number of allocated frames (all sets).
  uint64_t allocated_lines() const;

 private:
  uint32_t sets_;
  uint32_t ways_;
  uint32_t line_bytes_;
  uint32_t index_divisor_;
  ReplacementPolicy replacement_;
  SetIndex set_index_;
  uint32_t set_bits_ = 0;
  // Power-of-two geometries (all presets) index with shifts and a mask
  // instead of 64-bit divisions: lookups are on every cache's hot path.
  bool pow2_ = false;
  uint32_t number_shift_ = 0;  // log2(line_bytes * index_divisor)
  uint64_t set_mask_ = 0;      // sets - 1
  uint64_t clock_ = 0;
  std::vector<CacheLine> lines_;
};

}  // namespace simtlm::models
