// Banked register file read model used by the SM's operand collectors.
//
// Register r of warp w lives in bank (r + w) mod banks (the per-warp skew
// spreads the same register of different warps over the banks). Every bank
// serves `ports_per_bank` reads per core cycle. An instruction's source
// operands are read starting in its issue cycle; each read takes the first
// free port of its bank at or after that cycle, so reads of one instruction
// that fall in the same bank serialise, and so do reads of instructions
// issued in the same cycle by different schedulers. A read that cannot start
// in the issue cycle counts as one bank conflict. Writebacks are not modelled
// as bank traffic (GPGPU-Sim gives writes priority; we leave them out so that
// ALU latencies stay exact).
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::regfile {

class RegisterBanks {
 public:
  RegisterBanks(uint32_t banks, uint32_t ports_per_bank);

  uint32_t bank_of(uint32_t reg, uint32_t warp) const {
    return bank_mask_ != 0 ? (reg + warp) & bank_mask_ : (reg + warp) % banks_;
  }

  // Reads `n` registers (distinct) of warp `warp` issued in `cycle`. Returns
  // the cycle after the last read, i.e. when the operands are collected
  // (cycle + 1 without conflicts, also when n == 0).
  uint64_t read(const uint32_t* regs, unsigned n, uint32_t warp, uint64_t cycle);

  uint64_t reads() const { return reads_; }
  uint64_t conflicts() const { return conflicts_; }
  uint32_t banks() const { return banks_; }

 private:
  uint32_t banks_;
  uint32_t ports_;
  uint32_t bank_mask_ = 0;  // banks_ - 1 when banks_ is a power of two > 1 (no division per read)
  std::vector<uint64_t> next_slot_;  // per bank: next free port slot (cycle * ports + port)
  uint64_t reads_ = 0;
  uint64_t conflicts_ = 0;
};

}  // namespace simtlm::models::regfile
