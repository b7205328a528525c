// Which virtual registers an instruction reads and writes. Every register
// dataflow analysis (liveness, register allocation, GREENER power states,
// FineReg live vectors) starts from this one definition, so the operand
// conventions of frontend/ptx/parser.h are interpreted in exactly one place:
// operands are in PTX order with the destinations first (two for setp/shfl
// with `dual_dst`, none for stores, branches, barriers without .red, ...);
// address bases, vector elements and the guard predicate are reads.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir/instruction.h"

namespace simtlm::frontend::analysis {

// Number of leading operands of `inst` that are destinations (for
// extension instructions: the leading operands marked is_dst).
unsigned num_dest_operands(const ir::Instruction& inst);

// Calls f(reg, is_def, operand_index) for every register operand of `inst`
// in operand order (elements of vector operands and address bases included),
// then f(guard_reg, false, kGuardOperand) for the guard predicate.
inline constexpr unsigned kGuardOperand = 0xFFFFu;

template <typename F>
void for_each_reg_operand(const ir::Instruction& inst, F&& f);

// Registers read and written by one instruction. `defs_conditional` is true
// for guarded instructions: their writes do not kill the previous value (a
// thread whose guard is false keeps it), which liveness must respect.
struct RegAccess {
  std::vector<uint32_t> uses;  // distinct registers read
  std::vector<uint32_t> defs;  // distinct registers written
  bool defs_conditional = false;
};
void collect_reg_access(const ir::Instruction& inst, RegAccess& out);

// Whether operand `index` of an Opcode::Extension instruction is written,
// from ExtOperand::is_dst in ptx::ExtensionRegistry::global() (the registry
// parse_ptx uses by default). Unknown ids/positions count as reads.
bool extension_operand_is_dst(const ir::Instruction& inst, unsigned index);

// ---------------------------------------------------------------------------

namespace detail {
template <typename F>
void visit_operand(const ir::Operand& op, bool is_def, unsigned index, F& f) {
  switch (op.kind) {
    case ir::OperandKind::Reg:
      f(op.reg, is_def, index);
      break;
    case ir::OperandKind::Address:
      if (op.base == ir::OperandKind::Reg) f(op.reg, false, index);
      break;
    case ir::OperandKind::Vector:
      for (const ir::Operand& e : op.elems) visit_operand(e, is_def, index, f);
      break;
    default:
      break;
  }
}
}  // namespace detail

template <typename F>
void for_each_reg_operand(const ir::Instruction& inst, F&& f) {
  if (inst.op == ir::Opcode::Call) {
    // call (rets), func, (args): vectors before the function operand are return
    // values (written), those after are arguments (read).
    bool after_func = false;
    for (unsigned i = 0; i < inst.ops.size(); ++i) {
      const ir::Operand& op = inst.ops[i];
      if (op.kind == ir::OperandKind::Function) {
        after_func = true;
        continue;
      }
      detail::visit_operand(op, !after_func, i, f);
    }
  } else if (inst.op == ir::Opcode::Extension) {
    for (unsigned i = 0; i < inst.ops.size(); ++i)
      detail::visit_operand(inst.ops[i], extension_operand_is_dst(inst, i), i, f);
  } else {
    unsigned ndst = num_dest_operands(inst);
    for (unsigned i = 0; i < inst.ops.size(); ++i) detail::visit_operand(inst.ops[i], i < ndst, i, f);
  }
  if (inst.has_guard) f(inst.guard_reg, false, kGuardOperand);
}

}  // namespace simtlm::frontend::analysis
