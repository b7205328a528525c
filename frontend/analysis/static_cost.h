// Static instruction counts along the longest path of a kernel, with loops
// weighted by their trip count: the cost metric of Jatala's access-range
// layout (seed note 000 §2.9: "non-constant loop bounds are assumed to be
// 1024 iterations") and of the relssp release tail (how much of the kernel
// runs after the shared region is given back).
//
// A loop's trip count is a constant when it is counted by one induction
// register whose only definition in the loop is `add`/`sub` of an immediate,
// whose only definition outside the loop is an unguarded `mov` of an
// immediate that dominates the header, and whose single latch ends in a
// conditional branch on a `setp` comparing that register with an immediate.
// The count is found by running the recurrence (exact, including wrap-around
// at the register width), up to a limit beyond which it counts as unknown.
// Other exits of the loop (a `break`) only shorten it, so the count is the
// maximum number of iterations, which is what a longest-path cost needs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/dominators.h"
#include "frontend/analysis/loops.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

// Iterations of every loop of `loops` (same order) or nullopt when not a
// constant by the rule above or above `limit`.
std::vector<std::optional<uint64_t>> constant_trip_counts(const ir::Function& fn, const Cfg& cfg,
                                                          const DominatorTree& dominators, const LoopInfo& loops,
                                                          uint64_t limit = uint64_t{1} << 20);

// a × b, saturating at UINT64_MAX.
uint64_t saturating_mul(uint64_t a, uint64_t b);

// Per block: how many times one pass through the kernel executes it on the
// static estimate, the product of its enclosing loops' trip counts (a loop
// without a constant count, or beyond `trips`, counts `unknown_iterations`).
std::vector<uint64_t> block_multipliers(const Cfg& cfg, const LoopInfo& loops,
                                        const std::vector<std::optional<uint64_t>>& trips,
                                        uint64_t unknown_iterations);

// Per node: the largest sum of `weight` over a path from the node (included)
// to the exit, the back edges removed (the CFGs compilers emit are reducible,
// so that leaves a DAG). weight has one entry per block; the exit node is 0.
std::vector<uint64_t> longest_path_to_exit(const Cfg& cfg, const LoopInfo& loops, const std::vector<uint64_t>& weight);

}  // namespace simtlm::frontend::analysis
