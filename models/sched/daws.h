// Divergence-aware warp scheduling (Rogers §4.2, seed note 002 §7): GTO
// order; every warp inside a loop with intra-warp locality carries a
// predicted cache footprint (models/sched/daws_footprint.h) for its active
// lanes, and the loads through the L1D of the warps whose footprints, summed
// oldest first, reach EffCacheSize = assoc_factor x L1D lines are vetoed
// until older warps leave their loops or lose lanes. Other instructions
// issue normally.
//
// Loop begin and exit come from our loop analysis (models/sched/daws_loops.h).
// The prediction table (D), per warp {loop, footprint}:
//   the warp issues the first instruction of loop L with n lanes active:
//     if its entry holds a loop nested in L (it is back in L after running
//     that inner loop), the footprint is recomputed from the inner loop with
//     n lanes and the entry keeps the inner loop (§7.3 "inner loops": the
//     innermost loop's footprint limits the warps admitted to the outer);
//     otherwise the entry becomes {L, footprint(L, n)};
//   after an instruction whose next pc is outside the entry's loop: the
//   entry is kept when the next pc is inside a loop enclosing it, cleared
//   otherwise (and when the warp finishes);
//   the warp waits at a barrier: cleared (deadlock avoidance).
// The thesis compares loop-begin pcs to tell inner from outer loops; the
// nesting from the loop analysis says the same for nested loops and does not
// confuse sibling loops.
// Warps outside loops: while some warp has a footprint, a warp without an
// entry counts with the footprint of the next loop after its pc in program
// order, with the lanes of its last instruction; a warp waiting at a barrier
// counts nothing (else it could block the warps it waits for).
//
// mode = profiled: footprints per loop come from a profile
// (models/sched/daws_profile.h). mode = detected: they are learned online
// by sampling warps (models/sched/daws_kernel.h), with the L1D's events and
// per-warp victim tags (ccws's, models/sched/victim_tags.h) as feedback.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/sched/daws_kernel.h"
#include "models/sched/daws_repetition.h"
#include "models/sched/gto.h"
#include "models/sched/victim_tags.h"

namespace simtlm::models::sched {

class DawsPolicy : public Policy {
 public:
  explicit DawsPolicy(const PolicyParams& params);
  const char* name() const override { return "daws"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  bool vetoes_issue() const override { return true; }
  bool allows_l1d_load(uint32_t slot) const override { return slot >= can_load_.size() || can_load_[slot]; }
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  bool wants_issue_details() const override { return true; }
  void on_issue_detail(const IssueDetail& detail) override;
  void on_barrier(uint32_t slot, BarrierEvent event, uint64_t cycle) override;
  bool wants_cache_events() const override { return detected_; }
  void on_cache_event(const CacheEvent& event) override;
  void register_stats(const stats::Group& group) override;
  std::string describe(unsigned scheduler) const override;

  // ---- the mechanism without an SM (tests) ------------------------------
  // The kernel behind `key` (its index; created on first sight, with the
  // profile applied in profiled mode).
  uint32_t kernel_index(const void* key, const std::string& name, uint32_t instructions, DawsLoopTable loops);
  struct Issue {
    uint32_t pc = 0;
    uint32_t active_lanes = 0;
    uint32_t exec_lanes = 0;  // lanes whose guard held (the load's lanes)
    uint32_t next_pc = 0;
    bool finished = false;
    bool l1d_load = false;
    std::vector<uint64_t> lines;  // distinct line numbers of an L1D load
  };
  void issued(uint32_t slot, uint32_t kernel, const Issue& issue);
  // Recomputes the load permissions (order() does it once per cycle).
  void admit();

  DawsKernel& kernel(uint32_t k) { return *kernels_[k]; }
  // The footprint the table predicts for `slot` (0: none).
  uint64_t prediction(uint32_t slot) const { return slot < warps_.size() ? warps_[slot].footprint : 0; }
  // Loop of `slot`'s table entry (DawsLoopTable::kNone: none).
  uint32_t entry_loop(uint32_t slot) const { return slot < warps_.size() ? warps_[slot].loop : DawsLoopTable::kNone; }
  double eff_cache_lines() const { return eff_lines_; }
  uint32_t blocked() const { return blocked_; }
  // Footprints learned so far (detected) or read (profiled), per kernel name.
  DawsProfile profile();

 private:
  struct Warp {
    bool live = false;
    bool at_barrier = false;
    uint64_t age = 0;
    uint32_t kernel = DawsLoopTable::kNone;
    uint32_t loop = DawsLoopTable::kNone;  // table entry
    uint64_t footprint = 0;
    uint32_t pc = 0;                       // next pc
    uint32_t lanes = 0;                    // active lanes of its last instruction
    uint32_t sampled_loop = DawsLoopTable::kNone;  // loop of its last L1D load, when it sampled it
    std::vector<uint32_t> sampling;        // loops (of `kernel`) it samples
  };
  uint64_t lines_for(uint32_t kernel, uint32_t loop, uint32_t lanes);
  void clear_entry(Warp& w);
  void leave_samplers(uint32_t slot, Warp& w, uint32_t next_pc, bool all);

  GtoPolicy gto_;
  bool detected_;
  bool lane_aware_;
  uint32_t warp_size_;
  uint32_t line_shift_ = 7;
  double eff_lines_;
  std::string profile_path_;
  std::unique_ptr<DawsProfile> profile_;  // profiled
  std::vector<Warp> warps_;
  std::vector<uint8_t> can_load_;
  std::vector<std::unique_ptr<DawsKernel>> kernels_;
  std::map<const void*, uint32_t> kernel_of_;
  const void* last_fn_ = nullptr;  // the kernel of the last issue, and its index
  uint32_t last_k_ = 0;
  RepetitionDetector ilrd_;
  VictimTagArray vta_;
  std::vector<uint64_t> lines_scratch_;
  std::vector<DawsCandidate> candidates_;  // scratch
  bool dirty_ = true;
  uint64_t updated_ = ~0ull;
  uint32_t blocked_ = 0;
  struct Counters {
    uint64_t loop_begins = 0;
    uint64_t sampled_loads = 0;
    uint64_t locality_votes = 0;
    uint64_t no_locality_votes = 0;
    uint64_t vta_hits = 0;
    uint64_t blocked_warp_cycles = 0;
    uint64_t storage_bits = 0;
  } n_;
};

}  // namespace simtlm::models::sched
