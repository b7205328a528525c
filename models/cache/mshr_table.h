// Miss status holding registers: one entry per line with a fill outstanding,
// holding the requests waiting for it (each with the sectors it needs) and the
// sectors requested from the next level and not yet returned. Entries and
// their waiter lists are preallocated: no allocation per miss.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm>

namespace simtlm::models {

struct MshrWaiter {
  tlm::tlm_generic_payload* trans = nullptr;
  uint32_t sectors = 0;
  bool atomic = false;  // an atomic read-modify-write: dirties its sectors when served
};

struct MshrEntry {
  uint64_t line_addr = 0;
  bool busy = false;
  uint32_t inflight = 0;  // sectors requested from the next level, not yet filled
  std::vector<MshrWaiter> waiters;
  int32_t owner_sm = -1;    // requester of the miss (owner of the line when it is allocated at fill)
  int32_t owner_warp = -1;
  bool invalidate_after_fill = false;  // a write-evict passed while the line was not allocated
  bool evict_first = false;  // every waiter so far is evict-first (a line allocated at fill is demoted)
};

class MshrTable {
 public:
  MshrTable(uint32_t entries, uint32_t merge_limit);

  MshrEntry* find(uint64_t line_addr);
  bool full() const { return in_use_ == entries_.size(); }
  // Requires !full().
  MshrEntry& allocate(uint64_t line_addr);
  void release(MshrEntry& entry);
  bool can_merge(const MshrEntry& entry) const { return entry.waiters.size() < merge_limit_; }

  uint32_t in_use() const { return in_use_; }
  uint32_t capacity() const { return static_cast<uint32_t>(entries_.size()); }
  uint32_t merge_limit() const { return merge_limit_; }

 private:
  // Lookups (every cache lookup misses in the table first) go through an
  // open-addressing hash of the busy entries' line addresses: slot value
  // index + 1, 0 = empty, linear probing, at most half full.
  size_t home_slot(uint64_t line_addr) const {
    return static_cast<size_t>((line_addr * 0x9E3779B97F4A7C15ull) >> hash_shift_);
  }
  void unindex(uint32_t index);
  std::vector<MshrEntry> entries_;
  // Bit i set: entry i is free. allocate() takes the lowest free entry (a
  // bit scan per 64 entries instead of a walk over 256 L2 entries).
  std::vector<uint64_t> free_;
  std::vector<uint32_t> slots_;
  size_t slot_mask_ = 0;
  unsigned hash_shift_ = 64;
  uint32_t merge_limit_;
  uint32_t in_use_ = 0;
};

}  // namespace simtlm::models
