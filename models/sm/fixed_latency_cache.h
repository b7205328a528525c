// Small read-only cache with a fixed miss latency, used inside the SM for the
// instruction cache and the constant cache (their misses are not sent as
// TLM transactions: they cost a configured latency standing for an L2 round
// trip; see docs/sm-model.md). Tags and LRU come from models::TagArray. A line
// is installed at its miss; accesses to a line whose fill is still in flight
// wait for that fill (merge). With `mshrs` > 0 a miss that finds every MSHR
// busy is refused (kBlocked) and must be retried.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/cache/tag_array.h"

namespace simtlm::models {

struct FixedLatencyCacheParams {
  uint32_t sets = 4;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  uint32_t mshrs = 0;          // 0 = unlimited outstanding misses
  uint32_t hit_latency = 1;
  uint32_t miss_latency = 100;
  bool perfect = false;        // every access hits
};

class FixedLatencyCache {
 public:
  static constexpr uint64_t kBlocked = ~0ull;

  explicit FixedLatencyCache(const FixedLatencyCacheParams& params);

  // Access of the line holding `addr` in `cycle`: the cycle the data is
  // available, or kBlocked.
  uint64_t access(uint64_t addr, uint64_t cycle);
  // True when an access in `cycle` would be refused for lack of an MSHR.
  bool would_block(uint64_t addr, uint64_t cycle);
  // Earliest cycle an outstanding miss completes (kBlocked when none).
  uint64_t next_fill() const;

  uint64_t line_of(uint64_t addr) const { return tags_.line_of(addr); }
  const FixedLatencyCacheParams& params() const { return p_; }

  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t merges = 0;   // accesses that waited for an outstanding miss
  uint64_t blocked = 0;  // refused accesses

 private:
  void retire(uint64_t cycle);
  // The frame holding `line`, or nullptr. Remembers the last frame found:
  // consecutive fetches mostly hit the same line (exact: the frame's tag is
  // checked, and LRU is still updated by the caller).
  CacheLine* lookup(uint64_t line) {
    if (last_ != nullptr && last_->allocated && last_->line_addr == line) return last_;
    CacheLine* l = tags_.find(line);
    if (l != nullptr) last_ = l;
    return l;
  }

  FixedLatencyCacheParams p_;
  TagArray tags_;
  std::vector<std::pair<uint64_t, uint64_t>> inflight_;  // (line, ready cycle)
  CacheLine* last_ = nullptr;                            // frame of the last lookup hit
};

}  // namespace simtlm::models
