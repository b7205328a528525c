// Immediate post-dominator -> reconvergence pc of each divergent branch.
#include "frontend/analysis/reconvergence.h"

namespace simtlm::frontend::analysis {

bool may_diverge(const ir::Instruction& inst) {
  return (inst.op == ir::Opcode::Bra && inst.has_guard) || inst.op == ir::Opcode::BrxIdx;
}

void set_reconvergence_points(ir::Function& fn, const Cfg& cfg, const DominatorTree& pdom) {
  for (ir::Instruction& inst : fn.insts) inst.reconverge_pc = ir::kNoReconvergence;
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    const ir::BasicBlock& block = fn.blocks[b];
    ir::Instruction& term = fn.insts[block.last - 1];
    if (!may_diverge(term)) continue;
    uint32_t ipdom = pdom.idom(b);
    term.reconverge_pc = (ipdom == DominatorTree::kNone || ipdom >= cfg.num_blocks())
                             ? ir::kNoReconvergence
                             : fn.blocks[ipdom].first;
  }
}

}  // namespace simtlm::frontend::analysis
