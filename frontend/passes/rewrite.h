// Inserting instructions into a kernel whose branch targets are instruction
// indices (ir::Operand::target, Instruction::targets, Function::labels).
// Collect the edits against the original pcs, then apply() renumbers every
// target once. Used by the relssp placement (relssp_placement.h) and the
// critical-edge splitting (edge_split.h).
//
//   insert_before(pc, i)  i runs before pc and is where branches to pc land
//                         (the start of pc's block, when pc starts one);
//   insert_after(pc, i)   i runs after pc on its fall-through; branches to
//                         pc + 1 do not pass through it;
//   add_tail_block(...)   a block appended after the last instruction,
//                         reached only by branches to tail_target(k);
//   replace(pc, i)        the instruction at pc becomes i (targets in i are
//                         original pcs or tail targets, renumbered too).
// Every inserted instruction is marked with a non-zero kind (apply() returns
// one mark per new instruction, 0 for the original ones). apply() leaves
// Function::blocks and the analyses stale: run analysis::analyze again.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

// Marks of FunctionRewriter::apply (any value but kOriginal is inserted).
enum InsertKind : uint8_t {
  kOriginal = 0,
  kInsertedRelssp = 1,  // a relssp of the placement
  kInsertedBranch = 2,  // the branch of a split edge (the seed's GOTO)
  kInsertedExit = 3,    // a ret ending the original code before tail blocks, or one moved into a split block
};

class FunctionRewriter {
 public:
  explicit FunctionRewriter(const ir::Function& fn);

  void insert_before(uint32_t pc, ir::Instruction inst, uint8_t kind);
  void insert_after(uint32_t pc, ir::Instruction inst, uint8_t kind);
  // Returns the block's target value (usable in bra operands of any edit).
  uint32_t add_tail_block(std::vector<ir::Instruction> insts, std::vector<uint8_t> kinds, std::string label);
  void replace(uint32_t pc, ir::Instruction inst);
  // The instruction at pc with the replacements recorded so far.
  const ir::Instruction& current(const ir::Function& fn, uint32_t pc) const;
  bool has_edits() const { return edits_ != 0; }

  // Applies the edits to `fn` (the function given to the constructor) and
  // returns the mark of every instruction of the result.
  std::vector<uint8_t> apply(ir::Function& fn) const;

  // An unguarded `bra.uni target;` (target: an original pc or a tail target).
  static ir::Instruction branch_to(uint32_t target, const ir::SourceLoc& loc);

 private:
  struct Added {
    ir::Instruction inst;
    uint8_t kind;
  };
  struct Tail {
    std::vector<Added> insts;
    std::string label;
  };
  static constexpr uint32_t kTailBit = 0x80000000u;
  uint32_t n_;
  std::vector<std::vector<Added>> before_, after_;
  std::vector<Tail> tail_;
  std::map<uint32_t, ir::Instruction> replaced_;
  uint32_t edits_ = 0;
};

}  // namespace simtlm::frontend::passes
