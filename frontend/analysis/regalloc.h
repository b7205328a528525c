// Register allocation: maps PTX virtual registers onto a per-thread file of
// 32-bit physical registers, to estimate how many registers a thread needs
// (CTA occupancy, register-file sharing, FineReg) and to give every virtual
// register a physical number (register-bank conflicts, live-register bit
// vectors in physical numbering).
//
// Algorithm (docs/register-allocation.md): interference-graph colouring
// without spilling. Two registers interfere when one is written while the
// other is live (Chaitin), except the source and destination of a plain
// register copy, which may share a register. Values of 8/16/32 bits take one
// 32-bit register, 64-bit values an even-aligned pair, 128-bit values an
// aligned quad; predicates are coloured separately. The graph is coloured
// greedily (lowest free aligned slot, copy partners' slot preferred or not) in
// three orders — definition order along the reverse post-order, smallest-last
// (Matula-Beck) degeneracy order, and definition order with wide values first
// — and the smallest result wins.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/liveness.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

inline constexpr uint32_t kNoPhysReg = 0xFFFFFFFFu;

// Registers ptxas keeps for itself on sm_70+ (stack pointer R1 and a scratch
// register, observed as the "Used N registers" of kernels with no values:
// see docs/register-allocation.md); added to our colour count, which is then
// rounded up to an even number as ptxas reports.
inline constexpr uint32_t kReservedRegs = 2;

// Number of 32-bit registers a virtual register occupies (0 for predicates).
uint32_t reg_units(const ir::Register& reg);

struct RegisterAllocation {
  // Per virtual register: first physical 32-bit register (pairs/quads are
  // aligned), or predicate register number for .pred registers; kNoPhysReg
  // for registers the function never references.
  std::vector<uint32_t> phys;
  uint32_t regs32 = 0;            // 32-bit registers used by the colouring
  uint32_t preds = 0;             // predicate registers used
  uint32_t max_live_regs32 = 0;   // peak of simultaneously live 32-bit units
  uint32_t max_live_preds = 0;
  // Estimate of ptxas's "Used N registers": regs32 + kReservedRegs, rounded up to even.
  uint32_t regs_per_thread() const;
};

RegisterAllocation allocate_registers(const ir::Function& fn, const Cfg& cfg, const Liveness& live);

}  // namespace simtlm::frontend::analysis
