// Control flow: bra, brx.idx, call, ret, exit.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

uint32_t current_index(InstCtx& c) { return static_cast<uint32_t>(c.p.fn_->insts.size()); }

}  // namespace

void decode_bra(InstCtx& c) {
  c.parse_mods(kModUni);
  c.inst.uni = c.mods.uni;
  c.need_operands(1);
  const RawOperand& r = c.raw[0];
  if (r.kind != RawOperand::Kind::Name || r.negate || r.has_offset)
    c.fail_at(r, "bra needs a label");
  const Binding* b = c.p.lookup(r.name);
  if (b && b->kind == Binding::Kind::Reg)
    c.fail_at(r, "indirect branches through a register are not supported (use brx.idx)");
  Operand o;
  o.kind = OperandKind::Label;
  c.inst.ops.push_back(o);
  c.p.add_label_ref(std::string(r.name), current_index(c), 0, r.tok);
}

void decode_brx(InstCtx& c) {
  if (c.comps.empty() || c.comps[0] != "idx") c.fail("brx needs .idx");
  c.comps.erase(c.comps.begin());
  c.parse_mods(kModUni);
  c.inst.uni = c.mods.uni;
  c.need_operands(2);
  c.src(0, DataType::U32, kSlotReg);
  const RawOperand& r = c.raw[1];
  if (r.kind != RawOperand::Kind::Name || r.negate || r.has_offset)
    c.fail_at(r, "brx.idx needs the name of a .branchtargets list");
  Operand o;
  o.kind = OperandKind::Label;
  c.inst.ops.push_back(o);
  c.p.brx_refs_.push_back(BrxRef{std::string(r.name), c.p.scopes_.back().block, current_index(c), r.tok});
}

void decode_call(InstCtx& c) {
  c.parse_mods(kModUni);
  c.inst.uni = c.mods.uni;
  if (c.raw.empty()) c.fail("call needs a function name");
  size_t i = 0;
  const RawOperand* rets = nullptr;
  if (c.raw[0].kind == RawOperand::Kind::Paren) {
    rets = &c.raw[0];
    i = 1;
  }
  if (i >= c.raw.size()) c.fail("call needs a function name");
  const RawOperand& fn = c.raw[i];
  if (fn.kind != RawOperand::Kind::Name || fn.negate || fn.has_offset)
    c.fail_at(fn, "expected a function name");
  const Binding* b = c.p.lookup(fn.name);
  if (b && b->kind == Binding::Kind::Reg)
    c.fail_at(fn, "indirect calls through a register are not supported");
  if (b && b->kind == Binding::Kind::Var) c.fail_at(fn, "'" + std::string(fn.name) + "' is a variable, not a function");
  const RawOperand* args = nullptr;
  if (i + 1 < c.raw.size()) {
    if (c.raw[i + 1].kind != RawOperand::Kind::Paren)
      c.fail_at(c.raw[i + 1], "expected a parenthesised argument list");
    args = &c.raw[i + 1];
  }
  if (i + 2 < c.raw.size())
    c.fail_at(c.raw[i + 2], "call prototypes/target lists (indirect calls) are not supported");

  auto convert_list = [&](const RawOperand* list, bool is_ret) {
    Operand v;
    v.kind = OperandKind::Vector;
    if (!list) return v;
    for (const RawOperand& e : list->elems) {
      Slot s;
      s.kinds = is_ret ? (kSlotSymbol | kSlotReg) : (kSlotSymbol | kSlotReg | kSlotImm);
      s.dst = is_ret;
      if (e.kind == RawOperand::Kind::Name && e.has_offset) c.fail_at(e, "call operands cannot take an offset");
      Operand o = c.p.convert(e, s);
      if (o.kind == OperandKind::Symbol && c.p.mod_->vars[o.var].space != StateSpace::Param)
        c.fail_at(e, "call arguments must be .param variables, registers or constants");
      v.elems.push_back(std::move(o));
    }
    return v;
  };
  c.inst.ops.push_back(convert_list(rets, true));
  Operand f;
  f.kind = OperandKind::Function;
  c.inst.ops.push_back(f);
  c.inst.ops.push_back(convert_list(args, false));
  c.p.call_fixups_.push_back(CallFixup{std::string(fn.name), c.p.fn_index_, current_index(c), fn.tok});
}

void decode_ret_exit(InstCtx& c) {
  c.parse_mods(c.mnemonic == "ret" ? kModUni : 0);
  c.inst.uni = c.mods.uni;
  c.need_operands(0);
}

}  // namespace simtlm::frontend::ptx
