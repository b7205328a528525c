// Access ranges of scratchpad variables and the choice of the variables that
// go in the shared region (Jatala §3.2.1, seed note 000 §2.9).
//
// A point is in the access range of a set S of variables when some path from
// the entry to it accesses a variable of S and some path from it to the exit
// does (Pre forward, Post backward, both least fixed points):
//   PreOUT(v,B)  = true if B accesses v, else PreIN(v,B)
//   PreIN(v,B)   = false for the entry, else OR over predecessors of PreOUT
//   PostIN(v,B)  = true if B accesses v, else PostOUT(v,B)
//   PostOUT(v,B) = false for the exit, else OR over successors of PostIN
//   AccIN(S,B)   = OR_v PreIN(v,B)  AND OR_v PostIN(v,B)   (OUT likewise)
// The cost of S is the number of instructions in its range on the longest
// path through the kernel, an instruction in a loop counting 1024 times per
// nesting level when its trip count is not a constant (the seed's bound),
// and its constant trip count when it is (analysis/static_cost.h). The
// shared region is the top (1 - t) of the CTA's static scratchpad: the chosen
// subset is the cheapest one whose variables fill it (total size at least
// (1 - t) x the static bytes, so the others fit below t x the static bytes);
// ties go to the smaller subset, then to the first in enumeration order
// (bit k of the mask = the k-th declared variable).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

// The dataflow on any graph (tests build the seed's Table 3.1 directly).
struct AccessRangeProblem {
  std::vector<std::vector<uint32_t>> succs, preds;
  uint32_t entry = 0, exit = 0;
  std::vector<std::vector<bool>> access;  // [variable][node]
};
struct AccessRangeFlags {
  std::vector<bool> in, out;           // AccIN(S, B), AccOUT(S, B)
  std::vector<bool> pre_in, post_out;  // OR over S of PreIN, of PostOUT (points inside blocks)
};
AccessRangeFlags access_range(const AccessRangeProblem& p, const std::vector<uint32_t>& subset);

// The static .shared variables of an analysed kernel and, per instruction,
// which of them it may access (a flow-insensitive points-to of registers
// derived from the variables' addresses; an access whose address has no
// known origin may touch every variable).
struct SharedVariableUse {
  std::vector<uint32_t> vars;              // Module::vars indices, declaration order
  std::vector<std::vector<bool>> by_inst;  // [k][pc]: instruction pc may access vars[k]
  std::vector<bool> other;                 // [pc]: may access shared memory that is none of vars
                                           // (dynamic shared memory, an address of unknown origin)
  // Constant trip count per loop (analysis/static_cost.h), found once for
  // every subset's cost.
  std::vector<std::optional<uint64_t>> trips;
};
SharedVariableUse shared_variable_use(const ir::Module& module, const ir::Function& fn);

// Cost of the subset (indices into use.vars) as described above.
uint64_t access_range_cost(const ir::Function& fn, const SharedVariableUse& use, const std::vector<uint32_t>& subset,
                           uint64_t loop_iterations = 1024);

// The subset of use.vars (indices) to place in the shared region for
// threshold t (private fraction); empty when the kernel has no static shared
// variable or more than 16 of them (then the declared layout stays).
std::vector<uint32_t> choose_shared_variables(const ir::Module& module, const ir::Function& fn,
                                              const SharedVariableUse& use, double t);

// Lays the kernel's static shared variables out again: the others from
// offset 0 in declaration order, then `chosen` (indices into use.vars), so
// that the chosen ones take the high offsets (the shared region); dynamic
// shared memory starts at the aligned end. Updates var_offsets and
// static_shared_bytes.
void layout_shared_region(const ir::Module& module, ir::Function& fn, const SharedVariableUse& use,
                          const std::vector<uint32_t>& chosen);

// Per use.vars index: true when the variable lies wholly below t x the
// kernel's static shared bytes (private for any allocation granularity and
// no dynamic shared memory, which only raises the boundary).
std::vector<bool> private_variables(const ir::Module& module, const ir::Function& fn, const SharedVariableUse& use,
                                    double t);

}  // namespace simtlm::frontend::passes
