// When a resident CTA counts as fully stalled and when a pending one is
// ready again: the switching trigger shared by FineReg and its comparison
// mechanisms (Virtual Thread, Reg+DRAM; seed note 004 §2.7, §2.10).
#pragma once

#include <cstdint>

#include "models/sm/cta_table.h"
#include "models/sm/cycle_hook.h"
#include "models/sm/warp_table.h"

namespace simtlm::models::finereg {

// An active, unsuspended CTA with memory operations in flight whose every
// unfinished warp waits for a register a memory operation writes
// (scoreboard, LongLatency) or at a barrier (a CTA merely short of an ALU
// result is not stalled).
inline bool cta_fully_stalled(const SmInternals& sm, uint32_t slot) {
  const CtaState& cs = sm.ctas[slot];
  if (cs.status != CtaState::Status::Active || cs.suspended || cs.outstanding == 0) return false;
  bool any = false;
  for (uint32_t ws : cs.warp_slots) {
    const WarpState& w = sm.warps[ws];
    if (w.finished) continue;
    any = true;
    const bool on_memory = w.sb_blocked && w.sb_kind == sched::StallKind::LongLatency;
    if (!on_memory && !w.at_barrier) return false;
  }
  return any;
}

// A pending CTA may run again once everything it had in flight returned
// (its writebacks landed: no pending-write hazard, note §2.11.1).
inline bool cta_drained(const SmInternals& sm, uint32_t slot) { return sm.ctas[slot].outstanding == 0; }

}  // namespace simtlm::models::finereg
