// A tiny helper for building IR functions by hand in the analysis tests, for
// shapes that are easier to state as a graph than as PTX text.
#pragma once

#include <string>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::testing_ir {

inline ir::Operand reg(uint32_t r) {
  ir::Operand o;
  o.kind = ir::OperandKind::Reg;
  o.reg = r;
  return o;
}
inline ir::Operand imm(uint64_t v) {
  ir::Operand o;
  o.kind = ir::OperandKind::Imm;
  o.imm = v;
  return o;
}
inline ir::Operand label(uint32_t target) {
  ir::Operand o;
  o.kind = ir::OperandKind::Label;
  o.target = target;
  return o;
}
inline ir::Operand addr_reg(uint32_t r, int64_t off = 0) {
  ir::Operand o;
  o.kind = ir::OperandKind::Address;
  o.base = ir::OperandKind::Reg;
  o.reg = r;
  o.offset = off;
  return o;
}

// Builds one function; registers are declared on first use by name.
class FnBuilder {
 public:
  explicit FnBuilder(std::string name = "f") { fn_.name = std::move(name); fn_.is_entry = true; }

  uint32_t r(const std::string& name, ir::DataType t = ir::DataType::U32) {
    for (uint32_t i = 0; i < fn_.regs.size(); ++i)
      if (fn_.regs[i].name == name) return i;
    ir::Register reg;
    reg.name = name;
    reg.type = t;
    fn_.regs.push_back(reg);
    return static_cast<uint32_t>(fn_.regs.size() - 1);
  }
  uint32_t p(const std::string& name) { return r(name, ir::DataType::Pred); }
  uint32_t d(const std::string& name) { return r(name, ir::DataType::U64); }

  uint32_t here() const { return static_cast<uint32_t>(fn_.insts.size()); }
  uint32_t emit(ir::Instruction inst) {
    fn_.insts.push_back(std::move(inst));
    return here() - 1;
  }
  // op dst, srcs...
  uint32_t op(ir::Opcode opc, std::vector<ir::Operand> ops, ir::DataType t = ir::DataType::U32) {
    ir::Instruction i;
    i.op = opc;
    i.type = t;
    i.ops = std::move(ops);
    return emit(std::move(i));
  }
  uint32_t mov(uint32_t d, uint32_t s) { return op(ir::Opcode::Mov, {reg(d), reg(s)}); }
  uint32_t movi(uint32_t d, uint64_t v) { return op(ir::Opcode::Mov, {reg(d), imm(v)}); }
  uint32_t add(uint32_t d, uint32_t a, uint32_t b) { return op(ir::Opcode::Add, {reg(d), reg(a), reg(b)}); }
  uint32_t setp(uint32_t p, uint32_t a, uint32_t b) {
    ir::Instruction i;
    i.op = ir::Opcode::Setp;
    i.type = ir::DataType::S32;
    i.cmp = ir::CmpOp::Lt;
    i.ops = {reg(p), reg(a), reg(b)};
    return emit(std::move(i));
  }
  uint32_t use(uint32_t a) {  // st.global [a], a : reads a
    ir::Instruction i;
    i.op = ir::Opcode::St;
    i.space = ir::StateSpace::Global;
    i.type = ir::DataType::U32;
    i.ops = {addr_reg(a), reg(a)};
    return emit(std::move(i));
  }
  // Branch to a label bound later with bind(); guarded when pred given.
  uint32_t bra(const std::string& lbl, int pred = -1, bool neg = false) {
    ir::Instruction i;
    i.op = ir::Opcode::Bra;
    i.ops = {label(0)};
    if (pred >= 0) {
      i.has_guard = true;
      i.guard_reg = static_cast<uint32_t>(pred);
      i.guard_negated = neg;
    }
    uint32_t at = emit(std::move(i));
    fixups_.push_back({at, lbl});
    return at;
  }
  uint32_t brx(uint32_t index, const std::vector<std::string>& lbls) {
    ir::Instruction i;
    i.op = ir::Opcode::BrxIdx;
    i.ops = {reg(index), label(0)};
    i.targets.assign(lbls.size(), 0);
    uint32_t at = emit(std::move(i));
    for (size_t k = 0; k < lbls.size(); ++k) brx_fixups_.push_back({at, k, lbls[k]});
    return at;
  }
  uint32_t ret(int pred = -1) {
    ir::Instruction i;
    i.op = ir::Opcode::Ret;
    if (pred >= 0) {
      i.has_guard = true;
      i.guard_reg = static_cast<uint32_t>(pred);
    }
    return emit(std::move(i));
  }
  void bind(const std::string& lbl) { fn_.labels[lbl] = here(); }

  ir::Function finish() {
    for (auto& [at, lbl] : fixups_) fn_.insts[at].ops[0].target = fn_.labels.at(lbl);
    for (auto& f : brx_fixups_) fn_.insts[f.at].targets[f.k] = fn_.labels.at(f.lbl);
    return fn_;
  }

 private:
  struct BrxFix {
    uint32_t at;
    size_t k;
    std::string lbl;
  };
  ir::Function fn_;
  std::vector<std::pair<uint32_t, std::string>> fixups_;
  std::vector<BrxFix> brx_fixups_;
};

}  // namespace simtlm::testing_ir
