// Interference-graph colouring with aligned multi-register values (see regalloc.h).
#include "frontend/analysis/regalloc.h"

#include <algorithm>
#include <queue>

#include "frontend/analysis/reg_access.h"

namespace simtlm::frontend::analysis {

uint32_t reg_units(const ir::Register& reg) {
  if (reg.type == ir::DataType::Pred) return 0;
  unsigned bytes = ir::type_size(reg.type);
  uint32_t units = bytes <= 4 ? 1 : (bytes + 3) / 4;
  return units * std::max(1u, reg.vec);
}

std::vector<uint32_t> live_physical_regs(const ir::Function& fn, const RegisterAllocation& alloc,
                                         BitsView live) {
  std::vector<uint32_t> out;
  live.for_each([&](size_t r) {
    uint32_t p = alloc.phys[r];
    if (p == kNoPhysReg || p == kConstantBank) return;
    uint32_t units = reg_units(fn.regs[r]);
    for (uint32_t k = 0; k < units; ++k) out.push_back(p + k);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

uint32_t RegisterAllocation::regs_per_thread() const {
  uint32_t n = regs32 + kReservedRegs;
  return (n + 1) & ~1u;
}

namespace {

struct Graph {
  std::vector<std::vector<uint32_t>> adj;
  std::vector<std::vector<uint32_t>> copies;  // copy-related partners
};

uint32_t alignment_of(uint32_t units) {
  if (units >= 4) return 4;
  if (units >= 2) return 2;
  return 1;
}

// Greedy colouring in `order`; returns the number of slots used.
uint32_t colour(const Graph& g, const std::vector<uint32_t>& order, const std::vector<uint32_t>& size,
                bool use_copies, std::vector<uint32_t>& slot) {
  std::fill(slot.begin(), slot.end(), kNoPhysReg);
  std::vector<char> busy;
  uint32_t used = 0;
  for (uint32_t v : order) {
    const uint32_t sz = std::max<uint32_t>(1, size[v]);
    const uint32_t al = alignment_of(sz);
    busy.assign(used + sz + 4, 0);
    for (uint32_t u : g.adj[v]) {
      if (slot[u] == kNoPhysReg) continue;
      uint32_t usz = std::max<uint32_t>(1, size[u]);
      for (uint32_t k = 0; k < usz; ++k) busy[slot[u] + k] = 1;
    }
    auto fits = [&](uint32_t s) {
      if (s % al) return false;
      for (uint32_t k = 0; k < sz; ++k)
        if (s + k < busy.size() && busy[s + k]) return false;
      return true;
    };
    uint32_t chosen = kNoPhysReg;
    if (use_copies)
      for (uint32_t p : g.copies[v])
        if (slot[p] != kNoPhysReg && fits(slot[p])) {
          chosen = slot[p];
          break;
        }
    if (chosen == kNoPhysReg)
      for (uint32_t s = 0;; s += al)
        if (fits(s)) {
          chosen = s;
          break;
        }
    slot[v] = chosen;
    used = std::max(used, chosen + sz);
  }
  return used;
}

// Smallest-last order (Matula-Beck), degrees weighted by register size: the
// node removed last is coloured first.
std::vector<uint32_t> smallest_last_order(const Graph& g, const std::vector<uint32_t>& nodes,
                                          const std::vector<uint32_t>& size) {
  const size_t n = g.adj.size();
  std::vector<uint64_t> degree(n, 0);
  std::vector<char> removed(n, 1);
  for (uint32_t v : nodes) removed[v] = 0;
  for (uint32_t v : nodes)
    for (uint32_t u : g.adj[v]) degree[v] += std::max<uint32_t>(1, size[u]);
  using Item = std::pair<uint64_t, uint32_t>;  // (weighted degree, node), min first
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (uint32_t v : nodes) heap.emplace(degree[v], v);
  std::vector<uint32_t> removal;
  removal.reserve(nodes.size());
  while (!heap.empty()) {
    auto [d, v] = heap.top();
    heap.pop();
    if (removed[v] || d != degree[v]) continue;
    removed[v] = 1;
    removal.push_back(v);
    for (uint32_t u : g.adj[v])
      if (!removed[u]) {
        degree[u] -= std::max<uint32_t>(1, size[v]);
        heap.emplace(degree[u], u);
      }
  }
  return std::vector<uint32_t>(removal.rbegin(), removal.rend());
}

bool is_constant_bank_special(const ir::Operand& op) {
  return op.kind == ir::OperandKind::Special &&
         (op.sreg == ir::SpecialReg::Ntid || op.sreg == ir::SpecialReg::Nctaid);
}

// Instructions whose SASS form takes one source straight from the constant
// bank (ALU, compare, convert, move); memory, atomic, communication and
// control instructions need every register operand in a register.
bool takes_constant_operand(const ir::Instruction& inst) {
  switch (inst.op) {
    case ir::Opcode::Ld: case ir::Opcode::Ldu: case ir::Opcode::St: case ir::Opcode::Prefetch:
    case ir::Opcode::Atom: case ir::Opcode::Red: case ir::Opcode::Shfl: case ir::Opcode::Vote:
    case ir::Opcode::Bar: case ir::Opcode::Call: case ir::Opcode::Bra: case ir::Opcode::BrxIdx:
    case ir::Opcode::Ret: case ir::Opcode::Exit: case ir::Opcode::Extension: case ir::Opcode::Isspacep:
    case ir::Opcode::Cvta: case ir::Opcode::Invalid:
      return false;
    default:
      return true;
  }
}

}  // namespace

std::vector<char> constant_bank_registers(const ir::Function& fn) {
  const uint32_t nregs = static_cast<uint32_t>(fn.regs.size());
  std::vector<char> remat(nregs, 0);
  // A register qualifies when every write to it is an unguarded
  //   ld.param of a kernel parameter | mov of %ntid/%nctaid |
  //   mov or cvta.to.global of a qualifying register.
  // Start optimistic for registers with only such writes and drop the ones
  // whose source does not qualify until nothing changes.
  std::vector<char> bad(nregs, 0);
  struct Dep { uint32_t dst, src; };
  std::vector<Dep> deps;
  std::vector<char> written(nregs, 0);
  RegAccess acc;
  for (const ir::Instruction& inst : fn.insts) {
    collect_reg_access(inst, acc);
    for (uint32_t d : acc.defs) {
      written[d] = 1;
      bool ok = !inst.has_guard && acc.defs.size() == 1 && inst.ops.size() == 2 &&
                inst.ops[0].kind == ir::OperandKind::Reg && fn.regs[d].type != ir::DataType::Pred;
      if (ok) {
        const ir::Operand& src = inst.ops[1];
        // In a kernel (after inline_calls) every ld.param reads a kernel parameter.
        if (inst.op == ir::Opcode::Ld && inst.space == ir::StateSpace::Param && inst.vec == 1 &&
            fn.is_entry && src.kind == ir::OperandKind::Address && src.base == ir::OperandKind::Symbol) {
        } else if (inst.op == ir::Opcode::Mov && is_constant_bank_special(src)) {
        } else if ((inst.op == ir::Opcode::Mov ||
                    (inst.op == ir::Opcode::Cvta && inst.cvta_to && inst.space == ir::StateSpace::Global)) &&
                   src.kind == ir::OperandKind::Reg) {
          deps.push_back({d, src.reg});
        } else {
          ok = false;
        }
      }
      if (!ok) bad[d] = 1;
    }
  }
  for (uint32_t r = 0; r < nregs; ++r) remat[r] = written[r] && !bad[r];
  for (bool changed = true; changed;) {
    changed = false;
    for (const Dep& dep : deps)
      if (remat[dep.dst] && !remat[dep.src]) {
        remat[dep.dst] = 0;
        changed = true;
      }
  }
  return remat;
}

RegisterAllocation allocate_registers(const ir::Function& fn, const Cfg& cfg, const Liveness& live,
                                      const RegAllocOptions& options) {
  const uint32_t nregs = static_cast<uint32_t>(fn.regs.size());
  RegisterAllocation out;
  out.phys.assign(nregs, kNoPhysReg);
  if (nregs == 0) return out;

  std::vector<uint32_t> size(nregs);
  std::vector<char> is_pred(nregs);
  for (uint32_t r = 0; r < nregs; ++r) {
    size[r] = reg_units(fn.regs[r]);
    is_pred[r] = fn.regs[r].type == ir::DataType::Pred;
  }
  std::vector<char> remat = options.constant_bank_operands ? constant_bank_registers(fn)
                                                           : std::vector<char>(nregs, 0);

  // Nodes 0..nregs-1 are the virtual registers; temporaries that materialise a
  // constant-bank value for one instruction are appended.
  Graph g;
  g.adj.resize(nregs);
  g.copies.resize(nregs);
  auto add_edge = [&](uint32_t a, uint32_t b) {
    if (a == b || is_pred[a] != is_pred[b]) return;
    if ((a < nregs && remat[a]) || (b < nregs && remat[b])) return;
    g.adj[a].push_back(b);
    g.adj[b].push_back(a);
  };
  auto new_temp = [&](uint32_t units) {
    g.adj.emplace_back();
    g.copies.emplace_back();
    size.push_back(units);
    is_pred.push_back(0);
    return static_cast<uint32_t>(g.adj.size() - 1);
  };

  // Referenced registers, in definition order along the reverse post-order
  // (registers live at entry first), and the interference edges.
  std::vector<char> referenced(nregs, 0);
  std::vector<uint32_t> def_order;
  auto reference = [&](uint32_t r) {
    if (r < nregs && !referenced[r]) {
      referenced[r] = 1;
      def_order.push_back(r);
    }
  };
  std::vector<uint32_t> entry_live = live.live_at_entry().to_vector();
  for (uint32_t r : entry_live) reference(r);
  for (size_t i = 0; i < entry_live.size(); ++i)
    for (size_t j = i + 1; j < entry_live.size(); ++j) add_edge(entry_live[i], entry_live[j]);

  std::vector<uint32_t> blocks = cfg.rpo();
  {
    std::vector<char> seen(cfg.num_blocks(), 0);
    for (uint32_t b : blocks) seen[b] = 1;
    for (uint32_t b = 0; b < cfg.num_blocks(); ++b)
      if (!seen[b]) blocks.push_back(b);
  }
  RegAccess acc;
  uint32_t max_live32 = 0, max_live_p = 0;
  auto units_of = [&](size_t r) -> uint32_t { return std::max<uint32_t>(1, size[r]); };
  // Pressure of `set` (plus `extra` registers, plus `temp_units`) among the
  // registers that occupy physical registers.
  auto pressure = [&](BitsView set, const std::vector<uint32_t>& extra, uint32_t temp_units) {
    uint32_t r32 = temp_units, rp = 0;
    set.for_each([&](size_t r) {
      if (remat[r]) return;
      if (is_pred[r]) ++rp;
      else r32 += units_of(r);
    });
    for (uint32_t r : extra)
      if (!set.test(r) && !remat[r]) {
        if (is_pred[r]) ++rp;
        else r32 += units_of(r);
      }
    max_live32 = std::max(max_live32, r32);
    max_live_p = std::max(max_live_p, rp);
  };
  const std::vector<uint32_t> none;
  std::vector<uint32_t> remat_uses, temps;
  for (uint32_t b : blocks) {
    for (uint32_t i = cfg.first_inst(b); i < cfg.end_inst(b); ++i) {
      const ir::Instruction& inst = fn.insts[i];
      collect_reg_access(inst, acc);
      for (uint32_t u : acc.uses) reference(u);
      for (uint32_t d : acc.defs) reference(d);

      // Copy `mov d, s` between registers of the same class and size.
      uint32_t copy_src = kNoPhysReg;
      if (inst.op == ir::Opcode::Mov && !inst.has_guard && inst.ops.size() == 2 &&
          inst.ops[0].kind == ir::OperandKind::Reg && inst.ops[1].kind == ir::OperandKind::Reg &&
          !inst.ops[1].negate) {
        uint32_t d = inst.ops[0].reg, s = inst.ops[1].reg;
        if (d != s && d < nregs && s < nregs && size[d] == size[s] && is_pred[d] == is_pred[s]) {
          copy_src = s;
          g.copies[d].push_back(s);
          g.copies[s].push_back(d);
        }
      }

      BitsView before = live.live_in(i);
      BitsView after = live.live_out(i);
      for (size_t k = 0; k < acc.defs.size(); ++k) {
        uint32_t d = acc.defs[k];
        after.for_each([&](size_t r) {
          if (r != copy_src) add_edge(d, static_cast<uint32_t>(r));
        });
        for (size_t k2 = k + 1; k2 < acc.defs.size(); ++k2) add_edge(d, acc.defs[k2]);
      }

      // Constant-bank values read here that need a register for this
      // instruction: all of them for memory/control instructions, all but one
      // for ALU instructions (one source can be a constant-bank operand).
      remat_uses.clear();
      for (uint32_t u : acc.uses)
        if (remat[u]) remat_uses.push_back(u);
      if (!remat_uses.empty() && takes_constant_operand(inst) &&
          !(inst.op == ir::Opcode::Mov && acc.defs.size() == 1 && remat[acc.defs[0]]))
        remat_uses.erase(remat_uses.begin());
      if (inst.op == ir::Opcode::Mov && !acc.defs.empty() && remat[acc.defs[0]]) remat_uses.clear();
      temps.clear();
      uint32_t temp_units = 0;
      for (uint32_t u : remat_uses) {
        uint32_t t = new_temp(units_of(u));
        temp_units += units_of(u);
        before.for_each([&](size_t r) { add_edge(t, static_cast<uint32_t>(r)); });
        for (uint32_t t2 : temps) add_edge(t, t2);
        temps.push_back(t);
        def_order.push_back(t);
      }

      pressure(before, none, temp_units);
      pressure(after, acc.defs, 0);
    }
  }
  for (auto& a : g.adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  out.max_live_regs32 = max_live32;
  out.max_live_preds = max_live_p;

  // Colour each class with several orders and keep the best.
  const uint32_t nnodes = static_cast<uint32_t>(g.adj.size());
  for (int pred_class = 0; pred_class < 2; ++pred_class) {
    std::vector<uint32_t> nodes;
    for (uint32_t r : def_order)
      if (is_pred[r] == pred_class && !(r < nregs && remat[r])) nodes.push_back(r);
    if (nodes.empty()) continue;
    std::vector<std::vector<uint32_t>> orders;
    orders.push_back(nodes);
    orders.push_back(smallest_last_order(g, nodes, size));
    // Wide values first: a pair placed before the single registers around it
    // does not leave an odd hole.
    std::vector<uint32_t> wide_first = nodes;
    std::stable_sort(wide_first.begin(), wide_first.end(),
                     [&](uint32_t a, uint32_t b) { return size[a] > size[b]; });
    if (wide_first != nodes) orders.push_back(std::move(wide_first));
    uint32_t best = kNoPhysReg;
    std::vector<uint32_t> slot(nnodes), best_slot;
    for (const auto& order : orders)
      for (bool use_copies : {true, false}) {
        uint32_t used = colour(g, order, size, use_copies, slot);
        if (used < best) {
          best = used;
          best_slot = slot;
        }
      }
    for (uint32_t r : nodes)
      if (r < nregs) out.phys[r] = best_slot[r];
    (pred_class ? out.preds : out.regs32) = best;
  }
  for (uint32_t r = 0; r < nregs; ++r)
    if (remat[r] && referenced[r]) out.phys[r] = kConstantBank;
  return out;
}

}  // namespace simtlm::frontend::analysis
