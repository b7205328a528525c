// Dominator and post-dominator trees.
//
// Immediate dominators are computed with the iterative algorithm of Cooper,
// Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001): nodes are
// processed in reverse post-order and idoms are intersected by walking up
// post-order numbers; on the reducible CFGs compilers emit it converges in two
// passes. The tree is then numbered by a DFS so that dominates() is O(1).
//
// Post-dominators are dominators of the reversed CFG rooted at the virtual
// exit. Blocks that cannot reach the exit (infinite loops) would have no
// post-dominator; like LLVM's PostDominatorTree we connect them: repeatedly
// take the highest-numbered block that still cannot reach the exit (the bottom
// of an infinite loop in layout order) and add a fake edge from it to the
// exit. Blocks unreachable from the entry still get post-dominators.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/cfg.h"

namespace simtlm::frontend::analysis {

class DominatorTree {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  DominatorTree() = default;
  // Dominators of the graph given by `succs`/`preds` (adjacency lists over
  // nodes 0..n-1) from `root`. Nodes not reachable from the root have no idom.
  DominatorTree(const std::vector<std::vector<uint32_t>>& succs,
                const std::vector<std::vector<uint32_t>>& preds, uint32_t root);

  uint32_t num_nodes() const { return static_cast<uint32_t>(idom_.size()); }
  uint32_t root() const { return root_; }
  // Immediate dominator; kNone for the root and for unreachable nodes.
  uint32_t idom(uint32_t n) const { return idom_[n]; }
  bool reachable(uint32_t n) const { return pre_[n] != kNone; }
  // a dominates b (reflexive). False when either is unreachable (unless a == b).
  bool dominates(uint32_t a, uint32_t b) const {
    if (a == b) return true;
    if (pre_[a] == kNone || pre_[b] == kNone) return false;
    return pre_[a] <= pre_[b] && post_[b] <= post_[a];
  }
  bool strictly_dominates(uint32_t a, uint32_t b) const { return a != b && dominates(a, b); }
  const std::vector<uint32_t>& children(uint32_t n) const { return children_[n]; }
  // Nearest common dominator of a and b (both reachable).
  uint32_t common_dominator(uint32_t a, uint32_t b) const;
  // Depth in the tree (root = 0); kNone when unreachable.
  uint32_t depth(uint32_t n) const { return depth_[n]; }

 private:
  uint32_t root_ = 0;
  std::vector<uint32_t> idom_;
  std::vector<std::vector<uint32_t>> children_;
  std::vector<uint32_t> pre_, post_, depth_;
};

// Dominator tree of the CFG rooted at the entry block (nodes = Cfg nodes; the
// virtual exit is a node too, dominated by whatever dominates all exits).
DominatorTree compute_dominators(const Cfg& cfg);

// Post-dominator tree rooted at the virtual exit, with fake exit edges for
// blocks that cannot reach it (see above). idom(b) is b's immediate
// post-dominator.
DominatorTree compute_post_dominators(const Cfg& cfg);

}  // namespace simtlm::frontend::analysis
