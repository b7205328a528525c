// Basic blocks and the CFG view with a virtual exit (see cfg.h).
#include "frontend/analysis/cfg.h"

#include <algorithm>

namespace simtlm::frontend::analysis {

namespace {
void push_unique(std::vector<uint32_t>& v, uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// Successor "instruction indices" of the block ending at `last` (exclusive);
// n (= insts.size()) stands for the virtual exit.
void terminator_targets(const ir::Function& fn, uint32_t last, std::vector<uint32_t>& out) {
  const uint32_t n = static_cast<uint32_t>(fn.insts.size());
  out.clear();
  const ir::Instruction& t = fn.insts[last - 1];
  bool falls_through = true;
  switch (t.op) {
    case ir::Opcode::Bra:
    case ir::Opcode::BrxIdx:
      for (uint32_t target : branch_targets(t)) out.push_back(std::min(target, n));
      falls_through = t.has_guard;
      break;
    case ir::Opcode::Ret:
    case ir::Opcode::Exit:
      out.push_back(n);
      falls_through = t.has_guard;
      break;
    default:
      break;
  }
  if (falls_through) out.push_back(last);  // last == n -> exit
}
}  // namespace

std::vector<uint32_t> branch_targets(const ir::Instruction& inst) {
  std::vector<uint32_t> out;
  if (inst.op == ir::Opcode::Bra) {
    for (const ir::Operand& op : inst.ops)
      if (op.kind == ir::OperandKind::Label) {
        out.push_back(op.target);
        break;
      }
  } else if (inst.op == ir::Opcode::BrxIdx) {
    out = inst.targets;
    if (out.empty()) {
      for (const ir::Operand& op : inst.ops)
        if (op.kind == ir::OperandKind::Label) out.push_back(op.target);
    }
  }
  return out;
}

bool ends_block(const ir::Instruction& inst) {
  switch (inst.op) {
    case ir::Opcode::Bra:
    case ir::Opcode::BrxIdx:
    case ir::Opcode::Ret:
    case ir::Opcode::Exit:
      return true;
    default:
      return false;
  }
}

void build_cfg(ir::Function& fn) {
  fn.blocks.clear();
  const uint32_t n = static_cast<uint32_t>(fn.insts.size());
  if (n == 0) return;

  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (const auto& [name, idx] : fn.labels)
    if (idx < n) leader[idx] = 1;
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Instruction& inst = fn.insts[i];
    if (!ends_block(inst)) continue;
    leader[i + 1] = 1;
    for (uint32_t t : branch_targets(inst))
      if (t < n) leader[t] = 1;
  }

  std::vector<uint32_t> block_at(n + 1, 0);  // instruction index -> block, for leaders
  for (uint32_t i = 0; i < n; ++i) {
    if (!leader[i]) continue;
    if (!fn.blocks.empty()) fn.blocks.back().last = i;
    ir::BasicBlock b;
    b.first = i;
    block_at[i] = static_cast<uint32_t>(fn.blocks.size());
    fn.blocks.push_back(std::move(b));
  }
  fn.blocks.back().last = n;

  // First label (by name order of the map is arbitrary; prefer the
  // lexicographically smallest for determinism) naming each block.
  for (const auto& [name, idx] : fn.labels) {
    if (idx >= n) continue;
    ir::BasicBlock& b = fn.blocks[block_at[idx]];
    if (b.first == idx && b.label.empty()) b.label = name;
  }

  std::vector<uint32_t> targets;
  for (uint32_t bi = 0; bi < fn.blocks.size(); ++bi) {
    ir::BasicBlock& b = fn.blocks[bi];
    terminator_targets(fn, b.last, targets);
    for (uint32_t t : targets)
      if (t < n) push_unique(b.succs, block_at[t]);
  }
  for (uint32_t bi = 0; bi < fn.blocks.size(); ++bi)
    for (uint32_t s : fn.blocks[bi].succs) fn.blocks[s].preds.push_back(bi);
}

Cfg::Cfg(const ir::Function& fn)
    : num_blocks_(static_cast<uint32_t>(fn.blocks.size())) {
  const uint32_t n = static_cast<uint32_t>(fn.insts.size());
  succs_.resize(num_nodes());
  preds_.resize(num_nodes());
  block_of_.assign(n, 0);
  bounds_.reserve(num_blocks_);
  std::vector<uint32_t> targets;
  for (uint32_t bi = 0; bi < num_blocks_; ++bi) {
    const ir::BasicBlock& b = fn.blocks[bi];
    bounds_.emplace_back(b.first, b.last);
    for (uint32_t i = b.first; i < b.last; ++i) block_of_[i] = bi;
    succs_[bi] = b.succs;
    terminator_targets(fn, b.last, targets);
    for (uint32_t t : targets)
      if (t >= n) {
        push_unique(succs_[bi], exit_node());
        break;
      }
  }
  for (uint32_t v = 0; v < num_nodes(); ++v)
    for (uint32_t s : succs_[v]) preds_[s].push_back(v);

  // Reverse post-order from the entry (iterative DFS).
  reachable_.assign(num_nodes(), false);
  if (num_blocks_ == 0) return;
  std::vector<uint32_t> post;
  post.reserve(num_nodes());
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // node, next successor position
  stack.emplace_back(0, 0);
  reachable_[0] = true;
  while (!stack.empty()) {
    auto& [v, pos] = stack.back();
    if (pos < succs_[v].size()) {
      uint32_t s = succs_[v][pos++];
      if (s != exit_node() && !reachable_[s]) {
        reachable_[s] = true;
        stack.emplace_back(s, 0);
      }
    } else {
      post.push_back(v);
      stack.pop_back();
    }
  }
  rpo_.assign(post.rbegin(), post.rend());
}

bool Cfg::exits(uint32_t block) const {
  const auto& s = succs_[block];
  return std::find(s.begin(), s.end(), exit_node()) != s.end();
}

}  // namespace simtlm::frontend::analysis
