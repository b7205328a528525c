// `simtlm ptx FILE.ptx --max-registers R [--spill local|shared --threads T]
// --print`: the
// kernels rewritten by the unified allocation (frontend/passes/
// unified_alloc.h) for a register budget R, printed as PTX that parses again,
// with two comment lines per kernel (demand, count, what was spilled; the
// seed's CI_pred and its inputs AD_int, COMPUTE_inst, MEM_inst for the
// rewritten kernel, frontend/passes/static_metrics.h) and the spill
// instructions marked.
#pragma once

#include <string>

#include "apps/cli_common.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/occupancy_search.h"

namespace simtlm::cli {

// Prints every kernel of `file` (or `kernel` only); returns the exit code.
// With spill = shared, the kernels are the variant for CTAs of `threads`
// threads (no dynamic shared memory) on an SM with `limits`.
int print_unified_alloc(Io& io, const std::string& file, const std::string& kernel, uint32_t registers,
                        const std::string& spill, uint32_t threads = 0,
                        const frontend::passes::OccupancyLimits& limits = {},
                        frontend::passes::PrunePriority priority = frontend::passes::PrunePriority::LiveSets);

// `simtlm ptx FILE.ptx --occupancy-search --threads T [--spill local|shared]`:
// for every kernel (or `kernel`), the seed's occupancy search for CTAs of
// `search.limits`' SM: its inputs, one line per level, the chosen level.
int print_occupancy_search(Io& io, const std::string& file, const std::string& kernel, uint32_t threads,
                           const frontend::passes::SearchOptions& search);

}  // namespace simtlm::cli
