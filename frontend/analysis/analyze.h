// Runs every analysis the backends need on a parsed module: CFG construction,
// dominators and immediate post-dominators (-> Instruction::reconverge_pc of
// each branch), natural loops, liveness and register allocation
// (-> Function::analysis). Call-free functions only: run
// passes::inline_calls() first.
#pragma once

#include <memory>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/dominators.h"
#include "frontend/analysis/liveness.h"
#include "frontend/analysis/loops.h"
#include "frontend/analysis/regalloc.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

// Analyses every function with a body: builds Function::blocks, sets the
// reconvergence pc of every divergent branch and fills Function::analysis
// (regs_per_thread is the ptxas-like estimate RegisterAllocation::regs_per_thread()).
void analyze(ir::Module& module);

// The full analysis results of one function, for passes and mechanisms that
// need more than Function::analysis keeps (live sets per instruction,
// physical register numbers, loop bodies, dominance queries). Objects refer to
// `fn` and to each other: keep `fn` alive and unmodified while using them.
struct FunctionAnalyses {
  explicit FunctionAnalyses(const ir::Function& fn);
  const ir::Function& function;
  Cfg cfg;
  DominatorTree dominators;
  DominatorTree post_dominators;
  LoopInfo loops;
  Liveness liveness;
  RegisterAllocation registers;
};

// Builds the CFG of `fn` (if not built yet) and computes every analysis.
std::unique_ptr<FunctionAnalyses> analyze_function(ir::Function& fn);

}  // namespace simtlm::frontend::analysis
