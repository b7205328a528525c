// Banked register file of physical registers, used by the SM's operand
// collectors and writeback (docs/sm-model.md, "Operand collection").
//
// Registers are the register allocation's physical 32-bit registers
// (ir::FunctionAnalysis::phys_regs): a 64-bit value is two consecutive
// registers, a 128-bit value four, and each 32-bit register is one bank
// access. Physical register p of warp w lives in bank (p + w) mod banks (the
// per-warp skew spreads the same register of different warps over the
// banks). Every bank has `ports_per_bank` read ports and `write_ports` write
// ports per core cycle. An instruction's source operands are read starting in
// its issue cycle; each read takes the first free port of its bank at or
// after that cycle, so reads of one instruction that fall in the same bank
// serialise, and so do reads of instructions issued in the same cycle by
// different schedulers. A read that cannot start in the issue cycle counts as
// one bank conflict. A writeback writes its destination registers starting
// in its cycle; each write takes the first free write port of its bank, so
// writebacks that land in one bank in one cycle (an ALU result and a memory
// response, or results of several schedulers) serialise: the later one is a
// write conflict, and its destination is released to the scoreboard only
// when its write is done. Reads and writes have separate ports (decision,
// docs/sm-model.md): a dependent instruction issued in its producer's
// writeback cycle reads without waiting for the write port, so an ALU result
// still reaches a dependent `latency + 1` cycles after issue.
//
// A RegisterStateModel (GREENER power states, FineReg's pending register
// file) may add latency per (warp, register): a read waits until the model
// says the register is readable, and the model hears every write.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::regfile {

// Per-(warp, physical register) state a mechanism keeps (power states,
// active/pending register files).
class RegisterStateModel {
 public:
  virtual ~RegisterStateModel() = default;
  // First cycle >= `cycle` at which register `reg` of warp slot `warp` can
  // be read (cycle itself when it is ready).
  virtual uint64_t readable_at(uint32_t warp, uint32_t reg, uint64_t cycle) = 0;
  // Register `reg` of warp slot `warp` was written in `cycle`.
  virtual void written(uint32_t warp, uint32_t reg, uint64_t cycle) = 0;
};

class RegisterBanks {
 public:
  RegisterBanks(uint32_t banks, uint32_t ports_per_bank, uint32_t write_ports = 1);

  uint32_t bank_of(uint32_t reg, uint32_t warp) const {
    return bank_mask_ != 0 ? (reg + warp) & bank_mask_ : (reg + warp) % banks_;
  }

  // Reads `n` registers (distinct) of warp `warp` issued in `cycle`. Returns
  // the cycle after the last read, i.e. when the operands are collected
  // (cycle + 1 without conflicts, also when n == 0).
  template <typename Reg>
  uint64_t read(const Reg* regs, unsigned n, uint32_t warp, uint64_t cycle) {
    uint64_t done = cycle + 1;
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t at = claim(next_slot_[bank_of(regs[i], warp)], ports_, cycle);
      if (at > cycle) ++conflicts_;
      if (at + 1 > done) done = at + 1;
    }
    reads_ += n;
    return done;
  }
  // Writes `n` registers of warp `warp` starting in `cycle`. Returns the
  // cycle of the last write (`cycle` without conflicts, also when n == 0).
  template <typename Reg>
  uint64_t write(const Reg* regs, unsigned n, uint32_t warp, uint64_t cycle) {
    uint64_t done = cycle;
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t at = claim(next_write_slot_[bank_of(regs[i], warp)], write_ports_, cycle);
      if (at > cycle) ++write_conflicts_;
      if (at > done) done = at;
    }
    writes_ += n;
    return done;
  }

  uint64_t reads() const { return reads_; }
  uint64_t conflicts() const { return conflicts_; }
  uint64_t writes() const { return writes_; }
  uint64_t write_conflicts() const { return write_conflicts_; }
  uint32_t banks() const { return banks_; }

 private:
  // Takes the first free port slot (cycle * ports + port) at or after `cycle`
  // of a bank whose next free slot is `next`; returns the cycle it falls in.
  static uint64_t claim(uint64_t& next, uint32_t ports, uint64_t cycle) {
    const uint64_t first = ports == 1 ? cycle : cycle * ports;
    const uint64_t slot = next > first ? next : first;
    next = slot + 1;
    return ports == 1 ? slot : slot / ports;
  }

  uint32_t banks_;
  uint32_t ports_;
  uint32_t bank_mask_ = 0;  // banks_ - 1 when banks_ is a power of two > 1 (no division per read)
  std::vector<uint64_t> next_slot_;  // per bank: next free read-port slot (cycle * ports + port)
  uint32_t write_ports_;
  std::vector<uint64_t> next_write_slot_;  // per bank: next free write-port slot
  uint64_t reads_ = 0;
  uint64_t conflicts_ = 0;
  uint64_t writes_ = 0;
  uint64_t write_conflicts_ = 0;
};

}  // namespace simtlm::models::regfile
