// Execution pipelines (SP, SFU, DP, INT, LD/ST: each a number of pipelines
// accepting one instruction per initiation interval) and the writeback queue
// of the SM: ALU results land after their latency, fixed-latency parts of
// memory instructions (shared memory, constant cache, parameters) when their
// passes are done (writeback_queue.h).
#pragma once

#include <cstdint>
#include <vector>

#include "models/sm/inst_timing.h"
#include "models/sm/operand_collector.h"
#include "models/sm/sm_params.h"
#include "models/sm/writeback_queue.h"

namespace simtlm::models {

class ExecUnits {
 public:
  explicit ExecUnits(const SmParams& p) {
    free_.resize(kNumExecUnits);
    free_[static_cast<unsigned>(ExecUnit::Sp)].assign(p.sp.count, 0);
    free_[static_cast<unsigned>(ExecUnit::Sfu)].assign(p.sfu.count, 0);
    free_[static_cast<unsigned>(ExecUnit::Dp)].assign(p.dp.count, 0);
    free_[static_cast<unsigned>(ExecUnit::Int)].assign(p.int_unit.count, 0);
    free_[static_cast<unsigned>(ExecUnit::Ldst)].assign(p.ldst.count, 0);
  }
  // Cycle the first pipeline of the unit accepts an instruction.
  uint64_t free_at(ExecUnit unit) const {
    const std::vector<uint64_t>& u = free_[static_cast<unsigned>(unit)];
    return u[earliest_index(u)];
  }
  // The earliest free pipeline of the unit (to be marked busy by the caller).
  uint64_t& earliest(ExecUnit unit) {
    std::vector<uint64_t>& u = free_[static_cast<unsigned>(unit)];
    return u[earliest_index(u)];
  }

 private:
  std::vector<std::vector<uint64_t>> free_;  // per ExecUnit: cycle each pipeline accepts the next instruction
};

}  // namespace simtlm::models
