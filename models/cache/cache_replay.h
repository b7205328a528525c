// Offline replay of a cache's access sequence (Rogers' SAGCS, seed note 002
// §2.1/§3.3): the same lookups, in the same order, under LRU (to validate the
// replay against the timing model's own misses) and under Belady's optimal
// replacement (MIN: on a miss into a full set, evict the resident line whose
// next read is farthest away, or never comes). Both allocate a line on every
// read miss (no bypass, as the modelled L1D) and apply write-evict: a store
// that finds its line invalidates it. The set of a line is the model's
// (TagArray::set_of: linear or XOR indexing). What the replay does not see:
// lines the model could not evict because their fill was outstanding, and
// write-back allocation of local stores; hence "within 0.1 %", not equal.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cache/cache_params.h"

namespace simtlm::models {

struct ReplayAccess {
  uint64_t line_addr = 0;
  bool store = false;  // true: a store (invalidates a present line under write-evict)
};

struct ReplayResult {
  uint64_t reads = 0;
  uint64_t lru_misses = 0;
  uint64_t opt_misses = 0;
};

// Replays `accesses` (one cache's lookups in order) on a cache with `params`'
// geometry and set indexing. Stores invalidate present lines when
// params.write_policy is WriteEvict and are ignored otherwise.
ReplayResult replay_cache(const CacheParams& params, const std::vector<ReplayAccess>& accesses);

}  // namespace simtlm::models
