// Issue gates: the configurable checks a warp's next instruction must pass
// before it may issue, asked in order after the SM's fixed checks (I-buffer,
// barrier, scoreboard) and before the structural ones (operand collector,
// execution unit, LD/ST backlog). A gate that says no names the stall kind
// the issue slot is charged with, so stall statistics stay exact whatever
// the mechanism (sharing locks, policy vetoes, register power states, ...).
//
// The SM builds its gate list at construction: the scheduling policy's veto
// (when Policy::vetoes_issue()), then the register and shared-memory
// allocators (when their gates_issue()), then any gate added with
// Sm::add_issue_gate. With an empty list the SM may park warps stalled on
// memory and memoise scans (models/sm/warp_table.h): a gate's answer can
// change from one cycle to the next without an event the SM sees, so with a
// gate present a vetoed warp is re-examined every cycle.
#pragma once

#include <cstdint>

#include "frontend/ir/instruction.h"
#include "frontend/ir/module.h"
#include "models/sched/policy.h"

namespace simtlm::functional {
class LaunchContext;
class Warp;
}  // namespace simtlm::functional

namespace simtlm::models {

struct InstTiming;

// The instruction a warp is about to issue.
struct GateQuery {
  uint64_t cycle = 0;
  uint32_t warp_slot = 0;    // SM-wide warp slot
  uint32_t cta_slot = 0;     // SM-wide CTA slot
  uint64_t cta_id = 0;       // linear CTA id in its launch
  uint32_t warp_in_cta = 0;  // warp index inside the CTA
  uint32_t pc = 0;
  const ir::Instruction* inst = nullptr;  // nullptr for the implicit final exit
  const InstTiming* timing = nullptr;     // execution class, registers read and written
  // The kernel (the variant the launch runs): its kept analyses and the
  // per-instruction annotations front-end passes attached (index = pc).
  const ir::Function* kernel = nullptr;
  // The warp's functional state and its launch (what the instruction would
  // access can be computed before it executes, functional/shared_access.h).
  const functional::Warp* warp = nullptr;
  const functional::LaunchContext* ctx = nullptr;
};

class IssueGate {
 public:
  virtual ~IssueGate() = default;
  virtual const char* name() const = 0;
  // True when the instruction may issue now. Otherwise sets `stall` to the
  // reason charged to the slot (Throttled for locks and vetoes; Pipeline for
  // a structure that is waking up; ...).
  virtual bool allows(const GateQuery& query, sched::StallKind& stall) = 0;
};

}  // namespace simtlm::models
