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
// — and the smallest result wins. Values that ptxas reads from the constant
// bank (kernel parameters, %ntid, %nctaid) get no register of their own (see
// RegAllocOptions). No spilling: the count is what the code needs.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/liveness.h"
#include "frontend/ir/module.h"

namespace simtlm::frontend::analysis {

// RegisterAllocation::phys of unreferenced registers and of registers that
// hold a constant-bank value (see RegAllocOptions); defined in the IR so that
// FunctionAnalysis::phys_regs can be read without this header.
using ir::kConstantBank;
using ir::kNoPhysReg;

// Calibration of the "Used N registers" estimate: ptxas reports 4 registers
// for an empty sm_75 kernel and, over the kernels of
// docs/register-allocation.md, typically 4-6 more than the registers our
// colouring needs (reserved registers, vector loads into aligned quads,
// scheduling for latency). The estimate adds this constant to the colour count
// and rounds up to an even number, as ptxas's counts for call-free kernels are.
inline constexpr uint32_t kReservedRegs = 4;

// Number of 32-bit registers a virtual register occupies (0 for predicates).
uint32_t reg_units(const ir::Register& reg);

struct RegAllocOptions {
  // Model ptxas's use of constant-bank operands: kernel parameters and
  // %ntid/%nctaid live in the constant bank (c[0x0][...]), so registers that
  // only hold such a value (ld.param of a kernel parameter, mov of %ntid or
  // %nctaid, and mov / cvta.to.global copies of those) get no register of
  // their own. Where an instruction cannot take the value as a constant
  // operand (memory and control instructions; an ALU instruction's second
  // constant source) a temporary register live only across that instruction
  // is allocated instead.
  bool constant_bank_operands = true;
};

// Registers that hold constant-bank values in the sense of RegAllocOptions.
std::vector<char> constant_bank_registers(const ir::Function& fn);

struct RegisterAllocation {
  // Per virtual register: first physical 32-bit register (pairs/quads are
  // aligned), or predicate register number for .pred registers; kNoPhysReg
  // for registers the function never references, kConstantBank for
  // constant-bank values.
  std::vector<uint32_t> phys;
  uint32_t regs32 = 0;            // 32-bit registers used by the colouring
  uint32_t preds = 0;             // predicate registers used
  // Peak of simultaneously live 32-bit units among values that occupy
  // registers (constant-bank values excluded, their temporaries included).
  uint32_t max_live_regs32 = 0;
  uint32_t max_live_preds = 0;
  // Estimate of ptxas's "Used N registers": regs32 + kReservedRegs, rounded
  // up to even (what FunctionAnalysis::regs_per_thread holds).
  uint32_t regs_per_thread() const;
};

RegisterAllocation allocate_registers(const ir::Function& fn, const Cfg& cfg, const Liveness& live,
                                      const RegAllocOptions& options = {});

// Physical 32-bit registers holding the virtual registers of `live` (e.g.
// Liveness::live_in(pc)), ascending: both halves of a pair, all four of a
// quad. Predicates and constant-bank values are not included. This is the
// per-instruction live-register vector of FineReg in physical numbering.
std::vector<uint32_t> live_physical_regs(const ir::Function& fn, const RegisterAllocation& alloc,
                                         BitsView live);

}  // namespace simtlm::frontend::analysis
