// Locality statistics of an SM's L1D (gpu.l1d.locality_stats; Rogers §1.4
// taxonomy, seed note 002 §14.1 item 7). Every load lookup is classified by
// the warp that allocated the line, i.e. whose miss brought it in (the
// thesis classifies by "the WID that first brought the line in"):
//   hit  intra-warp   the line was allocated by the same warp
//   hit  inter-warp   by another warp
//   miss compulsory   the line was never in this L1D
//   miss intra-warp   it was, last allocated by the same warp (lost
//                     intra-warp locality: what CCWS's victim tags look for)
//   miss inter-warp   it was, last allocated by another warp
// A warp is a warp of the kernel, not a slot: a slot reused by the next CTA
// is a new warp (the SM's launch events number the warps). MSHR merges and
// sector misses are counted apart (the line is present or on its way).
// Intra-thread reuse (§1.4: the re-referenced data is private to a scalar
// thread) is told apart inside the intra-warp hits from the lanes: every
// issued load notes, per line, which of the warp's lanes address it (the
// L1D's events carry the warp, not the lanes, so a lookup takes the lanes of
// the warp's latest load of that line); a line remembers the lanes of its
// owner warp that touched it since allocation, and an intra-warp hit is
// intra-thread when one of the hitting lanes is among them. The rest of the
// intra-warp hits are inter-thread (or of lanes not known, e.g. local
// memory, whose L1D addresses are not the lanes' offsets).
//
// The record of every line ever allocated is unbounded (one map entry per
// distinct line), like the thesis' unbounded side simulator; it is off by
// default.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/cache/cache.h"
#include "models/sm/sm_events.h"
#include "simtlm/stats.h"

namespace simtlm::models {

struct L1dLocalityCounts {
  uint64_t hits_intra_warp = 0;
  uint64_t hits_intra_thread = 0;  // of hits_intra_warp
  uint64_t hits_inter_warp = 0;
  uint64_t misses_compulsory = 0;
  uint64_t misses_intra_warp = 0;
  uint64_t misses_inter_warp = 0;
  uint64_t merges = 0;
  uint64_t sector_misses = 0;
};

class L1dLocality : public SmObserver {
 public:
  L1dLocality(uint32_t max_warps, uint32_t line_bytes);

  void on_warp_launch(const WarpEvent& e) override;
  // Loads note which lanes address which line (intra-thread classification).
  void on_warp_issue(const IssueRecord& r) override;
  // An event of the SM's L1D (Cache::add_observer).
  void on_cache_event(const CacheEvent& e);

  const L1dLocalityCounts& counts() const { return c_; }
  // Registers the counters and per-kilo-instruction formulas under `g`;
  // `instructions` is the full path of the SM's warp-instruction counter.
  void register_stats(const stats::Group& g, const std::string& instructions);

 private:
  uint64_t uid(int32_t slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < warp_uid_.size() ? warp_uid_[slot] : 0;
  }
  std::vector<uint64_t> warp_uid_;        // per slot: number of the warp in it (1, 2, ...)
  uint64_t next_uid_ = 0;
  uint64_t lanes_of(int32_t slot, uint64_t line) const;
  std::unordered_map<uint64_t, uint64_t> owner_;  // line -> warp that last allocated it
  std::unordered_map<uint64_t, uint64_t> touched_;  // line -> owner's lanes that touched it since allocation
  std::unordered_map<uint64_t, uint64_t> issued_;   // line x slot -> lanes of the slot's latest load of it
  uint32_t slots_;
  uint64_t line_mask_;
  L1dLocalityCounts c_;
};

}  // namespace simtlm::models
