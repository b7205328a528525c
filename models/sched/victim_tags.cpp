#include "models/sched/victim_tags.h"

#include "simtlm/error.h"

namespace simtlm::models::sched {

namespace {

uint32_t log2_exact(uint32_t v) {
  uint32_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

}  // namespace

VictimTagArray::VictimTagArray(uint32_t warps, uint32_t entries_per_warp, uint32_t ways, uint32_t line_bytes)
    : warps_(warps), sets_(ways == 0 ? 0 : entries_per_warp / ways), ways_(ways), line_shift_(log2_exact(line_bytes)) {
  if (ways == 0 || entries_per_warp == 0 || entries_per_warp % ways != 0) {
    throw Error(ErrorKind::Config,
                "gpu.sm.scheduler.ccws.vta_entries_per_warp must be a positive multiple of gpu.sm.scheduler.ccws.vta_ways");
  }
  if (line_bytes == 0 || (1u << line_shift_) != line_bytes) {
    throw Error(ErrorKind::Config, "gpu.l1d.line_bytes must be a power of two for the CCWS victim tags");
  }
  entries_.resize(static_cast<size_t>(warps) * entries_per_warp);
}

VictimTagArray::Entry* VictimTagArray::set_of(uint32_t warp, uint64_t line) {
  const uint64_t set = line % sets_;
  return &entries_[(static_cast<size_t>(warp) * sets_ + set) * ways_];
}

void VictimTagArray::insert(uint32_t warp, uint64_t line_addr) {
  if (warp >= warps_) return;
  const uint64_t line = line_addr >> line_shift_;
  Entry* set = set_of(warp, line);
  Entry* victim = &set[0];
  for (uint32_t w = 0; w < ways_; ++w) {
    Entry& e = set[w];
    if (e.valid && e.line == line) {  // already a victim: refresh
      victim = &e;
      break;
    }
    if (!e.valid) {
      if (victim->valid) victim = &e;
    } else if (victim->valid && e.stamp < victim->stamp) {
      victim = &e;
    }
  }
  victim->line = line;
  victim->valid = true;
  victim->stamp = ++clock_;
}

bool VictimTagArray::probe(uint32_t warp, uint64_t line_addr) {
  if (warp >= warps_) return false;
  const uint64_t line = line_addr >> line_shift_;
  Entry* set = set_of(warp, line);
  for (uint32_t w = 0; w < ways_; ++w) {
    if (set[w].valid && set[w].line == line) {
      set[w].valid = false;
      return true;
    }
  }
  return false;
}

void VictimTagArray::clear(uint32_t warp) {
  if (warp >= warps_) return;
  Entry* first = &entries_[static_cast<size_t>(warp) * sets_ * ways_];
  for (uint32_t i = 0; i < sets_ * ways_; ++i) first[i].valid = false;
}

uint32_t VictimTagArray::occupancy(uint32_t warp) const {
  uint32_t n = 0;
  const Entry* first = &entries_[static_cast<size_t>(warp) * sets_ * ways_];
  for (uint32_t i = 0; i < sets_ * ways_; ++i) n += first[i].valid ? 1 : 0;
  return n;
}

uint64_t VictimTagArray::storage_bits(uint32_t address_bits) const {
  const uint32_t index_bits = log2_exact(sets_);
  const uint32_t tag_bits = address_bits > line_shift_ + index_bits ? address_bits - line_shift_ - index_bits : 0;
  return static_cast<uint64_t>(entries_.size()) * (tag_bits + 1);
}

}  // namespace simtlm::models::sched
