// Warp state and the SIMT reconvergence stack (see the decision block in warp.h).
#include "functional/warp.h"

#include <algorithm>
#include <string>

#include "simtlm/error.h"

namespace simtlm::functional {

Warp::Warp(unsigned width, uint32_t num_regs, uint32_t index, uint32_t first_thread,
           uint64_t live_mask, const std::vector<uint32_t>* zero_regs)
    : width_(width),
      num_regs_(num_regs),
      index_(index),
      first_thread_(first_thread),
      live_(live_mask),
      regs_(new uint64_t[size_t(num_regs) * width]),
      carry_(width, 0),
      scratch_(size_t(kScratchSlots) * width, 0),
      addresses_(width, 0),
      host_ptrs_(width, nullptr) {
  if (width < 1 || width > 64) {
    throw Error(ErrorKind::Internal, "warp width " + std::to_string(width) + " outside 1..64");
  }
  if (zero_regs == nullptr) {
    std::fill_n(regs_.get(), size_t(num_regs) * width, uint64_t{0});
  } else {
    for (uint32_t r : *zero_regs) {
      if (r < num_regs) std::fill_n(reg(r), width, uint64_t{0});
    }
  }
  stack_.reserve(16);
  if (live_mask != 0) push(0, ir::kNoReconvergence, live_mask);
  record_.addresses = addresses_.data();
}

void Warp::settle() {
  while (!stack_.empty()) {
    const StackEntry& top = stack_.back();
    if (top.mask != 0 && top.pc != top.rpc) break;
    stack_.pop_back();
  }
}

void Warp::advance() {
  StackEntry& top = stack_.back();
  ++top.pc;
  if (top.pc == top.rpc) settle();
}

void Warp::jump(uint32_t target) {
  StackEntry& top = stack_.back();
  top.pc = target;
  if (top.pc == top.rpc) settle();
}

// Turns the top entry into the reconvergence entry of a divergence that
// reconverges at `rpc`, or drops it when it already reconverges there (its
// lanes are then collected by the entry below, which waits at `rpc`).
void Warp::open_divergence(uint32_t rpc) {
  StackEntry& top = stack_.back();
  if (top.rpc == rpc) {
    stack_.pop_back();
  } else {
    top.pc = rpc;
  }
}

bool Warp::branch(uint64_t taken, uint32_t target, uint32_t rpc) {
  StackEntry& top = stack_.back();
  const uint64_t active = top.mask;
  const uint32_t fall = top.pc + 1;
  taken &= active;
  if (taken == 0) {
    advance();
    return false;
  }
  if (taken == active || target == fall) {
    jump(target);
    return false;
  }
  const uint64_t not_taken = active & ~taken;
  open_divergence(rpc);
  if (target != rpc) push(target, rpc, taken);
  if (fall != rpc) push(fall, rpc, not_taken);  // on top: the fall-through path runs first
  settle();
  return true;
}

bool Warp::branch_multi(const uint32_t* targets, const uint64_t* masks, unsigned n, uint32_t rpc) {
  if (n == 1) {
    jump(targets[0]);
    return false;
  }
  open_divergence(rpc);
  for (unsigned i = n; i-- > 0;) {
    if (targets[i] != rpc) push(targets[i], rpc, masks[i]);
  }
  settle();
  return true;
}

void Warp::retire(uint64_t lanes) {
  live_ &= ~lanes;
  for (StackEntry& e : stack_) e.mask &= ~lanes;
  settle();
}

void Warp::set_waiting(unsigned barrier_id, uint64_t lanes, int32_t red_dst_offset, uint32_t pc) {
  barrier_pc_ = pc;
  waiting_ = true;
  barrier_id_ = barrier_id;
  barrier_lanes_ = lanes;
  barrier_red_dst_ = red_dst_offset;
}

}  // namespace simtlm::functional
