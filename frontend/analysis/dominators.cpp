// Cooper-Harvey-Kennedy dominators; post-dominators via the reversed CFG.
#include "frontend/analysis/dominators.h"

#include <algorithm>

namespace simtlm::frontend::analysis {

DominatorTree::DominatorTree(const std::vector<std::vector<uint32_t>>& succs,
                             const std::vector<std::vector<uint32_t>>& preds, uint32_t root)
    : root_(root) {
  const uint32_t n = static_cast<uint32_t>(succs.size());
  idom_.assign(n, kNone);
  children_.assign(n, {});
  pre_.assign(n, kNone);
  post_.assign(n, kNone);
  depth_.assign(n, kNone);
  if (root >= n) return;

  // Post-order numbering from the root (iterative DFS).
  std::vector<uint32_t> po_num(n, kNone);
  std::vector<uint32_t> order;  // post-order
  order.reserve(n);
  {
    std::vector<char> seen(n, 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    stack.emplace_back(root, 0);
    seen[root] = 1;
    while (!stack.empty()) {
      auto& [v, pos] = stack.back();
      if (pos < succs[v].size()) {
        uint32_t s = succs[v][pos++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.emplace_back(s, 0);
        }
      } else {
        po_num[v] = static_cast<uint32_t>(order.size());
        order.push_back(v);
        stack.pop_back();
      }
    }
  }

  // Iterate to a fixed point in reverse post-order. idom(root) = root during
  // the iteration (reset to kNone at the end).
  std::vector<uint32_t> dom(n, kNone);
  dom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = dom[a];
      while (po_num[b] < po_num[a]) b = dom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      uint32_t v = *it;
      if (v == root) continue;
      uint32_t new_idom = kNone;
      for (uint32_t p : preds[v]) {
        if (po_num[p] == kNone || dom[p] == kNone) continue;  // unreachable / not yet processed
        new_idom = new_idom == kNone ? p : intersect(p, new_idom);
      }
      if (new_idom != dom[v]) {
        dom[v] = new_idom;
        changed = true;
      }
    }
  }

  for (uint32_t v = 0; v < n; ++v) {
    if (v == root || dom[v] == kNone) continue;
    idom_[v] = dom[v];
    children_[dom[v]].push_back(v);
  }

  // Pre/post numbering of the tree for O(1) dominance queries.
  uint32_t counter = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  stack.emplace_back(root, 0);
  pre_[root] = counter++;
  depth_[root] = 0;
  while (!stack.empty()) {
    auto& [v, pos] = stack.back();
    if (pos < children_[v].size()) {
      uint32_t c = children_[v][pos++];
      pre_[c] = counter++;
      depth_[c] = depth_[v] + 1;
      stack.emplace_back(c, 0);
    } else {
      post_[v] = counter++;
      stack.pop_back();
    }
  }
}

uint32_t DominatorTree::common_dominator(uint32_t a, uint32_t b) const {
  if (!reachable(a)) return reachable(b) ? b : kNone;
  if (!reachable(b)) return a;
  while (depth_[a] > depth_[b]) a = idom_[a];
  while (depth_[b] > depth_[a]) b = idom_[b];
  while (a != b) {
    a = idom_[a];
    b = idom_[b];
  }
  return a;
}

DominatorTree compute_dominators(const Cfg& cfg) {
  return DominatorTree(cfg.all_succs(), cfg.all_preds(), cfg.entry());
}

DominatorTree compute_post_dominators(const Cfg& cfg) {
  const uint32_t n = cfg.num_nodes();
  const uint32_t exit = cfg.exit_node();
  // Reversed graph: successors in the post-dominator problem are CFG preds.
  std::vector<std::vector<uint32_t>> rsuccs = cfg.all_preds();
  std::vector<std::vector<uint32_t>> rpreds = cfg.all_succs();

  // Which nodes reach the exit: backward search from it, extended every time
  // a fake edge is added.
  std::vector<char> reaches(n, 0);
  std::vector<uint32_t> work;
  auto mark_from = [&](uint32_t start) {
    reaches[start] = 1;
    work.push_back(start);
    while (!work.empty()) {
      uint32_t v = work.back();
      work.pop_back();
      for (uint32_t p : rsuccs[v])
        if (!reaches[p]) {
          reaches[p] = 1;
          work.push_back(p);
        }
    }
  };
  mark_from(exit);
  for (uint32_t b = cfg.num_blocks(); b-- > 0;) {
    if (reaches[b]) continue;
    // Fake edge b -> exit.
    rsuccs[exit].push_back(b);
    rpreds[b].push_back(exit);
    mark_from(b);
  }
  return DominatorTree(rsuccs, rpreds, exit);
}

}  // namespace simtlm::frontend::analysis
