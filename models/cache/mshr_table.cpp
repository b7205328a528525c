#include "models/cache/mshr_table.h"

#include <systemc>

namespace simtlm::models {

MshrTable::MshrTable(uint32_t entries, uint32_t merge_limit)
    : entries_(entries), keys_(entries, kFree), merge_limit_(merge_limit) {
  for (MshrEntry& e : entries_) {
    e.waiters.reserve(merge_limit);
  }
}

MshrEntry* MshrTable::find(uint64_t line_addr) {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == line_addr) {
      return &entries_[i];
    }
  }
  return nullptr;
}

MshrEntry& MshrTable::allocate(uint64_t line_addr) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    MshrEntry& e = entries_[i];
    if (!e.busy) {
      keys_[i] = line_addr;
      e.busy = true;
      e.line_addr = line_addr;
      e.inflight = 0;
      e.waiters.clear();
      e.owner_sm = -1;
      e.owner_warp = -1;
      e.invalidate_after_fill = false;
      ++in_use_;
      return e;
    }
  }
  sc_assert(false && "MshrTable::allocate on a full table");
  return entries_.front();
}

void MshrTable::release(MshrEntry& entry) {
  sc_assert(entry.busy);
  keys_[static_cast<size_t>(&entry - entries_.data())] = kFree;
  entry.busy = false;
  entry.waiters.clear();
  entry.inflight = 0;
  --in_use_;
}

}  // namespace simtlm::models
