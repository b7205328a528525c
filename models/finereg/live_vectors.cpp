#include "models/finereg/live_vectors.h"

#include <algorithm>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/regalloc.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {

namespace {
const std::vector<uint32_t> kNone;
}

LiveVectorTable::LiveVectorTable(const ir::Function& kernel) : kernel_name_(kernel.name) {
  const auto& analyses = kernel.analysis.analyses;
  if (!analyses) {
    throw Error(ErrorKind::Internal, "FineReg: kernel '" + kernel.name + "' has no analyses (liveness, registers)");
  }
  const auto& live = analyses->liveness;
  const auto& alloc = analyses->registers;
  const uint32_t n = live.num_insts();
  vectors_.assign(n, 0);
  virtual_.resize(n);
  for (uint32_t pc = 0; pc < n; ++pc) {
    LiveVector v = 0;
    live.live_in(pc).for_each([&](size_t r) {
      const ir::Register& reg = kernel.regs[r];
      const uint32_t units = frontend::analysis::reg_units(reg);  // 0 for predicates
      const uint32_t p = alloc.phys[r];
      if (units == 0 || p == ir::kNoPhysReg || p == ir::kConstantBank) return;
      if (p + units > kVectorBits) {
        if (why_.empty()) {
          why_ = "kernel '" + kernel.name + "': register " + reg.name + " is physical register " +
                 std::to_string(p + units - 1) +
                 ", beyond FineReg's 64-bit live-register vector (at most 64 registers per thread)";
        }
        return;
      }
      for (uint32_t k = 0; k < units; ++k) v |= LiveVector{1} << (p + k);
      virtual_[pc].push_back(static_cast<uint32_t>(r));
    });
    vectors_[pc] = v;
  }
}

std::vector<std::pair<uint32_t, uint64_t>> LiveVectorTable::effective_pcs(
    const std::vector<functional::Warp::StackEntry>& stack) {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  uint64_t covered = 0;
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
    const uint64_t lanes = it->mask & ~covered;
    if (lanes != 0) out.emplace_back(it->pc, lanes);
    covered |= it->mask;
  }
  return out;
}

LiveVector LiveVectorTable::of_stack(const std::vector<functional::Warp::StackEntry>& stack) const {
  LiveVector v = 0;
  for (const auto& [pc, lanes] : effective_pcs(stack)) v |= at(pc);
  return v;
}

const std::vector<uint32_t>& LiveVectorTable::live_virtual(uint32_t pc) const {
  return pc < virtual_.size() ? virtual_[pc] : kNone;
}

std::vector<uint32_t> LiveVectorTable::live_virtual_of_stack(
    const std::vector<functional::Warp::StackEntry>& stack) const {
  std::vector<uint32_t> out;
  for (const auto& [pc, lanes] : effective_pcs(stack)) {
    const auto& regs = live_virtual(pc);
    out.insert(out.end(), regs.begin(), regs.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace simtlm::models::finereg
