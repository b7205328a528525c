// Operand collection: an issued instruction takes the earliest free collector
// unit of its set (ALU, SFU or memory), which reads the source registers from
// the register banks and dispatches to the execution unit once the operands
// are in and the unit accepts it (docs/sm-model.md, "Operand collection").
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/regfile/register_banks.h"
#include "models/sm/inst_timing.h"
#include "models/sm/sm_params.h"

namespace simtlm::models {

inline size_t earliest_index(const std::vector<uint64_t>& v) {
  return static_cast<size_t>(std::min_element(v.begin(), v.end()) - v.begin());
}

class OperandCollector {
 public:
  explicit OperandCollector(const SmParams& p)
      : groups_(p.regfile_bank_groups),
        banks_(p.regfile_bank_groups,
               regfile::RegisterBanks(p.regfile_banks, p.regfile_ports_per_bank, p.regfile_write_ports_per_bank)) {
    units_.resize(kNumCollectorSets);
    units_[static_cast<unsigned>(CollectorSet::Alu)].assign(p.collector_units, 0);
    units_[static_cast<unsigned>(CollectorSet::Sfu)].assign(p.collector_units_sfu, 0);
    units_[static_cast<unsigned>(CollectorSet::Mem)].assign(p.collector_units_mem, 0);
  }

  // Cycle the first unit of the set is free.
  uint64_t free_at(CollectorSet set) const {
    const std::vector<uint64_t>& u = units_[static_cast<unsigned>(set)];
    return u[earliest_index(u)];
  }
  // Reads the instruction's sources (warp `slot`, issue cycle c); returns the
  // cycle the operands are collected.
  uint64_t read(const InstTiming& info, uint32_t slot, uint64_t c) {
    uint64_t done = group(slot).read(info.rf_reads, info.num_rf_reads, slot, c);
    if (state_ != nullptr) {
      // A register the state model holds back is read when it becomes readable.
      for (unsigned i = 0; i < info.num_rf_reads; ++i) {
        const uint64_t at = state_->readable_at(slot, info.rf_reads[i], c);
        if (at > c) done = std::max(done, at + 1);
      }
    }
    return done;
  }
  // Writes the instruction's destinations back (warp `slot`, from cycle c);
  // returns the cycle the last write is done.
  uint64_t write(const InstTiming& info, uint32_t slot, uint64_t c) {
    const uint64_t done = group(slot).write(info.rf_writes, info.num_rf_writes, slot, c);
    if (state_ != nullptr) {
      for (unsigned i = 0; i < info.num_rf_writes; ++i) state_->written(slot, info.rf_writes[i], done);
    }
    return done;
  }
  // Per-(warp, register) state kept by a mechanism (not owned; nullptr: none).
  void set_state_model(regfile::RegisterStateModel* model) { state_ = model; }
  // The earliest free unit of the set dispatches at `exec` (busy until then).
  void dispatch(CollectorSet set, uint64_t exec) {
    std::vector<uint64_t>& u = units_[static_cast<unsigned>(set)];
    u[earliest_index(u)] = exec;
  }

  // Register-file accesses and port conflicts, over every bank group.
  uint64_t reads() const { return sum(&regfile::RegisterBanks::reads); }
  uint64_t conflicts() const { return sum(&regfile::RegisterBanks::conflicts); }
  uint64_t writes() const { return sum(&regfile::RegisterBanks::writes); }
  uint64_t write_conflicts() const { return sum(&regfile::RegisterBanks::write_conflicts); }

 private:
  // The banks warp `slot` reads and writes: its slice's own register file
  // when the banks are split in groups (SmParams::regfile_bank_groups).
  regfile::RegisterBanks& group(uint32_t slot) { return groups_ == 1 ? banks_.front() : banks_[slot % groups_]; }
  uint64_t sum(uint64_t (regfile::RegisterBanks::*counter)() const) const {
    uint64_t n = 0;
    for (const regfile::RegisterBanks& b : banks_) n += (b.*counter)();
    return n;
  }

  uint32_t groups_;
  std::vector<regfile::RegisterBanks> banks_;  // one per bank group
  std::vector<std::vector<uint64_t>> units_;  // per CollectorSet: cycle each unit is free
  regfile::RegisterStateModel* state_ = nullptr;
};

}  // namespace simtlm::models
