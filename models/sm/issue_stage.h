// The SM's issue stage: per scheduler and cycle, walks the policy's warp
// order, asks each warp's next instruction the fixed checks (I-buffer,
// barrier, scoreboard), the issue gates (models/sm/issue_gate.h) and the
// structural checks (operand collector, execution unit, LD/ST backlog), and
// issues the first that passes: functional execution, operand collection,
// dispatch to its pipeline or the LD/ST unit, barrier and exit effects.
// Every slot is charged one reason (models/sm/sm_stats.h).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "models/sched/policy.h"
#include "models/sm/cta_table.h"
#include "models/sm/exec_units.h"
#include "models/sm/front_end.h"
#include "models/sm/issue_gate.h"
#include "models/sm/ldst_unit.h"
#include "models/sm/operand_collector.h"
#include "models/sm/scoreboard.h"
#include "models/sm/sm_events.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/sm/warp_group_unit.h"
#include "models/sm/warp_table.h"

namespace simtlm::models {

class SmServices;

class IssueStage final : private GroupIssueAccess {
 public:
  struct Parts {
    WarpTable& warps;
    FrontEnd& front;
    Scoreboard& scoreboard;
    OperandCollector& collector;
    ExecUnits& units;
    WritebackQueue& writebacks;
    LdstUnit& ldst;
    CtaTable& ctas;
    sched::Policy& policy;
    SmStats& stats;
    const SmEventBus& bus;
    SmServices& services;
  };
  IssueStage(const SmParams& p, Parts parts);

  // Appends a gate (asked after those already there).
  void add_gate(IssueGate& gate);
  const std::vector<IssueGate*>& gates() const { return gates_; }
  // A unit issuing groups of warps before the schedulers (not owned;
  // models/sm/warp_group_unit.h). None by default.
  void set_group_unit(WarpGroupUnit* unit) { group_unit_ = unit; }

  // Runs every scheduler for cycle c. Returns false when a device fault, or
  // an error an issue gate raised (a model check), stopped the SM (fault()
  // holds it).
  bool run(uint64_t c);
  void begin_cycle() {
    issued_this_cycle_ = false;
    throttled_this_cycle_ = false;
    structural_wake_ = kNeverCycle;
  }
  // Charges `gap` skipped cycles to each scheduler's last reason.
  void credit(uint64_t gap) {
    for (uint8_t r : last_reason_) slot_counter(r) += gap;
  }
  bool wants_next_cycle() const { return issued_this_cycle_ || throttled_this_cycle_; }
  uint64_t& structural_wake() { return structural_wake_; }
  uint64_t structural_wake_cycle() const { return structural_wake_; }
  std::exception_ptr fault() const { return fault_; }
  uint64_t last_issue_cycle() const { return last_issue_cycle_; }
  // Warps of `cs` parked at a barrier whose functional wait something outside
  // the SM has cleared (a platform's cross-CTA rendezvous, e.g. the SPU's
  // bar.blocksync) are released at cycle c: eligible from c + 1.
  void release_external(CtaState& cs, uint64_t c);

 private:
  uint64_t& slot_counter(uint8_t reason);
  static int reason_priority(uint8_t reason);
  void refresh_flags();
  template <bool Grouped>
  bool run_schedulers(uint64_t c, uint64_t closed);
  // GroupIssueAccess (for the group unit).
  bool ready(uint32_t slot, uint64_t c) override;
  bool issue(uint32_t slot, uint64_t c) override;
  IssueReason check_ready(uint32_t slot, uint64_t c, sched::StallKind& stall);
  bool gates_allow(const WarpState& w, const InstTiming& info, uint32_t slot, uint64_t c, sched::StallKind& stall);
  void barrier_effects(const functional::ExecRecord& rec, WarpState& w, CtaState& cs, uint32_t slot, uint64_t c);
  void release_waiters(CtaState& cs, uint64_t c);
  // Tells the SM's observers that warp `ws` of `cs` arrived at or left a barrier.
  void publish_barrier(const CtaState& cs, uint32_t ws, sched::BarrierEvent kind, uint64_t c);

  const SmParams& p_;
  uint32_t max_warps_;
  // Read on every cycle.
  bool issued_this_cycle_ = false;
  bool throttled_this_cycle_ = false;
  bool no_issue_veto_ = true;      // no gate: memory and structural stalls may park
  bool scan_memo_usable_ = false;  // see WarpTable::ScanMemo
  bool policy_wants_stalls_ = false;
  bool policy_wants_details_ = false;  // Policy::wants_issue_details
  uint64_t structural_wake_ = kNeverCycle;  // earliest cycle a structural stall clears
  std::vector<uint8_t> last_reason_;        // per scheduler, for skipped cycles
  Parts parts_;
  std::vector<IssueGate*> gates_;
  WarpGroupUnit* group_unit_ = nullptr;
  uint64_t last_issue_cycle_ = 0;
  std::exception_ptr fault_;
};

}  // namespace simtlm::models
