// Static metrics of the seed's occupancy characterisation (Hayes & Zhang
// §4.1-4.2, seed note 001 §1.7-1.8): AD_int, the average dispatch interval
// between adjacent instructions of one thread, and the computation-
// interleaving predicate CI_pred = COMPUTE_inst x AD_int / MEM_inst >
// MAX_cmratio.
//
// The seed read AD_int from Kepler's control words (the stall count nvcc's
// scheduler encodes before each instruction). PTX has none, so (decision,
// docs/unified-allocation.md) we list-schedule each basic block for one warp
// and take the intervals of that schedule: in-order issue of at most one
// instruction per cycle, an instruction issues once every register it reads
// was written at least `latency` cycles before by its producer; among the
// instructions whose operands are ready, the one on the longest remaining
// dependence path goes first (ties: program order). Stores, loads, atomics,
// barriers and control instructions keep their program order (memory and
// control dependences are not analysed).
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

// One instruction of a block to schedule: its result latency and the block
// positions of the earlier instructions it must follow.
struct SchedNode {
  uint32_t latency = 1;
  std::vector<uint32_t> after;  // producers (their latency applies)
  std::vector<uint32_t> order;  // ordering only (may issue the next cycle)
};
// Issue cycle of every node (the first at 0).
std::vector<uint32_t> list_schedule(const std::vector<SchedNode>& block);

struct LatencyModel {
  uint32_t alu = 9;        // the seed's measured add/sub latency (§5)
  uint32_t sfu = 18;       // rcp, sqrt, ex2, sin, ... (twice the ALU's; an assumption)
  uint32_t shared = 24;    // shared-memory load ("several cycles", note §5.1)
  uint32_t offchip = 9;    // an off-chip load's consumer waits on a scoreboard, not on the
                           // encoded interval: counted as an ALU result
};

// AD_int of one analysed function: the sum over blocks of (last issue cycle
// - first issue cycle) over the sum of (instructions - 1); 1 for a function
// without two instructions in one block.
double average_dispatch_interval(const ir::Function& fn, const LatencyModel& latency = {});

// Static instruction counts after the transformation: off-chip memory
// instructions (global, local, generic and constant-space loads and stores,
// atomics, reductions) and the rest (shared-memory spill accesses count as
// compute, as in the seed).
struct InstructionMix {
  uint32_t compute = 0;
  uint32_t memory = 0;
};
InstructionMix instruction_mix(const ir::Function& fn);

inline constexpr double kMaxCmRatio = 200.0;  // §5: effective off-chip latency 150-200 cycles
// CI_pred (Eq. 1); true when there is no off-chip instruction at all.
bool computation_interleaving(const InstructionMix& mix, double ad_int, double max_cmratio = kMaxCmRatio);

}  // namespace simtlm::frontend::passes
