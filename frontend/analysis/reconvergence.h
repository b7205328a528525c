// SIMT reconvergence points: a warp that diverges at a branch reconverges at
// the branch block's immediate post-dominator (the first point every path
// from the branch must pass through), as in the classic PDOM stack.
#pragma once

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/dominators.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

// True for branches whose threads may take different paths: guarded bra
// (also bra.uni: the claim is not trusted) and every brx.idx.
bool may_diverge(const ir::Instruction& inst);

// Sets Instruction::reconverge_pc of every possibly divergent branch to the
// first instruction of its block's immediate post-dominator, or to
// ir::kNoReconvergence when that is the virtual exit; every other
// instruction gets kNoReconvergence.
void set_reconvergence_points(ir::Function& fn, const Cfg& cfg, const DominatorTree& post_dominators);

}  // namespace simtlm::frontend::analysis
