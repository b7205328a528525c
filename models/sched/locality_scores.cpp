#include "models/sched/locality_scores.h"

#include <algorithm>
#include <cmath>

namespace simtlm::models::sched {

LostLocalityScores::LostLocalityScores(uint32_t max_warps, uint32_t base_score, double k_throttle)
    : base_(base_score), k_(k_throttle), warps_(max_warps), can_load_(max_warps, 1) {}

void LostLocalityScores::fold(uint64_t cycle) {
  if (cycle == pending_cycle_) return;
  hits_ += pending_hits_;
  insts_ += pending_insts_;
  pending_hits_ = pending_insts_ = 0;
  pending_cycle_ = cycle;
}

void LostLocalityScores::add(uint32_t slot, uint64_t age, uint64_t cycle) {
  if (slot >= warps_.size()) {
    warps_.resize(slot + 1);
    can_load_.resize(slot + 1, 1);
  }
  Warp& w = warps_[slot];
  if (!w.live) ++active_;
  w = Warp{true, age, base_, cycle};
}

void LostLocalityScores::remove(uint32_t slot, uint64_t) {
  if (slot >= warps_.size() || !warps_[slot].live) return;
  warps_[slot].live = false;
  can_load_[slot] = 1;
  --active_;
}

void LostLocalityScores::instruction(uint64_t cycle) {
  fold(cycle);
  ++pending_insts_;
}

uint64_t LostLocalityScores::llds(uint64_t cycle) const {
  uint64_t hits = hits_, insts = insts_;
  if (cycle != pending_cycle_) {  // the pending cycle is over
    hits += pending_hits_;
    insts += pending_insts_;
  }
  // Multiplied out before the division: exact for integral K.
  const double v = static_cast<double>(hits) * k_ * static_cast<double>(cutoff()) /
                   static_cast<double>(std::max<uint64_t>(1, insts));
  return static_cast<uint64_t>(std::floor(v));
}

void LostLocalityScores::vta_hit(uint32_t slot, uint64_t cycle) {
  fold(cycle);
  if (slot < warps_.size() && warps_[slot].live) {
    Warp& w = warps_[slot];
    const uint64_t now = std::max(score(slot, cycle), llds(cycle));
    w.value = now;
    w.at = cycle;
    if (now > base_) raised_until_ = std::max(raised_until_, cycle + (now - base_));
  }
  ++pending_hits_;
}

uint64_t LostLocalityScores::score(uint32_t slot, uint64_t cycle) const {
  const Warp& w = warps_[slot];
  const uint64_t elapsed = cycle > w.at ? cycle - w.at : 0;
  const uint64_t above = w.value > base_ ? w.value - base_ : 0;
  return base_ + (above > elapsed ? above - elapsed : 0);
}

void LostLocalityScores::update(uint64_t cycle) {
  if (cycle >= raised_until_) {
    // Every score is at base: N x base = cutoff, nothing is blocked.
    if (blocked_ != 0) std::fill(can_load_.begin(), can_load_.end(), 1);
    blocked_ = 0;
    return;
  }
  stack_.clear();
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    if (warps_[s].live) stack_.push_back(s);
  }
  std::sort(stack_.begin(), stack_.end(), [&](uint32_t a, uint32_t b) {
    const uint64_t sa = score(a, cycle), sb = score(b, cycle);
    if (sa != sb) return sa > sb;
    return warps_[a].age < warps_[b].age;
  });
  const uint64_t limit = cutoff();
  uint64_t sum = 0;
  blocked_ = 0;
  for (uint32_t s : stack_) {
    sum += score(s, cycle);
    const bool ok = sum <= limit;
    can_load_[s] = ok ? 1 : 0;
    blocked_ += ok ? 0 : 1;
  }
}

}  // namespace simtlm::models::sched
