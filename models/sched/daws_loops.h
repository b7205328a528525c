// The loops of a kernel as DAWS sees them (Rogers §4.2.1, seed note 002
// §7.3): the thesis marks the first and the last instruction of every loop by
// hand in the assembly; here the markers come from our natural-loop analysis
// (frontend/analysis/loops.h), kept with the kernel (FunctionAnalysis::
// analyses), as a per-kernel table indexed by pc:
//   loop begin  the first instruction of the loop's header block; a warp
//               issues it on entry and at the start of every iteration;
//   inside      a pc whose block belongs to the loop's body (nested loops
//               included);
//   leaving     after an instruction the warp's next pc is not inside the
//               loop any more (the "loop-end marker then a pc outside
//               [begin, end]" rule of §7.3, exact for any code layout).
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::ir {
struct Function;
}

namespace simtlm::models::sched {

struct DawsLoopTable {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Loop {
    uint32_t begin_pc = 0;
    uint32_t parent = kNone;  // innermost enclosing loop
  };
  std::vector<Loop> loops;          // ordered by header block
  std::vector<uint32_t> innermost;  // per pc: innermost loop containing it, or kNone
  std::vector<uint32_t> begins;     // per pc: the loop this pc begins, or kNone
  std::vector<uint32_t> next_loop;  // per pc: the first loop beginning after pc (program order), or kNone

  // The table of `fn` (its kept loop analysis). A function without analysis
  // is an Error(Internal): every launched kernel is analysed.
  static DawsLoopTable of(const ir::Function& fn);
  // A table from loops given as [begin_pc, end_pc) ranges over `num_insts`
  // instructions (hand-made kernels in tests; ranges nest or are disjoint).
  static DawsLoopTable from_ranges(uint32_t num_insts, const std::vector<std::pair<uint32_t, uint32_t>>& ranges);

  uint32_t loop_at(uint32_t pc) const { return pc < innermost.size() ? innermost[pc] : kNone; }
  uint32_t loop_begun_at(uint32_t pc) const { return pc < begins.size() ? begins[pc] : kNone; }
  // True when `outer` is `loop` or encloses it.
  bool encloses(uint32_t outer, uint32_t loop) const;
  // True when pc lies inside `loop` (or one of its inner loops).
  bool contains(uint32_t loop, uint32_t pc) const { return encloses(loop, loop_at(pc)); }

 private:
  void finish(uint32_t num_insts);  // begins and next_loop from loops and innermost
};

}  // namespace simtlm::models::sched
