// Register declaration reordering (see reorder_registers.h).
#include "frontend/passes/reorder_registers.h"

#include "frontend/analysis/reg_access.h"
#include "frontend/analysis/regalloc.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

std::vector<uint32_t> first_use_order(const ir::Function& fn) {
  std::vector<uint32_t> order;
  std::vector<char> seen(fn.regs.size(), 0);
  auto note = [&](uint32_t reg) {
    if (reg < seen.size() && !seen[reg]) {
      seen[reg] = 1;
      order.push_back(reg);
    }
  };
  for (const ir::Instruction& inst : fn.insts) {
    if (inst.has_guard) note(inst.guard_reg);  // `@p` is written before the opcode
    analysis::for_each_reg_operand(inst, [&](uint32_t reg, bool, unsigned index) {
      if (index != analysis::kGuardOperand) note(reg);
    });
  }
  for (uint32_t r = 0; r < fn.regs.size(); ++r) note(r);  // declared but never used
  return order;
}

std::vector<uint32_t> register_numbers_by_first_use(const ir::Function& fn) {
  const ir::FunctionAnalysis& a = fn.analysis;
  if (a.phys_regs.empty()) return {};
  constexpr uint32_t kUnnumbered = ~0u;
  std::vector<uint32_t> number(a.phys_regs32, kUnnumbered);
  uint32_t next = 0;
  for (uint32_t reg : first_use_order(fn)) {
    const uint32_t first = a.phys_regs.at(reg);
    if (first == ir::kNoPhysReg || first == ir::kConstantBank) continue;
    const uint32_t units = analysis::reg_units(fn.regs[reg]);  // 0 for predicates
    for (uint32_t k = 0; k < units; ++k) {
      if (first + k >= number.size())
        throw Error(ErrorKind::Internal, "reorder_registers: register '" + fn.regs[reg].name +
                                             "' lies beyond the function's physical registers");
      if (number[first + k] == kUnnumbered) number[first + k] = next++;
    }
  }
  for (uint32_t& n : number)
    if (n == kUnnumbered) n = next++;
  return number;
}

void reorder_registers(ir::Module& module) {
  for (ir::Function& fn : module.functions)
    if (fn.analysis.done) fn.analysis.register_numbers = register_numbers_by_first_use(fn);
}

PassInfo reorder_registers_pass() {
  PassInfo p;
  p.name = kReorderRegistersPass;
  p.description =
      "number the register-file registers by first use in static text order for register sharing "
      "(Jatala §2.3.2; gpu.sm.regfile.sharing_reorder)";
  p.after = {"analyze", "relssp"};  // relssp re-analyses, which clears register_numbers
  p.enabled_by_default = false;
  p.run = [](PassContext& c) { reorder_registers(c.module); };
  return p;
}

}  // namespace simtlm::frontend::passes
