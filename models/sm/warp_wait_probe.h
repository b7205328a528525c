// The SM's answer to sched::WarpWaitProbe from its warp table: a warp waits
// while it is at a barrier (WarpState::waiting, cleared by the release) or
// while its last examination found it blocked on a register whose write
// waits for memory (WarpState::sb_blocked with a LongLatency kind, cleared
// by any writeback of the warp; the next examination then tells again).
#pragma once

#include "models/sched/policy.h"
#include "models/sm/warp_table.h"

namespace simtlm::models {

class WarpWaitProbe final : public sched::WarpWaitProbe {
 public:
  explicit WarpWaitProbe(const WarpTable& warps) : warps_(warps) {}
  bool waits(uint32_t slot) const override {
    const WarpState& w = warps_[slot];
    return w.waiting || (w.sb_blocked && w.sb_kind == sched::StallKind::LongLatency);
  }

 private:
  const WarpTable& warps_;
};

}  // namespace simtlm::models
