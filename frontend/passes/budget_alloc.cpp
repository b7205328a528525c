// Register allocation with a budget (see budget_alloc.h).
#include "frontend/passes/budget_alloc.h"

#include <algorithm>
#include <cmath>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/reg_access.h"
#include "frontend/passes/spill_code.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

uint32_t colour_budget(uint32_t registers, uint32_t reserved) {
  const uint32_t even = registers & ~1u;
  const uint32_t fixed = analysis::kReservedRegs + reserved;
  return even > fixed ? even - fixed : 0;
}

std::vector<char> spill_candidates(const ir::Function& fn) {
  const uint32_t n = static_cast<uint32_t>(fn.regs.size());
  std::vector<char> ok(n, 0);
  const auto& a = fn.analysis.analyses;
  if (!a) throw Error(ErrorKind::Internal, "spill_candidates: '" + fn.name + "' is not analysed");
  const std::vector<char> remat = analysis::constant_bank_registers(fn);
  const analysis::BitsView at_entry = a->liveness.live_at_entry();
  for (uint32_t r = 0; r < n; ++r) {
    ok[r] = spillable_type(fn.regs[r]) && !remat[r] && a->registers.phys[r] != ir::kNoPhysReg &&
            a->registers.phys[r] != ir::kConstantBank && !(at_entry.words() && at_entry.test(r));
  }
  return ok;
}

namespace {

// Spill cost of every original register: its accesses, 10x per loop level.
std::vector<double> access_costs(const ir::Function& fn) {
  const auto& a = *fn.analysis.analyses;
  std::vector<double> cost(fn.regs.size(), 0.0);
  analysis::RegAccess acc;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    const uint32_t depth = std::min<uint32_t>(3, a.loops.depth(a.cfg.block_of(pc)));
    const double w = std::pow(10.0, depth);
    analysis::collect_reg_access(fn.insts[pc], acc);
    for (uint32_t r : acc.uses) cost[r] += w;
    for (uint32_t r : acc.defs) cost[r] += w;
  }
  return cost;
}

// What one colouring of the rewritten copy says.
struct Colouring {
  uint32_t colours = 0;
  // Per original register: over-pressure instructions it is live across
  // without being accessed there, and all instructions it is live across.
  std::vector<uint32_t> over, span;
};

Colouring colour_copy(ir::Function& copy, uint32_t budget, uint32_t original_regs) {
  analysis::build_cfg(copy);
  const analysis::Cfg cfg(copy);
  const analysis::Liveness live(copy, cfg);
  const analysis::RegisterAllocation alloc = analysis::allocate_registers(copy, cfg, live);
  Colouring c;
  c.colours = alloc.regs32;
  c.over.assign(original_regs, 0);
  c.span.assign(original_regs, 0);
  if (c.colours <= budget) return c;
  const std::vector<char> remat = analysis::constant_bank_registers(copy);
  std::vector<uint32_t> units(copy.regs.size());
  for (size_t r = 0; r < copy.regs.size(); ++r)
    units[r] = copy.regs[r].type == ir::DataType::Pred || remat[r] ? 0 : analysis::reg_units(copy.regs[r]);
  analysis::RegAccess acc;
  std::vector<uint32_t> across;
  for (uint32_t pc = 0; pc < copy.insts.size(); ++pc) {
    analysis::collect_reg_access(copy.insts[pc], acc);
    const analysis::BitsView in = live.live_in(pc), out = live.live_out(pc);
    uint32_t p_in = 0, p_out = 0;
    in.for_each([&](size_t r) { p_in += units[r]; });
    out.for_each([&](size_t r) { p_out += units[r]; });
    for (uint32_t d : acc.defs)
      if (!out.test(d)) p_out += units[d];
    const bool over = std::max(p_in, p_out) > budget;
    across.clear();
    in.for_each([&](size_t r) {
      if (r < original_regs && out.test(r)) across.push_back(static_cast<uint32_t>(r));
    });
    for (uint32_t r : across) {
      if (std::find(acc.uses.begin(), acc.uses.end(), r) != acc.uses.end()) continue;
      if (std::find(acc.defs.begin(), acc.defs.end(), r) != acc.defs.end()) continue;
      ++c.span[r];
      if (over) ++c.over[r];
    }
  }
  return c;
}

}  // namespace

BudgetChoice choose_spills(const ir::Function& fn, uint32_t budget, const SpillRewrite& rewrite,
                           const std::string& where) {
  const uint32_t n = static_cast<uint32_t>(fn.regs.size());
  std::vector<char> candidate = spill_candidates(fn);
  const std::vector<double> cost = access_costs(fn);
  BudgetChoice choice;
  for (;;) {
    ir::Function copy = fn;
    copy.blocks.clear();
    rewrite(copy, choice.spilled);
    const Colouring c = colour_copy(copy, budget, n);
    ++choice.iterations;
    choice.colours = c.colours;
    if (c.colours <= budget) return choice;
    // Prefer registers live across over-pressure points; else any live range.
    const bool any_over = std::any_of(c.over.begin(), c.over.end(), [](uint32_t x) { return x != 0; });
    const std::vector<uint32_t>& benefit = any_over ? c.over : c.span;
    uint32_t best = n;
    double best_ratio = 0;
    for (uint32_t r = 0; r < n; ++r) {
      if (!candidate[r] || benefit[r] == 0) continue;
      const double ratio = cost[r] / benefit[r];
      if (best == n || ratio < best_ratio) {
        best = r;
        best_ratio = ratio;
      }
    }
    if (best == n) {
      throw Error(ErrorKind::Config, where + ": kernel '" + fn.name + "' does not fit: with " +
                                         std::to_string(choice.spilled.size()) +
                                         " values in memory its colouring still needs " + std::to_string(c.colours) +
                                         " registers besides the reserved ones, more than the " +
                                         std::to_string(budget) + " the budget leaves");
    }
    candidate[best] = 0;
    choice.spilled.push_back(best);
  }
}

}  // namespace simtlm::frontend::passes
