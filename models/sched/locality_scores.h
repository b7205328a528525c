// CCWS locality scoring system (Rogers §3.2.3, Fig 3.7; seed note 002
// §5.4-5.5): one lost-locality score (LLS) per warp, raised to the LLDS on a
// victim-tag hit of that warp and decaying by one point per cycle down to the
// base score; warps are stacked by score (largest first) and those whose
// inclusive prefix sum lands above the cutoff (active warps x base) may not
// issue loads.
//
//   LLDS = (VTAHitTotal / InstIssuedTotal) x K_THROTTLE x cutoff   (Eq. 3.1)
//
// Time is explicit: every call says its core cycle, calls come in
// non-decreasing cycle order, and the state of cycle c is that of the
// per-cycle pseudo-code of §5.5 after cycle c's decay and hits. Scores are
// kept as (value, cycle of that value) and decayed on demand, so nothing
// runs in cycles without events. As in §5.5, the counters VTAHitTotal and
// InstIssuedTotal include the events of earlier cycles only (cycle c's
// hits and issues are added at the end of cycle c); they accumulate over
// the SM's life (not reset per kernel; seed note 002 §16 item 3). Scores are
// 64-bit (no 10-bit saturation, §16 item 4) and the top warp is not exempt
// from blocking (§16 item 5). Equal scores stack oldest first, so an older
// warp keeps load permission before a younger one.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::sched {

class LostLocalityScores {
 public:
  LostLocalityScores(uint32_t max_warps, uint32_t base_score, double k_throttle);

  // A warp is assigned to the core (score = base) / leaves it.
  void add(uint32_t slot, uint64_t age, uint64_t cycle);
  void remove(uint32_t slot, uint64_t cycle);
  // One warp instruction issued in `cycle`.
  void instruction(uint64_t cycle);
  // A victim-tag hit of `slot` in `cycle`: LLS = max(LLS, LLDS).
  void vta_hit(uint32_t slot, uint64_t cycle);

  // The score of `slot` at `cycle` (after that cycle's decay and hits).
  uint64_t score(uint32_t slot, uint64_t cycle) const;
  uint64_t cutoff() const { return static_cast<uint64_t>(active_) * base_; }
  // LLDS from the counters of the cycles before `cycle`.
  uint64_t llds(uint64_t cycle) const;
  uint32_t active_warps() const { return active_; }
  uint64_t vta_hits_total() const { return hits_ + pending_hits_; }
  uint64_t instructions_total() const { return insts_ + pending_insts_; }

  // Recomputes the load permissions for `cycle`; can_load() answers from
  // the last update.
  void update(uint64_t cycle);
  bool can_load(uint32_t slot) const { return slot >= can_load_.size() || can_load_[slot]; }
  // Warps without load permission after the last update.
  uint32_t blocked() const { return blocked_; }

 private:
  struct Warp {
    bool live = false;
    uint64_t age = 0;
    uint64_t value = 0;  // score at cycle `at`
    uint64_t at = 0;
  };
  void fold(uint64_t cycle);  // moves earlier cycles' events into the totals

  uint32_t base_;
  double k_;
  std::vector<Warp> warps_;
  std::vector<uint8_t> can_load_;
  std::vector<uint32_t> stack_;  // scratch: live slots by score
  uint32_t active_ = 0;
  uint32_t blocked_ = 0;
  uint64_t hits_ = 0;         // totals of the cycles before pending_cycle_
  uint64_t insts_ = 0;
  uint64_t pending_hits_ = 0;  // events of pending_cycle_
  uint64_t pending_insts_ = 0;
  uint64_t pending_cycle_ = 0;
  uint64_t raised_until_ = 0;  // no score exceeds base from this cycle on
};

}  // namespace simtlm::models::sched
