// Rejecting one function of a module while the others stay usable
// (ir::Function::rejected): the parser does it for an error in a body,
// passes::inline_calls for an error in a kernel's call tree.
#pragma once

#include <string>
#include <utility>

#include "frontend/ir/module.h"

namespace simtlm::ir {

// Keeps the function's name, parameters and variables (reports list it),
// replaces its body by one `ret` and records the diagnostic.
inline void reject_function(Function& f, std::string diagnostic) {
  Instruction ret;
  ret.op = Opcode::Ret;
  ret.loc = f.loc;
  ret.text = "ret";
  f.insts.assign(1, std::move(ret));
  f.labels.clear();
  f.blocks.clear();
  f.rejected = std::move(diagnostic);
}

}  // namespace simtlm::ir
