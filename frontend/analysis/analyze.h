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
// (regs_per_thread is the ptxas-like estimate RegisterAllocation::regs_per_thread(),
// `analyses` keeps every result below).
void analyze(ir::Module& module);
// The same for one function (a pass that rewrote only it).
void analyze_one(ir::Function& fn);

// The full analysis results of one function, kept in
// FunctionAnalysis::analyses for passes and mechanisms that need more than
// the counts (live sets per instruction, physical register numbers, loop
// bodies, dominance queries). The results hold no reference to the function
// (copies of it may share them) but do refer to each other, so the bundle is
// neither copied nor moved. Valid while the function's instructions and
// blocks are those it was computed on.
struct FunctionAnalyses {
  explicit FunctionAnalyses(const ir::Function& fn);
  FunctionAnalyses(const FunctionAnalyses&) = delete;
  FunctionAnalyses& operator=(const FunctionAnalyses&) = delete;
  Cfg cfg;
  DominatorTree dominators;
  DominatorTree post_dominators;
  LoopInfo loops;
  Liveness liveness;
  RegisterAllocation registers;
};

// Builds the CFG of `fn` (if not built yet) and computes every analysis
// (without storing them in fn.analysis; analyze() does that).
std::shared_ptr<const FunctionAnalyses> analyze_function(ir::Function& fn);

}  // namespace simtlm::frontend::analysis
