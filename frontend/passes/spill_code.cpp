// Spill code insertion (see spill_code.h).
#include "frontend/passes/spill_code.h"

#include <algorithm>
#include <map>
#include <string>

#include "frontend/analysis/reg_access.h"
#include "frontend/passes/rewrite.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

bool spillable_type(const ir::Register& reg) {
  if (reg.vec != 1 || reg.type == ir::DataType::Pred) return false;
  const unsigned bytes = ir::type_size(reg.type);
  return bytes == 2 || bytes == 4 || bytes == 8;
}

uint32_t spill_bytes(const ir::Register& reg) { return ir::type_size(reg.type); }

namespace {

// The untyped type of a slot access: ld/st.b16/b32/b64 move the register's
// bits whatever its declared type (f32, s64, f16x2, ...).
ir::DataType bits_type(uint32_t bytes) {
  switch (bytes) {
    case 2: return ir::DataType::B16;
    case 4: return ir::DataType::B32;
    default: return ir::DataType::B64;
  }
}

ir::Operand reg_operand(uint32_t reg) {
  ir::Operand o;
  o.kind = ir::OperandKind::Reg;
  o.reg = reg;
  return o;
}

// Replaces every occurrence of register `from` in the operands of `inst`
// (destinations, sources, address bases, vector elements) by `to`.
void rename(ir::Operand& op, uint32_t from, uint32_t to) {
  switch (op.kind) {
    case ir::OperandKind::Reg:
      if (op.reg == from) op.reg = to;
      break;
    case ir::OperandKind::Address:
      if (op.base == ir::OperandKind::Reg && op.reg == from) op.reg = to;
      break;
    case ir::OperandKind::Vector:
      for (ir::Operand& e : op.elems) rename(e, from, to);
      break;
    default:
      break;
  }
}

ir::Instruction slot_access(bool load, const SpilledRegister& s, uint32_t temp, uint32_t bytes,
                            const ir::SourceLoc& loc, const std::string& name) {
  ir::Instruction m;
  m.op = load ? ir::Opcode::Ld : ir::Opcode::St;
  m.space = s.space;
  m.type = bits_type(bytes);
  m.ops = load ? std::vector<ir::Operand>{reg_operand(temp), s.address}
               : std::vector<ir::Operand>{s.address, reg_operand(temp)};
  m.loc = loc;
  m.text = std::string(load ? "spill load of " : "spill store of ") + name;
  return m;
}

}  // namespace

SpillCodeCounts insert_spill_code(ir::Function& fn, const std::vector<SpilledRegister>& spilled,
                                  const std::vector<ir::Instruction>& setup, std::vector<uint8_t>* marks) {
  SpillCodeCounts counts;
  std::map<uint32_t, const SpilledRegister*> by_reg;
  for (const SpilledRegister& s : spilled) {
    if (s.reg >= fn.regs.size() || !spillable_type(fn.regs[s.reg]))
      throw Error(ErrorKind::Internal, "spill of register " + std::to_string(s.reg) + " of '" + fn.name +
                                           "', which cannot live in memory");
    if (s.address.kind != ir::OperandKind::Address)
      throw Error(ErrorKind::Internal, "spill slot of a register of '" + fn.name + "' is not an address");
    by_reg[s.reg] = &s;
  }
  FunctionRewriter rw(fn);
  for (const ir::Instruction& inst : setup) {
    rw.insert_before(0, inst, kInsertedSpillSetup);
    ++counts.setup;
  }
  if (!by_reg.empty()) {
    analysis::RegAccess acc;
    for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
      analysis::collect_reg_access(fn.insts[pc], acc);
      ir::Instruction inst = fn.insts[pc];
      bool changed = false;
      for (const auto& [r, s] : by_reg) {
        const bool used = std::find(acc.uses.begin(), acc.uses.end(), r) != acc.uses.end();
        const bool defined = std::find(acc.defs.begin(), acc.defs.end(), r) != acc.defs.end();
        if (!used && !defined) continue;
        const ir::Register& orig = fn.regs[r];
        const uint32_t bytes = spill_bytes(orig);
        const uint32_t temp = static_cast<uint32_t>(fn.regs.size());
        ir::Register t;
        t.name = "%ua_t" + std::to_string(temp);
        t.type = orig.type;
        fn.regs.push_back(t);
        ++counts.temporaries;
        if (used || acc.defs_conditional) {
          rw.insert_before(pc, slot_access(true, *s, temp, bytes, inst.loc, orig.name), kInsertedSpillLoad);
          ++counts.loads;
        }
        if (defined) {
          rw.insert_after(pc, slot_access(false, *s, temp, bytes, inst.loc, orig.name), kInsertedSpillStore);
          ++counts.stores;
        }
        for (ir::Operand& op : inst.ops) rename(op, r, temp);
        changed = true;
      }
      if (changed) rw.replace(pc, std::move(inst));
    }
  }
  std::vector<uint8_t> m = rw.apply(fn);
  if (marks) *marks = std::move(m);
  return counts;
}

}  // namespace simtlm::frontend::passes
