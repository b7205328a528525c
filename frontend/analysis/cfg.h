// Control-flow graph of one function.
//
// build_cfg() splits a function into basic blocks (Function::blocks): a block
// starts at instruction 0, at every label and branch target, and after every
// bra/brx.idx/ret/exit. Successors: an unguarded bra has one, a guarded bra
// two (taken target, fall-through), brx.idx one per distinct target (plus the
// fall-through when guarded); ret/exit and falling off the end of the function
// go to a *virtual exit*, which Function::blocks does not list (its succs only
// name real blocks) and which the Cfg view below adds as node num_blocks().
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

// Fills fn.blocks (first/last/succs/preds/label). Idempotent.
void build_cfg(ir::Function& fn);

// Read-only graph view over Function::blocks with the virtual exit node.
// Node ids: 0..num_blocks()-1 are blocks (0 is the entry), num_blocks() is exit.
// The view copies what it needs of the blocks, so it stays valid when the
// function is copied or moved (FunctionAnalysis::analyses outlives neither
// the instructions nor the blocks it was computed on, but may be shared by
// copies of the function).
class Cfg {
 public:
  // `fn.blocks` must be built (build_cfg).
  explicit Cfg(const ir::Function& fn);

  uint32_t num_blocks() const { return num_blocks_; }
  uint32_t num_nodes() const { return num_blocks_ + 1; }
  uint32_t entry() const { return 0; }
  uint32_t exit_node() const { return num_blocks_; }

  const std::vector<uint32_t>& succs(uint32_t node) const { return succs_[node]; }
  const std::vector<uint32_t>& preds(uint32_t node) const { return preds_[node]; }
  const std::vector<std::vector<uint32_t>>& all_succs() const { return succs_; }
  const std::vector<std::vector<uint32_t>>& all_preds() const { return preds_; }

  // Block containing instruction `inst`.
  uint32_t block_of(uint32_t inst) const { return block_of_[inst]; }
  uint32_t first_inst(uint32_t block) const { return bounds_[block].first; }
  uint32_t end_inst(uint32_t block) const { return bounds_[block].second; }
  // True when the block has an edge to the virtual exit.
  bool exits(uint32_t block) const;
  // Reachable from the entry.
  bool reachable(uint32_t block) const { return reachable_[block]; }
  // Reverse post-order of the blocks reachable from the entry (entry first).
  const std::vector<uint32_t>& rpo() const { return rpo_; }

 private:
  std::vector<std::pair<uint32_t, uint32_t>> bounds_;  // per block: first, one past the last instruction
  uint32_t num_blocks_;
  std::vector<std::vector<uint32_t>> succs_, preds_;
  std::vector<uint32_t> block_of_;
  std::vector<uint32_t> rpo_;
  std::vector<bool> reachable_;
};

// Branch targets of a control-transfer instruction (bra: its label; brx.idx:
// Instruction::targets). Empty for other opcodes.
std::vector<uint32_t> branch_targets(const ir::Instruction& inst);

// True for bra, brx.idx, ret and exit (instructions that end a block).
bool ends_block(const ir::Instruction& inst);

}  // namespace simtlm::frontend::analysis
