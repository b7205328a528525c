// Spill code for the unified on-chip allocation (seed note 001 §1.2, §5.2
// "Rewriting"): a spilled virtual register stops being a register. Every
// instruction that reads it gets a load of its memory slot into a fresh
// temporary register just before it; every instruction that writes it writes
// a fresh temporary instead, followed by a store of that temporary to the
// slot. A guarded write (`@p mov v, x`) keeps v's old value in lanes whose
// guard is false, so it is also preceded by the load. The temporaries live
// across one instruction only, so the register colouring that runs on the
// result (analysis::allocate_registers) fits them beside the values that stay
// in registers: they are not fixed reserved registers, the colouring reserves
// room for them where they are live.
//
// Where the slot is (local frame, per-thread shared-memory slot) is the
// caller's choice: each spilled register comes with the state space and the
// address operand of its slot.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

// Marks of the inserted instructions (FunctionRewriter kinds, see rewrite.h).
inline constexpr uint8_t kInsertedSpillLoad = 16;
inline constexpr uint8_t kInsertedSpillStore = 17;
inline constexpr uint8_t kInsertedSpillSetup = 18;  // shared-slot pointer set-up at entry
// mov.b64 packing / unpacking the halves of a 64-bit value in two shared slots
inline constexpr uint8_t kInsertedSpillPack = 19;

struct SpilledRegister {
  uint32_t reg = 0;                               // Function::regs index
  ir::StateSpace space = ir::StateSpace::Local;   // Local or Shared
  ir::Operand address;                            // OperandKind::Address of its slot
};

// Whether a register can live in memory: a scalar of 16, 32 or 64 bits
// (predicates, vectors and 128-bit values stay in registers).
bool spillable_type(const ir::Register& reg);
// Bytes of its memory slot (2, 4 or 8).
uint32_t spill_bytes(const ir::Register& reg);

struct SpillCodeCounts {
  uint32_t loads = 0, stores = 0, setup = 0;
  uint32_t temporaries = 0;  // registers added to Function::regs
};

// Rewrites `fn` (blocks and analyses become stale: analyse again). `setup`
// are instructions put at the very start (the shared-slot pointer), marked
// kInsertedSpillSetup. Returns the marks of the result (see rewrite.h) in
// `marks` when non-null.
SpillCodeCounts insert_spill_code(ir::Function& fn, const std::vector<SpilledRegister>& spilled,
                                  const std::vector<ir::Instruction>& setup = {},
                                  std::vector<uint8_t>* marks = nullptr);

}  // namespace simtlm::frontend::passes
