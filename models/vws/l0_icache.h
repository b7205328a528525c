// A slice's L0 instruction cache (seed 002 §6.2.6, notes §10.6): a few
// hundred bytes in front of the shared L1 I-cache, probed first when an
// independent warp of the slice fetches, so that a slice running a loop
// alone does not need one of the L1's few ports. Plain data, no SystemC.
//
// Decisions where the seed is silent: fully associative, LRU, one
// instruction per entry (the seed's sizes of 32 to 256 bytes are 4 to 32
// instructions of 8 bytes; entries of one instruction need no line size of
// their own); filled with the instructions each L1 fetch of the slice's
// independent warps brings, ready when that fetch is; a hit is ready after
// the L1's hit latency (the L0 saves bandwidth, not time). Gang fetches do
// not use it.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::vws {

class L0ICache {
 public:
  explicit L0ICache(uint32_t entries) : e_(entries) {}

  uint32_t entries() const { return static_cast<uint32_t>(e_.size()); }
  // Instructions [pc, pc + n) all present: true, with `ready` the cycle the
  // last of them is (a fill still in flight is waited for), and each entry
  // made most recent.
  bool probe(uint32_t pc, uint32_t n, uint64_t& ready);
  // Instructions [pc, pc + n) arrive at `ready` (those not present replace
  // the least recently used entries; those present keep theirs).
  void fill(uint32_t pc, uint32_t n, uint64_t ready);

 private:
  struct Entry {
    uint32_t pc = 0;
    bool valid = false;
    uint64_t ready = 0;
    uint64_t used = 0;  // LRU stamp
  };
  Entry* find(uint32_t pc);

  std::vector<Entry> e_;
  uint64_t clock_ = 0;
};

}  // namespace simtlm::models::vws
