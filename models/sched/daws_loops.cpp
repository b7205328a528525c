#include "models/sched/daws_loops.h"

#include <algorithm>
#include <utility>

#include "frontend/analysis/analyze.h"
#include "frontend/ir/module.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

DawsLoopTable DawsLoopTable::of(const ir::Function& fn) {
  if (!fn.analysis.analyses) {
    throw Error(ErrorKind::Internal, "DAWS: kernel '" + fn.name + "' has no loop analysis");
  }
  const frontend::analysis::LoopInfo& info = fn.analysis.analyses->loops;
  const frontend::analysis::Cfg& cfg = fn.analysis.analyses->cfg;
  DawsLoopTable t;
  const auto n = static_cast<uint32_t>(fn.insts.size());
  for (const frontend::analysis::Loop& l : info.loops()) {
    t.loops.push_back(Loop{cfg.first_inst(l.header), l.parent});
  }
  t.innermost.assign(n, kNone);
  for (uint32_t pc = 0; pc < n; ++pc) t.innermost[pc] = info.innermost(cfg.block_of(pc));
  t.finish(n);
  return t;
}

DawsLoopTable DawsLoopTable::from_ranges(uint32_t num_insts,
                                         const std::vector<std::pair<uint32_t, uint32_t>>& ranges) {
  DawsLoopTable t;
  t.innermost.assign(num_insts, kNone);
  std::vector<std::pair<uint32_t, uint32_t>> sorted = ranges;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < sorted.size(); ++i) {
    Loop l{sorted[i].first, kNone};
    // The innermost earlier range that contains this one is the parent.
    for (uint32_t j = i; j-- > 0;) {
      if (sorted[j].first <= sorted[i].first && sorted[i].second <= sorted[j].second) {
        l.parent = j;
        break;
      }
    }
    t.loops.push_back(l);
    // Later (inner) ranges overwrite earlier (outer) ones.
    for (uint32_t pc = sorted[i].first; pc < sorted[i].second && pc < num_insts; ++pc) t.innermost[pc] = i;
  }
  t.finish(num_insts);
  return t;
}

void DawsLoopTable::finish(uint32_t n) {
  begins.assign(n, kNone);
  for (uint32_t i = 0; i < loops.size(); ++i) {
    if (loops[i].begin_pc < n) begins[loops[i].begin_pc] = i;
  }
  next_loop.assign(n, kNone);
  uint32_t next = kNone;
  for (uint32_t pc = n; pc-- > 0;) {
    next_loop[pc] = next;
    if (begins[pc] != kNone) next = begins[pc];
  }
}

bool DawsLoopTable::encloses(uint32_t outer, uint32_t loop) const {
  for (uint32_t l = loop; l != kNone; l = loops[l].parent) {
    if (l == outer) return true;
  }
  return false;
}

}  // namespace simtlm::models::sched
