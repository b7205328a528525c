// CUDA's device printf. nvcc turns printf into a call of the .extern
// function vprintf, which the CUDA runtime provides at link time. A module
// that calls it gets a definition here, made of ordinary IR around one
// built-in instruction (ExtensionRegistry::kVprintf):
//   ld.param.b64 %fmt, [<param 0>]; ld.param.b64 %args, [<param 1>];
//   vprintf %ret, %fmt, %args; st.param.b32 [<return>], %ret; ret;
// so call inlining binds its parameters like any other function's and the
// kernel ends up with the instruction on registers; the executor formats the
// call (functional/printf_format.h) into the launch's printf buffer.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

bool has_size(const ParamDecl& p, uint64_t bytes) { return p.count == 1 && type_size(p.type) == bytes; }

Operand reg_operand(uint32_t reg) {
  Operand o;
  o.kind = OperandKind::Reg;
  o.reg = reg;
  return o;
}

Operand param_address(uint32_t var) {
  Operand o;
  o.kind = OperandKind::Address;
  o.base = OperandKind::Symbol;
  o.var = var;
  return o;
}

}  // namespace

bool is_vprintf_declaration(const Prototype& p) {
  return p.name == "vprintf" && !p.is_entry && !p.defined;
}

void Parser::define_vprintf(Prototype& proto) {
  if (proto.returns.size() != 1 || !has_size(proto.returns[0], 4) || proto.params.size() != 2 ||
      !has_size(proto.params[0], 8) || !has_size(proto.params[1], 8)) {
    fail_tok(proto.tok,
             "vprintf is declared with an unexpected signature (device printf needs "
             "(.param .b32 r) vprintf(.param .b64 format, .param .b64 arguments), as nvcc declares it)");
  }
  const Token& at = tok_at(proto.tok);
  const SourceLoc loc{at.line, at.column};
  Function f;
  f.name = proto.name;
  f.loc = loc;
  auto add_param = [&](const ParamDecl& d, std::vector<uint32_t>& out) {
    Variable v;
    v.name = d.name;
    v.space = StateSpace::Param;
    v.type = d.type;
    v.align = d.align;
    v.size = type_size(d.type);
    v.is_func_param = true;
    v.loc = loc;
    out.push_back(static_cast<uint32_t>(mod_->vars.size()));
    mod_->vars.push_back(std::move(v));
  };
  add_param(proto.returns[0], f.returns);
  add_param(proto.params[0], f.params);
  add_param(proto.params[1], f.params);
  mod_->vars[f.params[1]].param_offset = 8;
  f.param_bytes = 16;
  f.regs = {Register{"%fmt", DataType::B64, 1}, Register{"%args", DataType::B64, 1},
            Register{"%ret", DataType::B32, 1}};

  auto inst = [&](Opcode op, StateSpace space, DataType type, std::vector<Operand> ops, std::string text) {
    Instruction i;
    i.op = op;
    i.space = space;
    i.type = type;
    i.ops = std::move(ops);
    i.loc = loc;
    i.text = std::move(text);
    f.insts.push_back(std::move(i));
  };
  const std::string& p0 = proto.params[0].name;
  const std::string& p1 = proto.params[1].name;
  const std::string& r = proto.returns[0].name;
  inst(Opcode::Ld, StateSpace::Param, DataType::B64, {reg_operand(0), param_address(f.params[0])},
       "ld.param.b64 %fmt, [" + p0 + "]");
  inst(Opcode::Ld, StateSpace::Param, DataType::B64, {reg_operand(1), param_address(f.params[1])},
       "ld.param.b64 %args, [" + p1 + "]");
  inst(Opcode::Extension, StateSpace::None, DataType::None, {reg_operand(2), reg_operand(0), reg_operand(1)},
       "vprintf %ret, %fmt, %args");
  f.insts.back().ext_id = ExtensionRegistry::kVprintf;
  inst(Opcode::St, StateSpace::Param, DataType::B32, {param_address(f.returns[0]), reg_operand(2)},
       "st.param.b32 [" + r + "], %ret");
  inst(Opcode::Ret, StateSpace::None, DataType::None, {}, "ret");

  mod_->functions.push_back(std::move(f));
  const auto index = static_cast<uint32_t>(mod_->functions.size() - 1);
  mod_->function_index[proto.name] = index;
  proto.defined = true;
  proto.function = static_cast<int32_t>(index);
}

}  // namespace simtlm::frontend::ptx
