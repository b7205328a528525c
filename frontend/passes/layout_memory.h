// Memory layout per function (run after inline_calls): fills
// Function::var_offsets, static_shared_bytes and local_bytes.
//
//  - .shared variables the function references (module scope or function
//    scope, after inlining) get offsets in the CTA's shared memory in
//    declaration order, each aligned to Variable::align (natural alignment of
//    its type when 0). Unreferenced .shared variables take no space (ptxas
//    drops them too).
//  - `.extern .shared` arrays (dynamic shared memory) all start at the same
//    offset: the end of the static part rounded up to the largest alignment
//    among them. static_shared_bytes includes that padding, so the CTA needs
//    static_shared_bytes + <dynamic bytes of the launch>.
//  - .local variables (including call-parameter slots made by inline_calls)
//    get offsets in the per-thread local frame; local_bytes is its size.
//  - .param parameters of the function get Variable::param_offset.
// Entries of variables the function does not use (and of .global/.const
// variables, which get device addresses at module load) are kNoOffset.
#pragma once

#include <cstdint>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

inline constexpr uint64_t kNoOffset = ~uint64_t{0};

// Alignment in bytes used for `v` (Variable::align, else its type's size, at least 1).
uint64_t variable_alignment(const ir::Variable& v);

void layout_memory(ir::Module& module);
void layout_function(const ir::Module& module, ir::Function& fn);

}  // namespace simtlm::frontend::passes
