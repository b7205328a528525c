// Critical-edge splitting (Jatala §3.2.1, seed note 000 §2.9/§2.11): an edge
// whose source has several successors and whose destination several
// predecessors gets a block of its own, holding what must run on that edge
// only (a relssp) and a branch to the destination (the seed's GOTO; it is
// executed, so it counts as an instruction). The virtual exit (every ret and
// exit) counts as a join: an edge into it from a block with several
// successors (a guarded ret) is critical too, and its block ends with the
// original ret/exit instead of a branch.
//
// Where the block goes: on a fall-through edge right after its source (the
// destination's other predecessors branch past it); on a taken edge after the
// last instruction, with the source's branch retargeted to it.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/cfg.h"
#include "frontend/passes/rewrite.h"

namespace simtlm::frontend::passes {

struct CfgEdge {
  uint32_t from = 0;  // Cfg node ids; `to` may be the virtual exit
  uint32_t to = 0;
  bool operator==(const CfgEdge& o) const { return from == o.from && to == o.to; }
};

// The critical edges among the blocks reachable from the entry (unreachable
// predecessors are not counted), in (from, to) order.
std::vector<CfgEdge> critical_edges(const analysis::Cfg& cfg);

// Records in `rw` the block for edge `e` of `fn` (whose Cfg is `cfg`):
// `body` (marked `kinds`), then the branch to e.to (or the moved ret/exit).
void split_edge(FunctionRewriter& rw, const ir::Function& fn, const analysis::Cfg& cfg, const CfgEdge& e,
                std::vector<ir::Instruction> body, std::vector<uint8_t> kinds);

// Splits every critical edge of an analysed function with an empty block
// (just the branch) and returns how many it split. The function must be
// analysed again afterwards (analysis::analyze).
uint32_t split_critical_edges(ir::Function& fn);

}  // namespace simtlm::frontend::passes
