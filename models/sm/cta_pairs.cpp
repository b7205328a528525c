#include "models/sm/cta_pairs.h"

#include <string>

#include "models/sm/sharing_occupancy.h"
#include "simtlm/error.h"

namespace simtlm::models {

CtaPairs::CtaPairs(uint64_t capacity, uint64_t t_millionths, uint32_t slots)
    : capacity_(capacity), t_(t_millionths), slots_(slots) {}

uint64_t CtaPairs::in_use() const { return (used_ + kThresholdScale - 1) / kThresholdScale; }

uint32_t CtaPairs::solo_to_pair(uint64_t units, uint32_t warps) const {
  uint32_t best = kNone;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (!s.occupied || s.partner != kNone || s.units != units || s.warps != warps) continue;
    if (best == kNone || (s.orphan && !slots_[best].orphan) ||
        (s.orphan == slots_[best].orphan && s.sequence > slots_[best].sequence))
      best = i;
  }
  return best;
}

bool CtaPairs::can_admit(uint64_t units, uint32_t warps) const {
  const uint64_t limit = capacity_ * kThresholdScale;
  if (used_ + units * kThresholdScale <= limit) return true;
  return units != 0 && used_ + t_ * units <= limit && solo_to_pair(units, warps) != kNone;
}

uint32_t CtaPairs::admit(uint32_t slot, uint64_t units, uint32_t warps) {
  if (slot >= slots_.size() || slots_[slot].occupied || !can_admit(units, warps)) {
    throw Error(ErrorKind::Internal, "sharing allocator: bad admission of CTA slot " + std::to_string(slot));
  }
  const bool whole = used_ + units * kThresholdScale <= capacity_ * kThresholdScale;
  const uint32_t p = whole ? kNone : solo_to_pair(units, warps);  // before this slot counts as solo
  Slot& s = slots_[slot];
  s = Slot{};
  s.occupied = true;
  s.units = units;
  s.warps = warps;
  s.sequence = next_sequence_++;
  if (whole) {
    s.whole = true;
    used_ += units * kThresholdScale;
    return kNone;
  }
  s.partner = p;
  slots_[p].partner = slot;
  slots_[p].orphan = false;
  used_ += t_ * units;
  ++pairs_formed_;
  return p;
}

uint32_t CtaPairs::release(uint32_t slot) {
  if (slot >= slots_.size() || !slots_[slot].occupied) {
    throw Error(ErrorKind::Internal, "sharing allocator: release of empty CTA slot " + std::to_string(slot));
  }
  Slot& s = slots_[slot];
  const uint32_t p = s.partner;
  used_ -= s.whole ? s.units * kThresholdScale : t_ * s.units;
  if (p != kNone) {
    Slot& o = slots_[p];
    if (!o.whole) {  // the survivor takes over the pool: it holds R_tb now
      used_ += s.units * kThresholdScale - t_ * o.units;
      o.whole = true;
    }
    o.partner = kNone;
    o.orphan = true;
  }
  s = Slot{};
  return p;
}

}  // namespace simtlm::models
