// Execution pipelines (SP, SFU, DP, INT, LD/ST: each a number of pipelines
// accepting one instruction per initiation interval) and the writeback queue
// of the SM: ALU results land after their latency, fixed-latency parts of
// memory instructions (shared memory, constant cache, parameters) when their
// passes are done.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "models/sm/inst_timing.h"
#include "models/sm/operand_collector.h"
#include "models/sm/sm_params.h"

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

// Results and fixed-latency memory pieces due at a cycle, in issue order
// among equal cycles.
class WritebackQueue {
 public:
  // Event::op of an ALU event whose delayed register write is done.
  static constexpr uint32_t kWritten = 1;

  struct Event {
    uint64_t cycle;
    uint64_t seq;
    uint32_t slot;  // ALU writeback: warp slot; memory piece: kNoSlot
    uint32_t op;    // memory piece: memory operation id; ALU: kWritten when only the release is left
    const InstTiming* info;
    bool operator>(const Event& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };

  void alu(uint64_t cycle, uint32_t slot, const InstTiming& info) { q_.push({cycle, seq_++, slot, 0, &info}); }
  void memory_piece(uint64_t cycle, uint32_t op, const InstTiming& info) { q_.push({cycle, seq_++, ~0u, op, &info}); }
  // The destinations of warp `slot` are released at `cycle` (their write to
  // the register file was delayed by a write-port conflict).
  void release(uint64_t cycle, uint32_t slot, const InstTiming& info) {
    q_.push({cycle, seq_++, slot, kWritten, &info});
  }
  bool due(uint64_t c) const { return !q_.empty() && q_.top().cycle <= c; }
  Event pop() {
    const Event e = q_.top();
    q_.pop();
    return e;
  }
  uint64_t next() const { return q_.empty() ? ~0ull : q_.top().cycle; }

 private:
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q_;
  uint64_t seq_ = 0;
};

}  // namespace simtlm::models
