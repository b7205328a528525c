// The SM's instruction front end: per-warp instruction buffers filled by
// fetches through the instruction cache, one warp per cycle in round-robin
// order among the warps whose buffer is empty (docs/sm-model.md, "Front
// end"; a platform may allow several fetches per cycle, one per scheduler:
// SmParams::fetches_per_cycle). Decoding is free: KernelTiming holds every instruction's static
// timing facts. The issue stage consumes the buffer; a redirect (taken or
// divergent branch, reconvergence) flushes it.
#pragma once

#include <cstdint>
#include <vector>

#include "models/sm/fixed_latency_cache.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/sm/warp_table.h"

namespace simtlm::models {

class FrontEnd {
 public:
  FrontEnd(const SmParams& p, WarpTable& warps, SmStats& stats);

  // The warp (live, empty buffer) asks for a fetch.
  void want_fetch(uint32_t slot) {
    const WarpState& w = warps_[slot];
    if (wants_fetch(slot) || w.fetch_inflight || !w.live) return;
    set_wants_fetch(slot, true);
  }
  // Drops a warp's pending fetch request (the warp leaves or is suspended;
  // a fetch in flight is forgotten when it arrives).
  void forget(uint32_t slot) { set_wants_fetch(slot, false); }
  // Empties the warp's buffer after a redirect (counted as a flush).
  void flush(WarpState& w) {
    if (w.ib_count == 0) return;
    w.ib_count = 0;
    ++stats_.ibuffer_flushes;
  }

  // Delivers the fetches that arrived by cycle c into their buffers.
  void deliver(uint64_t c);
  // Sends one fetch (cycle c). When every I-cache MSHR is busy, lowers
  // `structural_wake` to the cycle a fill returns.
  void fetch(uint64_t c, uint64_t& structural_wake);

  // One fetch at the pc of warp slots[0] (live, no fetch in flight) into the
  // buffers of all `n` warps (a gang: models/sm/warp_group_unit.h); counted
  // as one fetch. False when every I-cache MSHR is busy (`structural_wake`
  // lowered to the next fill).
  bool fetch_group(uint64_t c, const uint32_t* slots, uint32_t n, uint64_t& structural_wake);
  // A fetch of `count` instructions at the warp's pc (live, no fetch in
  // flight) served without the I-cache, ready at `ready` (a vws slice's L0
  // I-cache, models/vws/l0_icache.h); counted as a fetch.
  void fetch_served(uint32_t slot, uint64_t ready, uint32_t count);
  // The instructions a fetch at the warp's pc asks for: the fetch width,
  // bounded by the I-buffer and the end of the kernel.
  uint32_t fetch_span(const WarpState& w) const;
  // The warp asked for a fetch and has none in flight.
  bool wants_fetch(uint32_t slot) const { return (fetch_mask_[slot >> 6] >> (slot & 63)) & 1u; }

  bool any_wants_fetch() const {
    for (uint64_t word : fetch_mask_) {
      if (word != 0) return true;
    }
    return false;
  }
  // Earliest cycle a fetch in flight arrives (kNeverCycle if none).
  uint64_t next_arrival() const;

  const FixedLatencyCache& icache() const { return icache_; }

 private:
  uint32_t read_icache(const WarpState& w, uint64_t c, uint64_t& ready, uint64_t& structural_wake);
  void start_fetch(uint32_t slot, uint64_t ready, uint32_t pc, uint32_t count);
  void set_wants_fetch(uint32_t slot, bool on) {
    const uint64_t bit = uint64_t(1) << (slot & 63);
    if (on) {
      fetch_mask_[slot >> 6] |= bit;
    } else {
      fetch_mask_[slot >> 6] &= ~bit;
    }
  }
  // First slot >= from whose warp wants a fetch, or the number of slots.
  uint32_t next_wanting_fetch(uint32_t from) const;

  const SmParams& p_;
  WarpTable& warps_;
  SmStats& stats_;
  uint32_t max_warps_;
  uint32_t fetch_rr_ = 0;
  std::vector<uint64_t> fetch_mask_;  // bit per slot: the warp wants a fetch (empty I-buffer, none in flight)
  std::vector<uint32_t> fetching_;    // slots with a fetch in flight
  FixedLatencyCache icache_;
};

}  // namespace simtlm::models
