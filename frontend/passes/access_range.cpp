#include "frontend/passes/access_range.h"

#include <algorithm>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/static_cost.h"
#include "frontend/passes/layout_memory.h"

namespace simtlm::frontend::passes {

AccessRangeFlags access_range(const AccessRangeProblem& p, const std::vector<uint32_t>& subset) {
  const size_t n = p.succs.size();
  AccessRangeFlags acc;
  std::vector<bool> pre_in_any(n, false), pre_out_any(n, false), post_in_any(n, false), post_out_any(n, false);
  for (uint32_t v : subset) {
    const std::vector<bool>& a = p.access[v];
    std::vector<bool> pre_in(n, false), pre_out(n, false), post_in(n, false), post_out(n, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < n; ++b) {
        bool in = false;
        if (b != p.entry)
          for (uint32_t q : p.preds[b]) in = in || pre_out[q];
        const bool out = a[b] || in;
        changed = changed || in != pre_in[b] || out != pre_out[b];
        pre_in[b] = in;
        pre_out[b] = out;
      }
      for (size_t b = n; b-- > 0;) {
        bool out = false;
        if (b != p.exit)
          for (uint32_t s : p.succs[b]) out = out || post_in[s];
        const bool in = a[b] || out;
        changed = changed || in != post_in[b] || out != post_out[b];
        post_in[b] = in;
        post_out[b] = out;
      }
    }
    for (size_t b = 0; b < n; ++b) {
      pre_in_any[b] = pre_in_any[b] || pre_in[b];
      pre_out_any[b] = pre_out_any[b] || pre_out[b];
      post_in_any[b] = post_in_any[b] || post_in[b];
      post_out_any[b] = post_out_any[b] || post_out[b];
    }
  }
  acc.pre_in = pre_in_any;
  acc.post_out = post_out_any;
  acc.in.resize(n);
  acc.out.resize(n);
  for (size_t b = 0; b < n; ++b) {
    acc.in[b] = pre_in_any[b] && post_in_any[b];
    acc.out[b] = pre_out_any[b] && post_out_any[b];
  }
  return acc;
}

namespace {

bool is_memory(const ir::Instruction& i) {
  return i.op == ir::Opcode::Ld || i.op == ir::Opcode::Ldu || i.op == ir::Opcode::St || i.op == ir::Opcode::Atom ||
         i.op == ir::Opcode::Red;
}

}  // namespace

SharedVariableUse shared_variable_use(const ir::Module& module, const ir::Function& fn) {
  SharedVariableUse use;
  if (const auto& a = fn.analysis.analyses) use.trips = analysis::constant_trip_counts(fn, a->cfg, a->dominators, a->loops);
  std::vector<int> index(module.vars.size(), -1);  // Module::vars -> bit, for every .shared variable
  std::vector<uint32_t> all_shared;
  for (uint32_t v = 0; v < module.vars.size() && v < fn.var_offsets.size(); ++v) {
    const ir::Variable& var = module.vars[v];
    if (var.space != ir::StateSpace::Shared || fn.var_offsets[v] == ~uint64_t{0}) continue;
    if (!var.is_extern) use.vars.push_back(v);
    all_shared.push_back(v);
  }
  if (all_shared.size() > 63) all_shared.resize(63);  // beyond: unknown origin, i.e. every variable
  for (size_t k = 0; k < all_shared.size(); ++k) index[all_shared[k]] = static_cast<int>(k);
  // Registers that may hold an address derived from a shared variable.
  std::vector<uint64_t> points(fn.regs.size(), 0);
  auto bits_of = [&](const ir::Operand& o) -> uint64_t {
    if (o.kind == ir::OperandKind::Reg) return points[o.reg];
    if (o.kind == ir::OperandKind::Symbol && index[o.var] >= 0) return uint64_t{1} << index[o.var];
    return 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Instruction& i : fn.insts) {
      if (is_memory(i) || i.ops.empty() || i.ops[0].kind != ir::OperandKind::Reg) continue;
      uint64_t bits = 0;
      for (size_t k = 1; k < i.ops.size(); ++k) bits |= bits_of(i.ops[k]);
      uint64_t& d = points[i.ops[0].reg];
      if ((d | bits) != d) {
        d |= bits;
        changed = true;
      }
    }
  }
  uint64_t candidates = 0;
  for (uint32_t v : use.vars) candidates |= index[v] >= 0 ? uint64_t{1} << index[v] : 0;
  use.by_inst.assign(use.vars.size(), std::vector<bool>(fn.insts.size(), false));
  use.other.assign(fn.insts.size(), false);
  for (size_t pc = 0; pc < fn.insts.size(); ++pc) {
    const ir::Instruction& i = fn.insts[pc];
    if (!is_memory(i) || (i.space != ir::StateSpace::Shared && i.space != ir::StateSpace::Generic)) continue;
    uint64_t bits = 0;
    bool known = false;
    for (const ir::Operand& o : i.ops) {
      if (o.kind != ir::OperandKind::Address) continue;
      if (o.base == ir::OperandKind::Symbol) {
        known = true;
        bits |= index[o.var] >= 0 ? uint64_t{1} << index[o.var] : 0;
      } else if (o.base == ir::OperandKind::Reg) {
        bits |= points[o.reg];
        known = points[o.reg] != 0 || i.space == ir::StateSpace::Generic;
      }
    }
    if (!known) bits = candidates | ~uint64_t{0};  // a .shared access of unknown origin
    use.other[pc] = !known || (bits & ~candidates) != 0;
    for (size_t k = 0; k < use.vars.size(); ++k) {
      const int b = index[use.vars[k]];
      use.by_inst[k][pc] = b < 0 || ((bits >> b) & 1);
    }
  }
  return use;
}

uint64_t access_range_cost(const ir::Function& fn, const SharedVariableUse& use, const std::vector<uint32_t>& subset,
                           uint64_t loop_iterations) {
  const analysis::FunctionAnalyses& a = *fn.analysis.analyses;
  const analysis::Cfg& cfg = a.cfg;
  const uint32_t nb = cfg.num_blocks();
  AccessRangeProblem p;
  p.succs = cfg.all_succs();
  p.preds = cfg.all_preds();
  p.entry = cfg.entry();
  p.exit = cfg.exit_node();
  p.access.assign(use.vars.size(), std::vector<bool>(cfg.num_nodes(), false));
  for (uint32_t k : subset)
    for (uint32_t b = 0; b < nb; ++b)
      for (uint32_t pc = cfg.first_inst(b); pc < cfg.end_inst(b); ++pc)
        if (use.by_inst[k][pc]) p.access[k][b] = true;
  const AccessRangeFlags acc = access_range(p, subset);
  const std::vector<uint64_t> times = analysis::block_multipliers(cfg, a.loops, use.trips, loop_iterations);
  // Instructions in range per block: a point is in range when something of S
  // was accessed before it (or at it) and will be after it (or at it).
  std::vector<uint64_t> weight(nb, 0);
  for (uint32_t b = 0; b < nb; ++b) {
    const uint32_t first = cfg.first_inst(b), end = cfg.end_inst(b);
    auto touches = [&](uint32_t pc) {
      for (uint32_t k : subset)
        if (use.by_inst[k][pc]) return true;
      return false;
    };
    bool later = false;  // an access of S at or after pc in this block
    std::vector<bool> after(end - first, false);
    for (uint32_t pc = end; pc-- > first;) {
      later = later || touches(pc);
      after[pc - first] = later;
    }
    uint64_t count = 0;
    bool seen = acc.pre_in[b];
    for (uint32_t pc = first; pc < end; ++pc) {
      seen = seen || touches(pc);
      if (seen && (acc.post_out[b] || after[pc - first])) ++count;
    }
    weight[b] = analysis::saturating_mul(count, times[b]);
  }
  // Longest path over the blocks without back edges (reverse post-order is a
  // topological order of that graph for the reducible CFGs compilers emit).
  std::vector<uint64_t> dist(nb, 0);
  uint64_t best = 0;
  for (uint32_t b : cfg.rpo()) {
    uint64_t in = 0;
    for (uint32_t q : cfg.preds(b))
      if (q < nb && cfg.reachable(q) && !a.loops.is_back_edge(q, b)) in = std::max(in, dist[q]);
    dist[b] = in > ~uint64_t{0} - weight[b] ? ~uint64_t{0} : in + weight[b];  // saturating
    best = std::max(best, dist[b]);
  }
  return best;
}

std::vector<uint32_t> choose_shared_variables(const ir::Module& module, const ir::Function& fn,
                                              const SharedVariableUse& use, double t) {
  const size_t n = use.vars.size();
  if (n == 0 || n > 16) return {};
  uint64_t total = 0;
  for (uint32_t v : use.vars) total += module.vars[v].size;
  const double need = (1.0 - t) * static_cast<double>(total);
  std::vector<uint32_t> best;
  uint64_t best_cost = ~uint64_t{0}, best_size = ~uint64_t{0};
  for (uint32_t mask = 1; mask < (1u << n); ++mask) {
    std::vector<uint32_t> subset;
    uint64_t size = 0;
    for (uint32_t k = 0; k < n; ++k)
      if ((mask >> k) & 1) {
        subset.push_back(k);
        size += module.vars[use.vars[k]].size;
      }
    if (static_cast<double>(size) < need) continue;
    const uint64_t cost = access_range_cost(fn, use, subset);
    if (cost < best_cost || (cost == best_cost && size < best_size)) {
      best = subset;
      best_cost = cost;
      best_size = size;
    }
  }
  return best;
}

void layout_shared_region(const ir::Module& module, ir::Function& fn, const SharedVariableUse& use,
                          const std::vector<uint32_t>& chosen) {
  std::vector<bool> high(use.vars.size(), false);
  for (uint32_t k : chosen) high[k] = true;
  uint64_t end = 0, extern_align = 1;
  auto place = [&](bool want_high) {
    for (size_t k = 0; k < use.vars.size(); ++k) {
      if (high[k] != want_high) continue;
      const ir::Variable& v = module.vars[use.vars[k]];
      const uint64_t a = variable_alignment(v);
      end = (end + a - 1) / a * a;
      fn.var_offsets[use.vars[k]] = end;
      end += v.size;
    }
  };
  place(false);
  place(true);
  for (uint32_t v = 0; v < module.vars.size() && v < fn.var_offsets.size(); ++v)
    if (module.vars[v].space == ir::StateSpace::Shared && module.vars[v].is_extern && fn.var_offsets[v] != kNoOffset)
      extern_align = std::max(extern_align, variable_alignment(module.vars[v]));
  const uint64_t dynamic_start = (end + extern_align - 1) / extern_align * extern_align;
  for (uint32_t v = 0; v < module.vars.size() && v < fn.var_offsets.size(); ++v)
    if (module.vars[v].space == ir::StateSpace::Shared && module.vars[v].is_extern && fn.var_offsets[v] != kNoOffset)
      fn.var_offsets[v] = dynamic_start;
  fn.static_shared_bytes = end;
}

std::vector<bool> private_variables(const ir::Module& module, const ir::Function& fn, const SharedVariableUse& use,
                                    double t) {
  std::vector<bool> out(use.vars.size(), false);
  const double limit = t * static_cast<double>(fn.static_shared_bytes);
  for (size_t k = 0; k < use.vars.size(); ++k) {
    const uint64_t end = fn.var_offsets[use.vars[k]] + module.vars[use.vars[k]].size;
    out[k] = static_cast<double>(end) <= limit;
  }
  return out;
}

}  // namespace simtlm::frontend::passes
