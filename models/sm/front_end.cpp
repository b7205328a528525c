#include "models/sm/front_end.h"

#include <algorithm>

#include "models/sm/inst_timing.h"

namespace simtlm::models {

namespace {

FixedLatencyCacheParams icache_params(const SmParams& p) {
  FixedLatencyCacheParams c;
  c.sets = p.icache_sets;
  c.ways = p.icache_ways;
  c.line_bytes = p.icache_line_bytes;
  c.mshrs = p.icache_mshrs;
  c.hit_latency = p.icache_hit_latency;
  c.miss_latency = p.icache_miss_latency;
  c.perfect = p.icache_perfect;
  return c;
}

}  // namespace

FrontEnd::FrontEnd(const SmParams& p, WarpTable& warps, SmStats& stats)
    : p_(p), warps_(warps), stats_(stats), max_warps_(warps.size()), fetch_mask_((warps.size() + 63) / 64, 0),
      icache_(icache_params(p)) {
  fetching_.reserve(max_warps_);
}

uint32_t FrontEnd::next_wanting_fetch(uint32_t from) const {
  for (uint32_t word = from >> 6; word < fetch_mask_.size(); ++word) {
    uint64_t bits = fetch_mask_[word];
    if (word == from >> 6) bits &= ~uint64_t(0) << (from & 63);
    if (bits != 0) return word * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
  }
  return max_warps_;
}

uint64_t FrontEnd::next_arrival() const {
  uint64_t n = kNeverCycle;
  for (uint32_t slot : fetching_) n = std::min(n, warps_[slot].fetch_ready);
  return n;
}

void FrontEnd::deliver(uint64_t c) {
  if (fetching_.empty()) return;
  size_t kept = 0;
  for (size_t i = 0; i < fetching_.size(); ++i) {
    const uint32_t slot = fetching_[i];
    WarpState& w = warps_[slot];
    if (w.fetch_ready > c) {
      fetching_[kept++] = slot;
      continue;
    }
    w.fetch_inflight = false;
    if (!w.live) continue;
    if (w.fetch_pc == w.pc) {
      w.ib_pc = w.fetch_pc;
      w.ib_count = w.fetch_count;
      warps_.unpark(slot, kFetch);
    } else {
      want_fetch(slot);  // redirected while the fetch was in flight
    }
  }
  fetching_.resize(kept);
}

namespace {
// The body of FrontEnd::fetch_span, inlined into read_icache: a call per
// fetch there costs the baseline's fetch loop (docs/performance.md).
[[gnu::always_inline]] inline uint32_t span_at(const SmParams& p, const WarpState& w) {
  const KernelTiming& timing = *w.timing;
  const uint32_t left = timing.size() > w.pc ? timing.size() - w.pc : 1;
  return std::min({p.fetch_width, p.ibuffer_entries, left});
}
}  // namespace

uint32_t FrontEnd::fetch_span(const WarpState& w) const { return span_at(p_, w); }

// The I-cache access of a fetch at w.pc: the instructions fetched (0 when
// every MSHR is busy: `structural_wake` is lowered to the next fill) and the
// cycle they are ready.
// Inlined into fetch and fetch_group: as calls they cost the baseline's fetch
// loop measurably (docs/performance.md, fifteenth session).
[[gnu::always_inline]] inline uint32_t FrontEnd::read_icache(const WarpState& w, uint64_t c, uint64_t& ready,
                                                             uint64_t& structural_wake) {
  const uint32_t pc = w.pc;
  const uint32_t n = span_at(p_, w);
  const uint64_t a0 = uint64_t(pc) * p_.instruction_bytes;
  const uint64_t a1 = uint64_t(pc + n - 1) * p_.instruction_bytes;
  const bool two_lines = icache_.line_of(a0) != icache_.line_of(a1);
  if (icache_.would_block(a0, c) || (two_lines && icache_.would_block(a1, c))) {
    // Every instruction-cache MSHR is busy: retry when a fill returns.
    const uint64_t f = icache_.next_fill();
    if (f != FixedLatencyCache::kBlocked) structural_wake = std::min(structural_wake, f);
    return 0;
  }
  ready = icache_.access(a0, c);
  uint32_t fetched = n;
  if (two_lines) {
    // Both lines were checked free on their own, but the first access may
    // have taken the last MSHR: then only the first line's instructions
    // are fetched now (the rest is fetched when the buffer drains).
    const uint64_t second = icache_.access(a1, c);
    if (second == FixedLatencyCache::kBlocked) {
      fetched = 0;
      while (fetched < n && icache_.line_of(uint64_t(pc + fetched) * p_.instruction_bytes) == icache_.line_of(a0))
        ++fetched;
    } else {
      ready = std::max(ready, second);
    }
  }
  return fetched;
}

[[gnu::always_inline]] inline void FrontEnd::start_fetch(uint32_t slot, uint64_t ready, uint32_t pc, uint32_t count) {
  WarpState& w = warps_[slot];
  set_wants_fetch(slot, false);
  w.fetch_inflight = true;
  w.fetch_ready = ready;
  w.fetch_pc = pc;
  w.fetch_count = count;
  fetching_.push_back(slot);
}

bool FrontEnd::fetch_group(uint64_t c, const uint32_t* slots, uint32_t n, uint64_t& structural_wake) {
  const WarpState& lead = warps_[slots[0]];
  uint64_t ready = 0;
  const uint32_t fetched = read_icache(lead, c, ready, structural_wake);
  if (fetched == 0) return false;
  ++stats_.fetches;
  const uint32_t pc = lead.pc;
  for (uint32_t i = 0; i < n; ++i) start_fetch(slots[i], ready, pc, fetched);
  return true;
}

void FrontEnd::fetch_served(uint32_t slot, uint64_t ready, uint32_t count) {
  ++stats_.fetches;
  start_fetch(slot, ready, warps_[slot].pc, count);
}

void FrontEnd::fetch(uint64_t c, uint64_t& structural_wake) {
  if (!any_wants_fetch()) return;
  // Warps wanting a fetch in slot order from fetch_rr_, wrapping around.
  const uint32_t start = fetch_rr_ < max_warps_ ? fetch_rr_ : 0;
  uint32_t slot = next_wanting_fetch(start);
  bool wrapped = false;
  uint32_t sent = 0;
  uint64_t fetched_schedulers = 0;  // with several fetches per cycle: one per scheduler
  for (;; slot = next_wanting_fetch(slot + 1)) {
    if (slot >= max_warps_ && !wrapped) {
      wrapped = true;
      slot = next_wanting_fetch(0);
    }
    if (slot >= max_warps_ || (wrapped && slot >= start)) return;
    WarpState& w = warps_[slot];
    if (!w.live) {
      set_wants_fetch(slot, false);
      continue;
    }
    if (sent != 0 && ((fetched_schedulers >> w.scheduler) & 1u)) continue;  // only after a first fetch
    uint64_t ready = 0;
    const uint32_t fetched = read_icache(w, c, ready, structural_wake);
    if (fetched == 0) return;  // every instruction-cache MSHR is busy
    ++stats_.fetches;
    if (__builtin_expect(!stats_.scheduler_fetches.empty(), 0)) ++stats_.scheduler_fetches[w.scheduler];
    start_fetch(slot, ready, w.pc, fetched);
    fetch_rr_ = slot + 1 == max_warps_ ? 0 : slot + 1;
    if (++sent == p_.fetches_per_cycle) return;  // one warp per cycle in the baseline
    fetched_schedulers |= uint64_t(1) << w.scheduler;
  }
}

}  // namespace simtlm::models
