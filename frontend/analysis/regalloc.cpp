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

}  // namespace

RegisterAllocation allocate_registers(const ir::Function& fn, const Cfg& cfg, const Liveness& live) {
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

  Graph g;
  g.adj.resize(nregs);
  g.copies.resize(nregs);
  auto add_edge = [&](uint32_t a, uint32_t b) {
    if (a == b || is_pred[a] != is_pred[b]) return;
    g.adj[a].push_back(b);
    g.adj[b].push_back(a);
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
  auto pressure = [&](BitsView set, const std::vector<uint32_t>& extra, uint32_t& r32, uint32_t& rp) {
    r32 = 0;
    rp = 0;
    set.for_each([&](size_t r) {
      if (is_pred[r]) ++rp;
      else r32 += std::max<uint32_t>(1, size[r]);
    });
    for (uint32_t r : extra)
      if (!set.test(r)) {
        if (is_pred[r]) ++rp;
        else r32 += std::max<uint32_t>(1, size[r]);
      }
  };
  const std::vector<uint32_t> none;
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

      BitsView after = live.live_out(i);
      for (size_t k = 0; k < acc.defs.size(); ++k) {
        uint32_t d = acc.defs[k];
        after.for_each([&](size_t r) {
          if (r != copy_src) add_edge(d, static_cast<uint32_t>(r));
        });
        for (size_t k2 = k + 1; k2 < acc.defs.size(); ++k2) add_edge(d, acc.defs[k2]);
      }

      uint32_t r32, rp;
      pressure(live.live_in(i), none, r32, rp);
      max_live32 = std::max(max_live32, r32);
      max_live_p = std::max(max_live_p, rp);
      pressure(after, acc.defs, r32, rp);
      max_live32 = std::max(max_live32, r32);
      max_live_p = std::max(max_live_p, rp);
    }
  }
  for (auto& a : g.adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  out.max_live_regs32 = max_live32;
  out.max_live_preds = max_live_p;

  // Colour each class with several orders and keep the best.
  for (int pred_class = 0; pred_class < 2; ++pred_class) {
    std::vector<uint32_t> nodes;
    for (uint32_t r : def_order)
      if (is_pred[r] == pred_class) nodes.push_back(r);
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
    std::vector<uint32_t> slot(nregs), best_slot;
    for (const auto& order : orders)
      for (bool use_copies : {true, false}) {
        uint32_t used = colour(g, order, size, use_copies, slot);
        if (used < best) {
          best = used;
          best_slot = slot;
        }
      }
    for (uint32_t r : nodes) out.phys[r] = best_slot[r];
    (pred_class ? out.preds : out.regs32) = best;
  }
  return out;
}

}  // namespace simtlm::frontend::analysis
