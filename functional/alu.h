// Lane-parallel semantics of the value-computing PTX instructions (integer,
// logic, shift, bit manipulation, comparison/selection, floating point,
// conversion, mov). The executor resolves operands to per-lane arrays and calls
// the kernel chosen once per instruction by select_alu(); the kernel loops over
// the active lanes with the operation inlined, which keeps the per-instruction
// cost low. Semantics follow the PTX ISA manual (see docs/ptx-support.md).
//
// Register convention: every register lane holds a uint64_t whose low
// type_size(type) bytes are the value; kernels write results zero-extended to
// 64 bits and read only the bits their type defines (so a 32-bit source with
// garbage above bit 31 behaves as its low 32 bits). Predicates are 0 or 1.
#pragma once

#include <cstdint>

#include "frontend/ir/instruction.h"

namespace simtlm::functional {

struct AluArgs {
  const ir::Instruction* inst = nullptr;
  // Destination lane arrays (dst[1] only for two-destination forms, e.g. setp p|q);
  // a destination of `_` (sink) is nullptr.
  uint64_t* dst[2] = {nullptr, nullptr};
  // Source lane arrays in PTX operand order after the destinations; immediates
  // and special registers arrive broadcast/filled into lane arrays by the caller.
  // A predicate source written `!p` arrives already negated.
  const uint64_t* src[4] = {nullptr, nullptr, nullptr, nullptr};
  // Per-lane carry flag (CC.CF) for add.cc/addc/sub.cc/subc/mad.cc/madc; read and/or
  // written only by those forms.
  uint64_t* carry = nullptr;
  uint64_t mask = 0;  // lanes to compute (bit i = lane i); other lanes are untouched
  unsigned width = 32;
};

using AluKernel = void (*)(const AluArgs&);

// Returns the kernel for `inst`, or nullptr when `inst` is not an ALU
// instruction (memory, control, synchronisation). Throws simtlm::Error(Ptx) naming the
// instruction's line when an ALU opcode has a type/modifier combination that
// is not supported.
AluKernel select_alu(const ir::Instruction& inst);

}  // namespace simtlm::functional
