// Destination/source roles of instruction operands (see reg_access.h).
#include "frontend/analysis/reg_access.h"

#include <algorithm>

#include "frontend/ptx/extensions.h"

namespace simtlm::frontend::analysis {

namespace {

void push_unique(std::vector<uint32_t>& v, uint32_t r) {
  if (std::find(v.begin(), v.end(), r) == v.end()) v.push_back(r);
}
}  // namespace

bool extension_operand_is_dst(const ir::Instruction& inst, unsigned index) {
  const ptx::ExtensionDef* def = ptx::ExtensionRegistry::global().find(inst.ext_id);
  return def && index < def->operands.size() && def->operands[index].is_dst;
}

unsigned num_dest_operands(const ir::Instruction& inst) {
  using ir::Opcode;
  unsigned n = 1;
  switch (inst.op) {
    case Opcode::Invalid:
    case Opcode::St:
    case Opcode::Prefetch:
    case Opcode::Bra:
    case Opcode::BrxIdx:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Red:
    case Opcode::Nanosleep:
    case Opcode::Call:
      n = 0;
      break;
    case Opcode::Bar:
      n = inst.barrier == ir::BarrierKind::Red ? 1 : 0;
      break;
    case Opcode::Extension:
      n = 0;
      while (n < inst.ops.size() && extension_operand_is_dst(inst, n)) ++n;
      break;
    default:
      n = inst.dual_dst ? 2 : 1;
      break;
  }
  return std::min<unsigned>(n, static_cast<unsigned>(inst.ops.size()));
}

void collect_reg_access(const ir::Instruction& inst, RegAccess& out) {
  out.uses.clear();
  out.defs.clear();
  out.defs_conditional = inst.has_guard;
  for_each_reg_operand(inst, [&](uint32_t reg, bool is_def, unsigned) {
    push_unique(is_def ? out.defs : out.uses, reg);
  });
}

}  // namespace simtlm::frontend::analysis
