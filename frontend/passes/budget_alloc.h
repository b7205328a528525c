// Register allocation with a budget (seed note 001 §1.2 step 1, §5.2): which
// virtual registers of a kernel go to memory so that the rest, plus the spill
// code's temporaries, colour into the budget.
//
// The seed used nvcc's allocator at -maxrregcount=R; we have our own
// (analysis::allocate_registers, docs/register-allocation.md), so spilling is
// ours too, in Chaitin's style with spill-everywhere code:
//   1. rewrite a copy of the kernel with the registers chosen so far spilled
//      (the caller's rewrite: the real spill code, so its temporaries and any
//      slot pointer count), colour it;
//   2. when the colours exceed the budget, choose one more register: among
//      those live (and not accessed) at an instruction whose pressure exceeds
//      the budget, the one with the lowest cost / benefit, where cost is its
//      accesses weighted by 10 per loop level (capped at 3 levels) and
//      benefit the number of such over-pressure instructions it is live
//      across (when the pressure fits but the greedy colouring does not, the
//      instructions it is live across); ties to the lowest register index;
//   3. repeat. Spilling never picks a temporary, a predicate, a vector, a
//      constant-bank value or a value live at the kernel's entry.
// When no register is left to spill and the colours still exceed the budget,
// the budget is too small for the kernel: Error(Config) naming the kernel,
// the budget and the colours the all-spilled kernel needs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

// 32-bit registers the colouring may use for a register count R (what
// FunctionAnalysis::regs_per_thread means): the count is
// round_up_even(colours + analysis::kReservedRegs), so colours <= the even
// part of R minus kReservedRegs, minus `reserved` registers the spill code
// keeps outside the colouring (0 when they are coloured with the rest).
// 0 when R is too small for any colour.
uint32_t colour_budget(uint32_t registers, uint32_t reserved = 0);

// Rewrites a copy of the kernel with `spilled` (original register indices)
// in memory; must add registers only after the original ones.
using SpillRewrite = std::function<void(ir::Function& fn, const std::vector<uint32_t>& spilled)>;

struct BudgetChoice {
  std::vector<uint32_t> spilled;   // original registers, in the order chosen
  uint32_t colours = 0;            // 32-bit registers the rewritten kernel's colouring uses
  uint32_t iterations = 0;         // colourings run
};

// `fn` must be analysed (FunctionAnalysis::analyses). `where` names the
// budget in the error (e.g. "frontend.unified_alloc.registers = 16").
BudgetChoice choose_spills(const ir::Function& fn, uint32_t colour_budget, const SpillRewrite& rewrite,
                           const std::string& where);

// Registers choose_spills may pick in `fn` (analysed), per register index.
std::vector<char> spill_candidates(const ir::Function& fn);

}  // namespace simtlm::frontend::passes
