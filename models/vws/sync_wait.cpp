#include "models/vws/sync_wait.h"

#include "frontend/ir/module.h"

namespace simtlm::models::vws {

bool SyncWait::is_sync_point(const ir::Function* kernel, uint32_t pc) {
  if (kernel == nullptr) return false;
  auto it = points_.find(kernel);
  if (it == points_.end()) {
    std::vector<uint8_t> p(kernel->insts.size(), 0);
    for (const ir::Instruction& i : kernel->insts) {
      if (i.reconverge_pc < p.size()) p[i.reconverge_pc] = 1;
    }
    it = points_.emplace(kernel, std::move(p)).first;
  }
  return pc < it->second.size() && it->second[pc] != 0;
}

bool SyncWait::holds(uint32_t slot, const ir::Function* kernel, uint32_t pc, bool split, uint64_t c) {
  uint8_t& s = state_[slot];
  if (!split) {
    if (s == kWaiting) {
      s = kReleased;
      ++reformed;
    }
    return false;
  }
  if (s == kReleased) return false;
  if (s == kIdle) {
    if (!is_sync_point(kernel, pc)) return false;
    s = kWaiting;
    since_[slot] = c;
    ++waits;
  }
  if (c - since_[slot] < wait_) {
    ++held;
    return true;
  }
  s = kReleased;
  ++timeouts;
  return false;
}

}  // namespace simtlm::models::vws
