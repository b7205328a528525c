#include "models/cache/mshr_table.h"

#include <systemc>

namespace simtlm::models {

MshrTable::MshrTable(uint32_t entries, uint32_t merge_limit) : entries_(entries), merge_limit_(merge_limit) {
  for (MshrEntry& e : entries_) {
    e.waiters.reserve(merge_limit);
  }
  free_.assign((size_t(entries) + 63) / 64, ~uint64_t(0));
  if (entries % 64 != 0) free_.back() = (uint64_t(1) << (entries % 64)) - 1;
  unsigned bits = 2;
  while ((size_t(1) << bits) < size_t(entries) * 2) ++bits;
  slots_.assign(size_t(1) << bits, 0);
  slot_mask_ = slots_.size() - 1;
  hash_shift_ = 64 - bits;
}

MshrEntry* MshrTable::find(uint64_t line_addr) {
  for (size_t s = home_slot(line_addr);; s = (s + 1) & slot_mask_) {
    const uint32_t v = slots_[s];
    if (v == 0) return nullptr;
    MshrEntry& e = entries_[v - 1];
    if (e.line_addr == line_addr) return &e;
  }
}

void MshrTable::unindex(uint32_t index) {
  size_t hole = home_slot(entries_[index].line_addr);
  while (slots_[hole] != index + 1) hole = (hole + 1) & slot_mask_;
  // Backward-shift deletion: move later members of the probe run into the
  // hole when their home slot does not lie strictly between hole and them.
  for (size_t s = (hole + 1) & slot_mask_; slots_[s] != 0; s = (s + 1) & slot_mask_) {
    const size_t home = home_slot(entries_[slots_[s] - 1].line_addr);
    const bool stays = hole <= s ? (hole < home && home <= s) : (hole < home || home <= s);
    if (stays) continue;
    slots_[hole] = slots_[s];
    hole = s;
  }
  slots_[hole] = 0;
}

MshrEntry& MshrTable::allocate(uint64_t line_addr) {
  for (size_t w = 0; w < free_.size(); ++w) {
    if (free_[w] != 0) {
      const size_t i = w * 64 + static_cast<size_t>(__builtin_ctzll(free_[w]));
      free_[w] &= free_[w] - 1;
      MshrEntry& e = entries_[i];
      size_t s = home_slot(line_addr);
      while (slots_[s] != 0) s = (s + 1) & slot_mask_;
      slots_[s] = static_cast<uint32_t>(i + 1);
      e.busy = true;
      e.line_addr = line_addr;
      e.inflight = 0;
      e.waiters.clear();
      e.owner_sm = -1;
      e.owner_warp = -1;
      e.invalidate_after_fill = false;
      e.evict_first = false;
      ++in_use_;
      return e;
    }
  }
  sc_assert(false && "MshrTable::allocate on a full table");
  return entries_.front();
}

void MshrTable::release(MshrEntry& entry) {
  sc_assert(entry.busy);
  const auto index = static_cast<uint32_t>(&entry - entries_.data());
  unindex(index);
  free_[index / 64] |= uint64_t(1) << (index % 64);
  entry.busy = false;
  entry.waiters.clear();
  entry.inflight = 0;
  --in_use_;
}

}  // namespace simtlm::models
