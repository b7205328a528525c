// Register liveness: a register is live at a point when some path from that
// point reads it before an (unconditional) write. Guarded writes do not kill:
// a thread whose guard is false keeps the old value, so the register stays
// live across them (FineReg's rule "predicated writes are non-killing").
//
// Computed by the classic backward bit-vector dataflow over blocks (worklist
// in post-order until stable), then one backward walk per block records the
// live-in set of every instruction. Sets are over virtual registers
// (Function::regs indices, predicates included; filter by Register::type).
//
// Storage is one flat word array: live_in(i) of every instruction plus the
// live-out set of every block; live_out(i) is live_in(i+1) inside a block.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/bitset.h"
#include "frontend/analysis/cfg.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

class Liveness {
 public:
  Liveness(const ir::Function& fn, const Cfg& cfg);

  uint32_t num_regs() const { return num_regs_; }
  uint32_t num_insts() const { return num_insts_; }

  // Registers live immediately before / after instruction `inst`.
  BitsView live_in(uint32_t inst) const { return view(inst_in_, inst); }
  BitsView live_out(uint32_t inst) const;
  BitsView block_live_in(uint32_t block) const;
  BitsView block_live_out(uint32_t block) const { return view(block_out_, block); }

  bool is_live_in(uint32_t inst, uint32_t reg) const { return live_in(inst).test(reg); }
  bool is_live_out(uint32_t inst, uint32_t reg) const { return live_out(inst).test(reg); }
  std::vector<uint32_t> live_in_regs(uint32_t inst) const { return live_in(inst).to_vector(); }
  std::vector<uint32_t> live_out_regs(uint32_t inst) const { return live_out(inst).to_vector(); }

  // Registers read before being written in the function (live at entry):
  // normally empty for nvcc output; non-empty means a possibly uninitialised read.
  BitsView live_at_entry() const { return num_insts_ ? live_in(0) : BitsView(); }

 private:
  BitsView view(const std::vector<uint64_t>& v, uint32_t i) const {
    return BitsView(v.data() + static_cast<size_t>(i) * words_, words_);
  }

  const Cfg* cfg_;
  uint32_t num_regs_ = 0;
  uint32_t num_insts_ = 0;
  size_t words_ = 0;
  std::vector<uint64_t> inst_in_;    // num_insts × words
  std::vector<uint64_t> block_out_;  // num_blocks × words
  std::vector<uint32_t> block_last_; // one past the last instruction of each block
};

}  // namespace simtlm::frontend::analysis
