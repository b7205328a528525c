// Call inlining: after this pass no function that a kernel can reach contains
// a `call`, so the backends, the CFG and the register allocator see one flat
// body per kernel (as ptxas does for non-recursive device code).
//
// For each call site (callees first, recursively):
//  - the callee's body is copied in place of the `call`; its registers become
//    fresh registers of the caller (named "<reg>$i<n>") and its labels fresh
//    labels ("<label>$i<n>");
//  - a `ret` in the callee becomes a branch to the instruction after the call
//    site (a final unconditional `ret` simply falls through); a guarded `ret`
//    becomes a guarded — hence possibly divergent — branch, which the
//    analyses give a reconvergence point like any other; `exit` stays `exit`;
//  - `.param` formals and return values are bound to the caller's argument
//    variables (the `.param` variables of the call sequence); register or
//    immediate arguments get a fresh slot. Those slots — every `.param`
//    variable that is not a kernel parameter — are lowered to per-thread
//    `.local` variables with Variable::from_call_param set, and their
//    ld.param/st.param become ld.local/st.local. Where a slot is only ever
//    read and written whole, as a scalar of 16/32/64 bits, by ld/st with a
//    register (or immediate) of that size, it is promoted to a register and
//    the accesses become `mov`s (the common nvcc case).
//  - a guarded call `@p call` is preceded by `@!p bra <after the call>`.
// Afterwards the only .param accesses in kernels are ld.param of kernel
// parameters. Kernel `ret` stays `ret` (thread exit). `.func` bodies stay in
// the module (themselves inlined) but no kernel references them any more.
//
// Errors (simtlm::Error(Ptx), "file:line:column: error: ..."): recursion
// reachable from a kernel (naming the call chain from the kernel), indirect
// calls, argument count mismatches (the parser already rejects calls to
// functions without a body; a called vprintf it defines itself,
// builtin_vprintf.cpp). Functions no kernel can reach are left untouched
// when they cannot be inlined.
#pragma once

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

void inline_calls(ir::Module& module);

}  // namespace simtlm::frontend::passes
