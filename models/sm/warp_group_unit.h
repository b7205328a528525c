// A mechanism that fetches and issues groups of warps together, ahead of the
// SM's own front end and schedulers: the vws platform's warp ganging unit
// (models/vws/ganging_unit.h), whose gangs of 4-wide warps fetch once for all
// members and issue in lock-step, all members or none, in one cycle.
//
// The SM has at most one such unit (Sm::set_warp_group_unit; a platform
// builder installs it). Without one the SM's tick and issue stage are the
// baseline's (one pointer test per cycle each). With one, each cycle:
//   issue_groups  runs before the schedulers: it may ask whether a warp's
//                 next instruction passes every issue check (ready()) and
//                 issue it (issue()); the schedulers whose bit it returns
//                 spend the cycle on its groups (their slot counts as issued)
//                 and do not scan their own warps;
//   fetch         replaces the front end's fetch (FrontEnd::fetch_group sends
//                 one fetch for a group of warps at one pc).
// Warps a unit holds back from the schedulers are vetoed by an issue gate of
// its own (Sm::add_issue_gate); it hears warp and CTA events as an SmObserver.
#pragma once

#include <cstdint>

#include "simtlm/stats.h"

namespace simtlm::models {

class CtaTable;
class FrontEnd;
class WarpTable;

// What the issue stage lends a unit during issue_groups.
class GroupIssueAccess {
 public:
  virtual ~GroupIssueAccess() = default;
  // The warp's next instruction passes the fixed checks, the issue gates and
  // the structural checks now (a failing check parks the warp as a
  // scheduler's examination would).
  virtual bool ready(uint32_t slot, uint64_t cycle) = 0;
  // Issues it (functional execution, operand collection, dispatch). False
  // when a device fault stopped the SM: the unit must return at once.
  virtual bool issue(uint32_t slot, uint64_t cycle) = 0;
};

// The SM parts a unit may use (it keeps references; they outlive it).
struct WarpGroupParts {
  WarpTable& warps;
  FrontEnd& front;
  CtaTable& ctas;
};

class WarpGroupUnit {
 public:
  virtual ~WarpGroupUnit() = default;
  // Returns the schedulers (bit per scheduler) whose slot its groups used.
  virtual uint64_t issue_groups(uint64_t cycle, GroupIssueAccess& stage) = 0;
  // The cycle's fetches (instead of FrontEnd::fetch). Lowers
  // `structural_wake` to the cycle an instruction-cache MSHR frees when
  // every one is busy.
  virtual void fetch(uint64_t cycle, uint64_t& structural_wake) = 0;
  // Its counters, under the SM's group.
  virtual void register_stats(const stats::Group& g) = 0;
};

}  // namespace simtlm::models
