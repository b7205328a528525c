// Cache-conscious warp scheduling (Rogers §3.2.3, seed note 002 §5): GTO
// order, and the loads through the L1D of warps whose lost-locality score
// stacks above the cutoff are vetoed (allows_l1d_load). The SM's L1D events
// (wants_cache_events) drive the detector: an evicted line's tag goes to its
// owner warp's victim tags (models/sched/victim_tags.h), and a load miss of
// warp w that hits w's victim tags raises w's score
// (models/sched/locality_scores.h). Other instructions of throttled warps
// issue normally. Stores and atomics are never blocked (seed note 002 §16
// item 1: the thesis speaks of loads only).
#pragma once

#include <vector>

#include "models/sched/gto.h"
#include "models/sched/locality_scores.h"
#include "models/sched/victim_tags.h"

namespace simtlm::models::sched {

class CcwsPolicy : public Policy {
 public:
  explicit CcwsPolicy(const PolicyParams& params);
  const char* name() const override { return "ccws"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  bool vetoes_issue() const override { return true; }
  bool allows_l1d_load(uint32_t slot) const override { return scores_.can_load(slot); }
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  bool wants_cache_events() const override { return true; }
  void on_cache_event(const CacheEvent& event) override;
  void register_stats(const stats::Group& group) override;
  std::string describe(unsigned scheduler) const override;

  const LostLocalityScores& scores() const { return scores_; }
  const VictimTagArray& victim_tags() const { return vta_; }

  // Storage the mechanism adds to one SM, in bits (§3.4.7): the victim tag
  // array, an owner-warp id per L1D line and one score register per warp
  // (10 bits in the thesis). `l1d_lines` = sets x ways.
  static uint64_t storage_bits(const PolicyParams& params, uint64_t l1d_lines);

 private:
  GtoPolicy gto_;
  LostLocalityScores scores_;
  VictimTagArray vta_;
  uint64_t cycle_ = 0;  // latest cycle seen (events arrive in cycle order)
  uint64_t updated_ = ~0ull;
  // Counters.
  uint64_t vta_inserts_ = 0;
  uint64_t vta_probes_ = 0;
  uint64_t vta_hits_ = 0;
  uint64_t blocked_warp_cycles_ = 0;  // sum over updates of warps without load permission
  uint64_t storage_bits_ = 0;
};

}  // namespace simtlm::models::sched
