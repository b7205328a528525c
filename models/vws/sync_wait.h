// E-VWS-Sync<N> (seed 002 §6.2.5, Fig 6.13; notes §10.5, §10.8): a warp of
// a split original gang that reaches a sync point waits up to N cycles there
// so that the other parts of its original gang can arrive and be merged by
// the opportunistic reformation. Plain data, no SystemC: the ganging unit
// (models/vws/ganging_unit.h) asks it from its issue gate, for independent
// warps and for gang members alike.
//
// Decisions where the seed is silent:
//  - The sync points are the reconvergence points of the kernel's possibly
//    divergent branches (ir::Instruction::reconverge_pc: the first
//    instruction of the branch's immediate post-dominator block), where the
//    seed's compiler puts its call-return-stack sync instructions.
//  - A warp arrives when it is first ready to issue the sync point's
//    instruction (it passed the SM's fixed checks: I-buffer, barrier,
//    scoreboard); it waits per warp, N cycles from its own arrival, so a
//    gang issues once its last member's wait is over.
//  - The wait ends early when the original gang is one unit again (all its
//    live warps in one gang, or one warp left): nothing is left to wait for.
//  - A warp that issued the instruction waits again the next time it is
//    ready at a sync point (a loop's next iteration).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace simtlm::ir {
struct Function;
}

namespace simtlm::models::vws {

class SyncWait {
 public:
  SyncWait(uint32_t warp_slots, uint32_t wait) : wait_(wait), state_(warp_slots, kIdle), since_(warp_slots, 0) {}

  uint32_t wait() const { return wait_; }
  // Warp `slot` is ready in cycle `c` to issue instruction `pc` of `kernel`;
  // `split`: its original gang is 2 or more units (gangs, independent
  // warps). True while it must wait.
  bool holds(uint32_t slot, const ir::Function* kernel, uint32_t pc, bool split, uint64_t c);
  // The warp issued (or finished): its next sync point is a new wait.
  void issued(uint32_t slot) { state_[slot] = kIdle; }
  // Whether `pc` of `kernel` is a sync point.
  bool is_sync_point(const ir::Function* kernel, uint32_t pc);

  uint64_t waits = 0;     // waits begun
  uint64_t timeouts = 0;  // waits that ended after N cycles, the gang still split
  uint64_t reformed = 0;  // waits that ended with the original gang one unit again
  uint64_t held = 0;      // warp-cycles held (issue checks answered "wait")

 private:
  enum : uint8_t { kIdle, kWaiting, kReleased };
  uint32_t wait_;
  std::vector<uint8_t> state_;
  std::vector<uint64_t> since_;
  std::unordered_map<const ir::Function*, std::vector<uint8_t>> points_;  // per kernel: pc is a sync point
};

}  // namespace simtlm::models::vws
