// Warp orders shared by several policies, written once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::models::sched {

// Loose round-robin: `slots` (ascending) starting with the first slot after
// `last` (the last issuer; -1 = none), wrapping around. Replaces `out`.
inline void round_robin_after(const std::vector<uint32_t>& slots, int64_t last, std::vector<uint32_t>& out) {
  out.clear();
  if (slots.empty()) return;
  size_t start = 0;
  if (last >= 0) {
    start = static_cast<size_t>(std::upper_bound(slots.begin(), slots.end(), static_cast<uint32_t>(last)) -
                                slots.begin());
    if (start == slots.size()) start = 0;
  }
  out.insert(out.end(), slots.begin() + static_cast<std::ptrdiff_t>(start), slots.end());
  out.insert(out.end(), slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(start));
}

}  // namespace simtlm::models::sched
