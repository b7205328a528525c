// The pairing of CTAs for resource sharing (Jatala §2.2, seed note 000 §2.2,
// §6.1 item 1), used by the register and the scratchpad sharing allocators.
//
// Admission is greedy and reproduces the occupancy equation
// (models/sm/sharing_occupancy.h) for CTAs of one shape: a CTA that fits
// whole is admitted unpaired ("solo", it holds R_tb units); otherwise it is
// paired with a solo CTA of the same shape and pays only its private part
// t R_tb, the solo CTA's R_tb becoming its private part plus the pair's
// shared pool. So with F solo CTAs the SM holds S more while
// F R_tb + S t R_tb <= R and S <= F: exactly Eq. 2.1-2.4 (the other limits
// being the CTA table's). When one CTA of a pair completes, the other keeps
// the whole pool and becomes solo again; the next CTA pairs with it as the
// new non-owner (§2.3: a new CTA launched into a freed slot is the new
// non-owner partner), preferring such orphans, then the youngest solo CTA
// (as Ex. 2.2.1: TB0 and TB1 unshared, TB2 and TB3 a pair).
// Units are counted in millionths so that t R_tb is exact.
#pragma once

#include <cstdint>
#include <vector>

#include "models/sched/policy.h"

namespace simtlm::models {

class CtaPairs {
 public:
  static constexpr uint32_t kNone = ~0u;

  CtaPairs(uint64_t capacity, uint64_t t_millionths, uint32_t slots);

  // Whether a CTA of `units` (and `warps` warps) fits now: whole, or as the
  // partner of a solo CTA of the same size.
  bool can_admit(uint64_t units, uint32_t warps) const;
  // Admits it into `slot` (can_admit was true); returns its partner or kNone.
  uint32_t admit(uint32_t slot, uint64_t units, uint32_t warps);
  // The CTA in `slot` completed; returns its former partner (now solo) or kNone.
  uint32_t release(uint32_t slot);

  uint32_t partner(uint32_t slot) const { return slots_[slot].partner; }
  bool occupied(uint32_t slot) const { return slots_[slot].occupied; }
  // Admission order (smaller = admitted earlier), for "the older CTA".
  uint64_t sequence(uint32_t slot) const { return slots_[slot].sequence; }
  // The scheduling class of the CTA in `slot` (owner-warp-first, §2.5): with
  // no partner, unshared; else the owner is the one of the pair that holds
  // the shared part (`partner_holds` says whether the partner does), and
  // while neither does, the older of the two.
  sched::SharingClass sharing_class(uint32_t slot, bool holds, bool partner_holds) const {
    const uint32_t p = partner(slot);
    if (p == kNone) return sched::SharingClass::Unshared;
    if (holds) return sched::SharingClass::Owner;
    if (partner_holds) return sched::SharingClass::NonOwner;
    return sequence(slot) < sequence(p) ? sched::SharingClass::Owner : sched::SharingClass::NonOwner;
  }
  uint32_t size() const { return static_cast<uint32_t>(slots_.size()); }

  uint64_t capacity() const { return capacity_; }
  uint64_t in_use() const;            // units, rounded up
  uint64_t pairs_formed() const { return pairs_formed_; }

 private:
  struct Slot {
    bool occupied = false;
    bool whole = false;    // holds R_tb (solo, or the first of its pair); else t R_tb
    bool orphan = false;   // solo because its partner completed
    uint32_t partner = kNone;
    uint32_t warps = 0;
    uint64_t units = 0;
    uint64_t sequence = 0;
  };
  uint32_t solo_to_pair(uint64_t units, uint32_t warps) const;

  uint64_t capacity_;
  uint64_t t_;
  std::vector<Slot> slots_;
  uint64_t used_ = 0;  // millionths of a unit
  uint64_t next_sequence_ = 0;
  uint64_t pairs_formed_ = 0;
};

}  // namespace simtlm::models
