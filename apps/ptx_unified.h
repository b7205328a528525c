// `simtlm ptx FILE.ptx --max-registers R [--spill local] --print`: the
// kernels rewritten by the unified allocation (frontend/passes/
// unified_alloc.h) for a register budget R, printed as PTX that parses again,
// with two comment lines per kernel (demand, count, what was spilled; the
// seed's CI_pred and its inputs AD_int, COMPUTE_inst, MEM_inst for the
// rewritten kernel, frontend/passes/static_metrics.h) and the spill
// instructions marked.
#pragma once

#include <string>

#include "apps/cli_common.h"

namespace simtlm::cli {

// Prints every kernel of `file` (or `kernel` only); returns the exit code.
int print_unified_alloc(Io& io, const std::string& file, const std::string& kernel, uint32_t registers,
                        const std::string& spill);

}  // namespace simtlm::cli
