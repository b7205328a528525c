// Detected-DAWS intra-loop repetition detector (ILRD; Rogers §4.2.2, seed
// note 002 §7.4 (F)): a small set-associative LRU table of the lines the
// sampling warps' loads touched in their current iteration, each entry
// {line, load pc, warp}. A load of warp w touching a line w already touched
// this iteration names the two loads as one repetition group (they share
// their lines, and count once in the footprint). A sampling warp's entries
// are cleared when it branches back to its loop's start, so a line reused
// across iterations is not a repetition. Only entries of the same warp match:
// samplers of different loops never merge each other's loads.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::sched {

class RepetitionDetector {
 public:
  // `entries` in sets of `ways` (entries must be a multiple of ways).
  RepetitionDetector(uint32_t entries, uint32_t ways);

  // Warp `warp`'s load at `pc` touched `line` (a line number). True when the
  // warp touched it before in this iteration: `other_pc` is the load that did.
  // Otherwise the line is recorded (evicting the set's least recently used).
  bool touch(uint32_t warp, uint64_t line, uint32_t pc, uint32_t& other_pc);
  // `warp` branched back to its loop's start.
  void clear(uint32_t warp);
  uint32_t valid_entries() const;

 private:
  struct Entry {
    uint64_t line = 0;
    uint64_t stamp = 0;  // LRU: larger = more recent
    uint32_t pc = 0;
    uint32_t warp = 0;
    bool valid = false;
  };
  uint32_t sets_;
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<Entry> entries_;  // [set][way]
};

}  // namespace simtlm::models::sched
