// DAWS cache-footprint arithmetic (Rogers §4.2.1, Fig 4.5, Eq. 4.1; seed
// note 002 §7.2-7.3), free of any SM state so that it can be checked by hand.
//
// A loop's footprint per iteration is counted in L1D lines per warp. Loads
// of one iteration that touch the same line share a repetition group
// (RepID) and count once. A group of diverged loads (any diverged member: a
// mixed group counts as diverged) touches one line per active lane; a
// converged group touches 2 lines when more than one lane is active (a
// converged access spans at most two lines), 1 with a single lane:
//
//   footprint(n) = sum over groups g of  (n == 1 ? 1 : diverged(g) ? n : 2)
//
// so a loop is summarised by its number of diverged and converged groups.
// The divergence-aware scaling is the n: a warp whose lanes leave the loop
// predicts less. Without it (lane_aware = false, the thesis' "no control-flow
// awareness" ablation) every warp is taken to have all its lanes active.
//
// Admission (Fig 4.5): warps are visited oldest first and their footprints
// prefix-summed; a warp with a non-zero footprint may issue loads while the
// sum including it is less than EffCacheSize = kAssocFactor x L1D lines
// (strict, §16 item 10). Warps with no footprint are never throttled. When a
// single warp's footprint reaches EffCacheSize nobody is throttled (the
// thesis: "no warps are de-scheduled" when one warp's working set exceeds
// the cache; we take EffCacheSize as the bound, not the full L1D, because a
// single warp between the two would otherwise be blocked by its own
// footprint, and every warp in the loop with it: seed note 002 §7.3 leaves
// the bound unspecified).
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::sched {

struct DawsLoad {
  uint32_t pc = 0;
  bool diverged = false;
  uint32_t rep = 0;  // repetition group: loads with equal rep share their lines
};

struct DawsLoopFootprint {
  uint32_t diverged_groups = 0;
  uint32_t converged_groups = 0;
  bool empty() const { return diverged_groups == 0 && converged_groups == 0; }
  // Lines one warp with `active_lanes` active touches per iteration.
  uint64_t lines(uint32_t active_lanes) const;
};

// Groups the loads of one loop by rep.
DawsLoopFootprint summarize_loads(const std::vector<DawsLoad>& loads);

struct DawsCandidate {
  uint32_t slot = 0;
  uint64_t age = 0;
  uint64_t footprint = 0;  // lines
};

// Load permission per candidate (same order as `warps`, which need not be
// sorted: the prefix sum is taken in age order). `eff_lines` = EffCacheSize.
std::vector<uint8_t> daws_admit(const std::vector<DawsCandidate>& warps, double eff_lines);

}  // namespace simtlm::models::sched
