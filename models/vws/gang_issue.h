// The gang issue scheduler's selection rule (seed 002 §6.4.1, §6.4.3, notes
// §10.7): each cycle up to `max_gangs` gangs issue, in the policy's order,
// and two gangs issue together only if their GangMasks are disjoint (a
// slice executes at most one 4-wide instruction per cycle). The slices no
// issuing gang uses are left to their own schedulers (independent warps).
// Plain data, no SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/vws/gang_table.h"

namespace simtlm::models::vws {

// Gang orders of §6.4.3: GTO (the gang that issued last, then oldest), BGTO
// (biggest gang first, then GTO: the final design), LGTO (littlest first),
// LPC (lowest PC first, then oldest), LRR (round-robin from the gang after
// the last one issued).
enum class GangOrder : uint8_t { Gto, Bgto, Lgto, Lpc, Lrr };
GangOrder gang_order_from_name(const std::string& name);  // Error(Config) for another name

// A gang that could issue this cycle (its I-buffer entry valid and every
// member ready).
struct GangCandidate {
  uint32_t gang = kNoGang;
  SliceMask mask = 0;
  uint32_t pc = 0;
  uint64_t age = 0;  // lower = older (its original gang's launch order)
};

class GangIssue {
 public:
  GangIssue(GangOrder order, uint32_t max_gangs) : order_(order), max_gangs_(max_gangs) {}

  // Chooses the gangs that issue this cycle; `used` becomes the union of
  // their masks (the slices their members occupy). Remembers the last gang
  // chosen for GTO/LRR.
  std::vector<uint32_t> select(std::vector<GangCandidate> candidates, SliceMask& used);

  uint32_t max_gangs() const { return max_gangs_; }

 private:
  GangOrder order_;
  uint32_t max_gangs_;
  uint32_t last_ = kNoGang;
};

}  // namespace simtlm::models::vws
