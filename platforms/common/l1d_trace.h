// The L1D access trace (sim.trace.l1d_file, `simtlm run --trace l1d`): one
// line per tag lookup of every SM's L1D, for offline replay with other
// replacement policies (`simtlm l1d-replay`, models/cache/cache_replay.h;
// Rogers' SAGCS, seed note 002 §2.1). Format (text):
//
//   # simtlm l1d trace 1 sms=30 sets=32 ways=8 line_bytes=128 set_index=linear write_policy=write_evict
//   <sm> <cycle> <warp slot> <op> <event> <line address, hex>
//
// op: L load, S store, A atomic; event: h hit, m miss (a line is
// allocated for a read), s sector miss, g merge with a miss in flight.
// "E e" is an eviction or invalidation (warp = the line's owner): the replay
// uses it only to time the invalidation a write-evict store caused (at once,
// or when the fill of a line that was in flight arrives).
// Records are in simulation order (SystemC's deterministic order).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "models/cache/cache.h"

namespace simtlm::platforms {

class L1dTrace {
 public:
  // Opens `path` and writes the header; throws Error(Input) naming the key
  // when the file cannot be written.
  L1dTrace(const std::string& path, const models::CacheParams& l1d, unsigned sms);
  // Records `cache`'s lookups as SM `sm` (registers an observer; the trace
  // must outlive the cache's simulation).
  void attach(models::Cache& cache, unsigned sm);
  // Flushes; throws Error(Input) when a write failed.
  void finish();

 private:
  void record(unsigned sm, const models::CacheEvent& e);
  std::string path_;
  std::ofstream out_;
  std::vector<char> buffer_;
};

}  // namespace simtlm::platforms
