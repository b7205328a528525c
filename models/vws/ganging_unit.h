// The warp ganging unit of the VWS SM in mixed mode (seed 002 §6.2, notes
// §10.2-10.7): the slice-only SM (models/vws/vws_params.h) plus this unit,
// which the vws platform installs as the SM's warp group unit
// (models/sm/warp_group_unit.h). Each cycle:
//
//   issue   memory-divergence splits of the cycle's writebacks (impatient or
//           group), then one opportunistic reformation step (E-VWS), then the
//           gang issue scheduler: every gang whose members all pass the issue
//           checks is a candidate; up to gangs_per_cycle of them with
//           disjoint slice masks issue (GangIssue), every member in this
//           cycle; their slices' own schedulers then sit the cycle out. After
//           a gang issued, members at different pcs split (split_by_pc).
//   fetch   an independent warp's fetch that hits its slice's L0 I-cache
//           (L0ICache) needs no port; the fetch arbiter (FetchArbiter)
//           grants the L1 I-cache's ports: gangs first (one fetch at the
//           gang's pc fills every member's I-buffer), then one independent
//           warp per slice, fair among slices.
//
// A gate keeps ganged warps from their slices' schedulers (they issue only
// as a gang) and, with E-VWS-Sync, holds warps at sync points (SyncWait); as an observer the unit forms gangs at CTA activation, retires
// finished warps and sees memory writebacks.
#pragma once

#include <cstdint>
#include <vector>

#include "models/sm/issue_gate.h"
#include "models/sm/sm_events.h"
#include "models/sm/warp_group_unit.h"
#include "models/vws/fetch_arbiter.h"
#include "models/vws/gang_issue.h"
#include "models/vws/gang_table.h"
#include "models/vws/l0_icache.h"
#include "models/vws/sync_wait.h"
#include "models/vws/vws_params.h"

namespace simtlm::models {
class Sm;
}

namespace simtlm::models::vws {

struct GangingParams {
  uint32_t slices = 8;
  uint32_t warp_slots = 256;     // the SM's warp slots (a multiple of slices)
  uint32_t fetch_ports = 8;      // L1 I-cache fetches per cycle
  uint32_t gangs_per_cycle = 2;
  GangOrder order = GangOrder::Bgto;
  MemSplit mem_split = MemSplit::None;
  Reform reform = Reform::None;
  uint32_t sync_wait = 0;       // Reform::Sync: cycles a warp waits at a sync point
  uint32_t l0_entries = 0;      // per-slice L0 I-cache, instructions (0 = none)
  uint32_t l0_hit_latency = 1;  // cycles (the L1 I-cache's hit latency)
};
GangingParams ganging_params(const VwsParams& v, const SmParams& sm);

class GangingUnit final : public WarpGroupUnit, public IssueGate, public SmObserver {
 public:
  GangingUnit(const GangingParams& p, const WarpGroupParts& parts);

  // Installs a ganging unit in `sm` (gate, observer, warp group unit); the
  // SM owns it.
  static GangingUnit& install(Sm& sm, const GangingParams& p);

  // WarpGroupUnit.
  uint64_t issue_groups(uint64_t cycle, GroupIssueAccess& stage) override;
  void fetch(uint64_t cycle, uint64_t& structural_wake) override;
  void register_stats(const stats::Group& g) override;
  // IssueGate: a ganged warp issues only with its gang.
  const char* name() const override { return "warp ganging unit"; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override;
  // SmObserver.
  void on_cta_activate(const CtaEvent& e) override;
  void on_warp_finish(const WarpEvent& e) override;
  void on_writeback(const RegisterAccess& a) override;
  void on_warp_issue(const IssueRecord& r) override;

  const GangTable& table() const { return table_; }
  const SyncWait& sync() const { return sync_; }

  struct Counters {
    uint64_t gangs_formed = 0;
    uint64_t gang_fetches = 0;          // one per gang fetch (decoded once)
    uint64_t gang_issues = 0;           // gang instructions issued
    uint64_t gang_warp_instructions = 0;  // member instructions they stand for
    uint64_t gang_thread_instructions = 0;
    std::vector<uint64_t> slice_fetches;  // per slice: fetches of its independent warps
    std::vector<uint64_t> gangs_issued;   // element k: cycles in which k >= 1 gangs issued
    std::vector<uint64_t> gang_lanes;     // gang instructions by active lanes
    uint64_t l0_hits = 0;    // independent warps' fetches served by their slice's L0
    uint64_t l0_misses = 0;  // independent warps' fetches that went to the L1 I-cache (with an L0)
  };
  const Counters& counters() const { return n_; }

 private:
  uint32_t slot(uint32_t set, uint32_t slice) const { return set * p_.slices + slice; }
  // Member warp slots of a gang, in slice order.
  void members(uint32_t gang, std::vector<uint32_t>& out) const;
  bool all_ready(const std::vector<uint32_t>& m, uint64_t c, GroupIssueAccess& stage) const;
  void memory_splits();
  void reform_step();
  // Issues one gang (all members ready); false on a device fault.
  bool issue_gang(uint32_t gang, uint64_t c, GroupIssueAccess& stage, uint64_t& closed);
  uint32_t gang_fetch_requests(std::vector<uint32_t>& gangs);
  SliceMask slice_fetch_requests(uint64_t c, std::vector<uint32_t>& warp_of_slice);
  // An L0 hit for warp `ws` of slice `s`: the fetch is served (true).
  bool fetch_from_l0(uint64_t c, uint32_t s, uint32_t ws);

  GangingParams p_;
  WarpGroupParts parts_;
  GangTable table_;
  GangIssue issue_;
  FetchArbiter arbiter_;
  SyncWait sync_;
  std::vector<L0ICache> l0_;             // per slice (empty: no L0)
  bool gang_phase_ = false;  // the gate lets ganged warps through
  std::vector<uint32_t> pending_loads_;  // per warp slot: loads issued as a gang member, not yet written back
  std::vector<SliceMask> ready_now_;     // per set: members whose last such load came back this cycle
  std::vector<uint32_t> touched_sets_;
  uint32_t fetch_rr_ = 0;                // gang fetch round-robin (gang id)
  std::vector<uint32_t> slice_rr_;       // per slice: set to start from
  std::vector<uint32_t> scratch_;
  Counters n_;
};

}  // namespace simtlm::models::vws
