// CCWS lost intra-warp locality detector (Rogers §3.2.3, seed note 002
// §5.2-5.3): a victim tag array (tags only, no data) whose sets are
// partitioned among the warp slots, so that every warp has a small private
// VTA. A line evicted from the L1D is inserted into the partition of the warp
// that allocated it (its owner tag); an L1D miss of warp w probes only w's
// partition. A hit means w lost locality it would have kept with more
// exclusive use of the L1D.
//
// Decisions where the thesis is silent (seed note 002 §16 item 2): LRU
// replacement inside a partition set, and a hit invalidates the entry (the
// line is being fetched again, so it is no longer a victim).
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::sched {

class VictimTagArray {
 public:
  // `entries_per_warp` tags in sets of `ways` per warp slot; `line_bytes`
  // is the L1D line size (set index = line number modulo sets).
  VictimTagArray(uint32_t warps, uint32_t entries_per_warp, uint32_t ways, uint32_t line_bytes);

  // The line at line_addr owned by `warp` left the L1D.
  void insert(uint32_t warp, uint64_t line_addr);
  // `warp` missed on line_addr: true when its partition holds the tag (the
  // entry is then invalidated).
  bool probe(uint32_t warp, uint64_t line_addr);
  // A new warp takes the slot: its partition starts empty.
  void clear(uint32_t warp);

  uint32_t sets_per_warp() const { return sets_; }
  uint32_t ways() const { return ways_; }
  // Valid tags in `warp`'s partition.
  uint32_t occupancy(uint32_t warp) const;
  // Storage of the whole array: per entry a tag of address_bits minus the
  // line offset and set-index bits, and a valid bit (the thesis: 48-bit
  // virtual addresses, 40-bit tags for 128 B lines and 2 sets).
  uint64_t storage_bits(uint32_t address_bits = 48) const;

 private:
  struct Entry {
    uint64_t line = 0;   // line number (address / line_bytes)
    uint64_t stamp = 0;  // LRU: larger = more recent
    bool valid = false;
  };
  Entry* set_of(uint32_t warp, uint64_t line);

  uint32_t warps_;
  uint32_t sets_;
  uint32_t ways_;
  uint32_t line_shift_;
  uint64_t clock_ = 0;
  std::vector<Entry> entries_;  // [warp][set][way]
};

}  // namespace simtlm::models::sched
