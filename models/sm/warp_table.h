// The SM's warp slots and what the issue stage knows about each: the
// per-warp timing state (I-buffer, scoreboard words, barrier mirror), the
// parking of warps that wait for a known event, and the per-scheduler scan
// memo. Every SM part that changes a warp's readiness (front end, scoreboard,
// barriers, CTA table) parks and unparks through this table, so the issue
// scan can skip warps that cannot have become ready.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "functional/warp.h"
#include "models/sm/inst_timing.h"
#include "models/sched/policy.h"

namespace simtlm::models {

class KernelTiming;


// Why an issue slot went unused (index into the slot counters).
enum IssueReason : uint8_t { kIssued, kIdle, kFetch, kBarrier, kScoreboard, kPipeline, kMemory, kThrottled, kReasons };

// The first cache line holds what the issue scan reads on every
// examination; the rest is touched on issue, fetch and CTA events. One warp
// per line start, so an examination costs one line.
struct alignas(64) WarpState {
  functional::Warp* warp = nullptr;
  // Scoreboard (bit sets over registers, in `scoreboard`): registers with a
  // write in flight, and those of them that wait for memory.
  uint64_t* pending = nullptr;
  uint64_t* pending_long = nullptr;
  const KernelTiming* timing = nullptr;  // the CTA's table (the CTA table keeps it alive)
  // I-buffer: instructions [ib_pc, ib_pc + ib_count) are decoded.
  uint32_t ib_pc = 0;
  uint32_t ib_count = 0;
  uint64_t eligible_from = 0;  // a warp released from a barrier issues from the next cycle
  // The functional warp's pc and barrier wait, mirrored after each of its
  // CTA's instructions (only they change them), so that examining a warp
  // does not touch the functional state. Valid while live.
  uint32_t pc = 0;
  // Last examination (describe_stall): reason and blocking register.
  uint32_t blocking_reg = kNoSlot;
  bool waiting = false;
  // A scoreboard stall stays until one of the warp's writebacks lands:
  // cached so stalled warps cost almost nothing to re-examine.
  bool sb_blocked = false;
  sched::StallKind sb_kind = sched::StallKind::Scoreboard;
  sched::StallKind last_stall = sched::StallKind::Fetch;
  bool live = false;  // resident, not finished and not suspended
  // ---- second line
  std::vector<uint64_t> scoreboard;  // pending words, then pending_long words
  bool resident = false;  // slot holds a warp of a resident CTA
  bool finished = false;  // the warp executed its exit
  bool fetch_inflight = false;
  bool at_barrier = false;
  uint32_t cta_slot = 0;
  uint32_t warp_in_cta = 0;
  uint32_t scheduler = 0;
  uint32_t outstanding = 0;  // writebacks and memory operations in flight
  uint64_t age = 0;
  uint64_t fetch_ready = 0;
  uint32_t fetch_pc = 0;
  uint32_t fetch_count = 0;
};

class WarpTable {
 public:
  // Parking: a warp found blocked by a condition that only a known event can
  // clear is not re-examined until that event (issue scans touch one byte
  // per parked warp instead of its state). parked(slot) is kIssued (0) when
  // the warp must be examined, else the reason it keeps reporting:
  //   kScoreboard  mirrors WarpState::sb_blocked (cleared by a writeback)
  //   kBarrier     waiting at a barrier (cleared by a release or exit in its CTA)
  //   kFetch       empty I-buffer (cleared by the fetch arrival)
  //   kMemory      memory instruction behind a non-empty LD/ST backlog
  //                (holds while the backlog is not empty; only when no issue
  //                gate can veto issue, so the reason cannot change)
  //   kParkedDead  slot without a live warp (free, finished or suspended)
  // A structural stall (execution unit or operand collector busy until a
  // known cycle; units' free cycles never move earlier) parks the warp until
  // that cycle with kPipeline or kMemory; the scan still takes the cycle as
  // the SM's structural wake-up, as the examination would have.
  static constexpr uint8_t kParkedDead = kReasons;
  // Parks that last until an event (no deadline, no dependence on the LD/ST
  // backlog), as a bit per reason: an issue scan skips such warps with one
  // test, their reasons having distinct priorities (reason_priority).
  static constexpr uint32_t kEventReasons = (1u << kScoreboard) | (1u << kBarrier) | (1u << kFetch);
  static constexpr uint32_t kWaitsForEvent = kEventReasons | (1u << kParkedDead);

  // Scan memo: when a scheduler's issue scan issued nothing and every warp it
  // offered was parked, the next scan repeats that result (same reason, same
  // structural wake-up) until one of those parks can change: a park or unpark
  // of one of its warps (which also covers warps arriving and leaving), a
  // structural park running out (until), or the LD/ST backlog emptying when a
  // warp is parked behind it (needs_backlog). Used only when the scan has no
  // other effects: no issue gate, the policy takes no stall events and its
  // order changes only through events.
  struct ScanMemo {
    bool valid = false;
    bool needs_backlog = false;
    uint64_t until = kNeverCycle;
  };

  WarpTable(uint32_t max_warps, uint32_t schedulers)
      : warps_(max_warps), parked_(max_warps, kParkedDead), parked_until_(max_warps, kNeverCycle),
        scan_memo_(schedulers), sched_live_(schedulers, 0) {}

  uint32_t size() const { return static_cast<uint32_t>(warps_.size()); }
  WarpState& operator[](uint32_t slot) { return warps_[slot]; }
  const WarpState& operator[](uint32_t slot) const { return warps_[slot]; }
  uint32_t slot_of(const WarpState& w) const { return static_cast<uint32_t>(&w - warps_.data()); }

  uint8_t parked(uint32_t slot) const { return parked_[slot]; }
  uint64_t parked_until(uint32_t slot) const { return parked_until_[slot]; }
  void park(uint32_t slot, uint8_t reason) {
    parked_[slot] = reason;
    parked_until_[slot] = kNeverCycle;
    forget_scan(slot);
  }
  void park_until(uint32_t slot, uint8_t reason, uint64_t cycle) {
    parked_[slot] = reason;
    parked_until_[slot] = cycle;
    forget_scan(slot);
  }
  void unpark(uint32_t slot, uint8_t reason) {
    if (parked_[slot] == reason) {
      parked_[slot] = kIssued;
      forget_scan(slot);
    }
  }
  // A structural park ran out: the warp is examined again (the scheduler's
  // memo is being rebuilt by the scan that does this).
  void clear_park(uint32_t slot) { parked_[slot] = kIssued; }

  ScanMemo& memo(uint32_t scheduler) { return scan_memo_[scheduler]; }
  void forget_scan(uint32_t slot) { scan_memo_[warps_[slot].scheduler].valid = false; }
  // Records a warp the scan left parked: its structural deadline, or that it
  // waits behind the LD/ST backlog.
  void note_parked(uint32_t slot, uint64_t& until, bool& needs_backlog) const {
    const uint64_t u = parked_until_[slot];
    if (u != kNeverCycle) {
      until = std::min(until, u);
    } else if (parked_[slot] == kMemory) {
      needs_backlog = true;
    }
  }
  bool memo_holds(const ScanMemo& m, uint64_t c, bool backlog_busy) const {
    return m.valid && c < m.until && (!m.needs_backlog || backlog_busy);
  }

  // Live (offered) warps per scheduler.
  uint32_t live_on(uint32_t scheduler) const { return sched_live_[scheduler]; }
  void add_live(uint32_t scheduler) { ++sched_live_[scheduler]; }
  void remove_live(uint32_t scheduler) { --sched_live_[scheduler]; }

  static bool reg_set(const uint64_t* bits, uint32_t r) { return (bits[r >> 6] >> (r & 63)) & 1u; }

 private:
  std::vector<WarpState> warps_;
  std::vector<uint8_t> parked_;          // per warp slot, see park()
  std::vector<uint64_t> parked_until_;   // per warp slot: parked while cycle < this
  std::vector<ScanMemo> scan_memo_;      // per scheduler
  std::vector<uint32_t> sched_live_;     // live warps per scheduler
};

}  // namespace simtlm::models
