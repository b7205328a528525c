// Runs every analysis the backends need on a parsed module: CFG construction,
// dominators and immediate post-dominators (-> Instruction::reconverge_pc of
// each branch), natural loops, liveness and register allocation
// (-> Function::analysis). Call-free functions only: run
// passes::inline_calls() first.
#pragma once

#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

void analyze(ir::Module& module);

}  // namespace simtlm::frontend::analysis
