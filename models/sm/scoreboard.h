// Per-warp scoreboard: a bit per register with a write in flight, and a
// second bit set for those whose write waits for memory (the stall is then
// LongLatency rather than Scoreboard). An instruction may issue when none of
// its source or destination registers is pending (RAW and WAW). A blocked
// warp parks until one of its writebacks lands.
#pragma once

#include <cstdint>

#include "models/sm/inst_timing.h"
#include "models/sm/warp_table.h"

namespace simtlm::models {

class Scoreboard {
 public:
  explicit Scoreboard(WarpTable& warps) : warps_(warps) {}

  // Marks the instruction's destinations pending (long: they wait for memory).
  static void reserve(WarpState& w, const InstTiming& info, bool long_latency) {
    for (unsigned i = 0; i < info.num_dst; ++i) {
      const uint32_t r = info.dst[i];
      w.pending[r >> 6] |= 1ull << (r & 63);
      if (long_latency) w.pending_long[r >> 6] |= 1ull << (r & 63);
    }
  }

  // The instruction's destinations were written back: the warp may issue again.
  void release(WarpState& w, const InstTiming& info) {
    w.sb_blocked = false;
    warps_.unpark(warps_.slot_of(w), kScoreboard);
    for (unsigned i = 0; i < info.num_dst; ++i) {
      const uint32_t r = info.dst[i];
      w.pending[r >> 6] &= ~(1ull << (r & 63));
      w.pending_long[r >> 6] &= ~(1ull << (r & 63));
    }
  }

  // True when an operand of `info` is pending: records the first one in
  // operand order as the warp's blocking register, sets `stall` and parks
  // the warp until a writeback.
  bool blocks(WarpState& w, const InstTiming& info, sched::StallKind& stall) {
    // No register in flight among the operands (the common case) is one mask
    // test; otherwise the walk finds the first blocking one in operand order.
    const bool surely_free = info.operand_mask_complete &&
                             ((w.pending[0] & info.operand_mask[0]) | (w.pending[1] & info.operand_mask[1])) == 0;
    for (unsigned i = 0; !surely_free && i < info.num_src + info.num_dst; ++i) {
      const uint32_t r = i < info.num_src ? info.src[i] : info.dst[i - info.num_src];
      if (WarpTable::reg_set(w.pending, r)) {
        w.blocking_reg = r;
        stall = WarpTable::reg_set(w.pending_long, r) ? sched::StallKind::LongLatency : sched::StallKind::Scoreboard;
        w.sb_blocked = true;
        w.sb_kind = stall;
        warps_.park(warps_.slot_of(w), kScoreboard);
        return true;
      }
    }
    return false;
  }

 private:
  WarpTable& warps_;
};

}  // namespace simtlm::models
