// Natural loops: an edge latch -> header is a back edge when the header
// dominates the latch; the loop body is every block that reaches the latch
// without passing through the header. Back edges sharing a header form one
// loop. Retreating edges of irreducible regions (header does not dominate)
// form no natural loop and are ignored.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/dominators.h"

namespace simtlm::frontend::analysis {

struct Loop {
  uint32_t header = 0;
  std::vector<uint32_t> latches;   // sources of the back edges, ascending
  std::vector<uint32_t> blocks;    // body including header, ascending
  uint32_t parent = 0xFFFFFFFFu;   // innermost enclosing loop (index in LoopInfo::loops)
  uint32_t depth = 1;              // 1 = outermost
};

class LoopInfo {
 public:
  static constexpr uint32_t kNoLoop = 0xFFFFFFFFu;

  LoopInfo(const Cfg& cfg, const DominatorTree& dominators);

  // Loops ordered by header block index.
  const std::vector<Loop>& loops() const { return loops_; }
  // Header block indices, ascending (FunctionAnalysis::loop_headers).
  std::vector<uint32_t> headers() const;
  // Innermost loop containing `block`, or kNoLoop.
  uint32_t innermost(uint32_t block) const { return innermost_[block]; }
  // Loop nesting depth of a block (0 = not in a loop).
  uint32_t depth(uint32_t block) const {
    return innermost_[block] == kNoLoop ? 0 : loops_[innermost_[block]].depth;
  }
  bool is_back_edge(uint32_t from, uint32_t to) const;

 private:
  std::vector<Loop> loops_;
  std::vector<uint32_t> innermost_;
};

}  // namespace simtlm::frontend::analysis
