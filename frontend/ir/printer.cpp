// IR -> PTX text (see printer.h).
#include "frontend/ir/printer.h"

#include <cinttypes>
#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "frontend/ptx/extensions.h"
#include "frontend/ptx/special_regs.h"

namespace simtlm::ir {

namespace {

std::string dot(std::string_view s) { return "." + std::string(s); }


// Names used when printing one function (uniquified) or one instruction
// (as declared).
struct Names {
  const Module& m;
  const Function& f;
  std::vector<std::string> regs;                 // empty -> Register::name
  std::unordered_map<uint32_t, std::string> vars;  // missing -> Variable::name
  std::unordered_map<uint32_t, std::string> labels;  // instruction index -> label

  Names(const Module& mod, const Function& fn) : m(mod), f(fn) {}

  std::string reg(uint32_t r) const {
    if (!regs.empty() && r < regs.size()) return regs[r];
    return r < f.regs.size() ? f.regs[r].name : "%<bad-reg>";
  }
  std::string var(uint32_t v) const {
    auto it = vars.find(v);
    if (it != vars.end()) return it->second;
    return v < m.vars.size() ? m.vars[v].name : "<bad-var>";
  }
  std::string label(uint32_t target) const {
    auto it = labels.find(target);
    if (it != labels.end()) return it->second;
    return "$L__pc" + std::to_string(target);
  }
};

std::string imm_text(uint64_t bits, DataType t) {
  char buf[40];
  if (t == DataType::F32) {
    std::snprintf(buf, sizeof buf, "0f%08" PRIX32, static_cast<uint32_t>(bits));
  } else if (t == DataType::F64) {
    std::snprintf(buf, sizeof buf, "0d%016" PRIX64, bits);
  } else if (static_cast<int64_t>(bits) < 0) {
    std::snprintf(buf, sizeof buf, "%" PRId64, static_cast<int64_t>(bits));
  } else {
    std::snprintf(buf, sizeof buf, "%" PRIu64, bits);
  }
  return buf;
}

// Type in which an immediate at operand position `i` was converted (only
// float-ness matters for printing).
DataType imm_type(const Instruction& inst, size_t i) {
  switch (inst.op) {
    case Opcode::Cvt: return i >= 1 ? inst.type2 : inst.type;
    case Opcode::Set: return inst.type2;
    case Opcode::Slct: return i == 3 ? inst.type2 : inst.type;
    default: return inst.type;
  }
}

std::string operand_text(const Names& n, const Operand& o, DataType imm_t) {
  switch (o.kind) {
    case OperandKind::None: return "<none>";
    case OperandKind::Reg: return (o.negate ? "!" : "") + n.reg(o.reg);
    case OperandKind::Imm: return imm_text(o.imm, imm_t);
    case OperandKind::Special: {
      std::string s(frontend::ptx::special_register_name(o.sreg));
      if (o.sreg == SpecialReg::Tid || o.sreg == SpecialReg::Ntid || o.sreg == SpecialReg::Ctaid ||
          o.sreg == SpecialReg::Nctaid)
        s += o.component == 0 ? ".x" : o.component == 1 ? ".y" : ".z";
      return s;
    }
    case OperandKind::Symbol: {
      std::string s = n.var(o.var);
      if (o.offset > 0) s += "+" + std::to_string(o.offset);
      if (o.offset < 0) s += "+" + std::to_string(o.offset);
      return s;
    }
    case OperandKind::Address: {
      std::string s = "[";
      if (o.base == OperandKind::Reg) s += n.reg(o.reg);
      if (o.base == OperandKind::Symbol) s += n.var(o.var);
      if (o.base == OperandKind::None) {
        s += std::to_string(o.offset);
      } else if (o.offset != 0) {
        s += "+" + std::to_string(o.offset);
      }
      return s + "]";
    }
    case OperandKind::Vector: {
      std::string s = "{";
      for (size_t i = 0; i < o.elems.size(); ++i) {
        if (i) s += ", ";
        s += operand_text(n, o.elems[i], imm_t);
      }
      return s + "}";
    }
    case OperandKind::Label: return n.label(o.target);
    case OperandKind::Function:
      return o.func < n.m.functions.size() ? n.m.functions[o.func].name : "<bad-func>";
    case OperandKind::Sink: return "_";
  }
  return "<?>";
}

std::string mnemonic(const Instruction& i) {
  std::string s(opcode_name(i.op));
  auto type = [&]() { return dot(type_name(i.type)); };
  auto rnd = [&]() { return i.rounding == Rounding::None ? std::string() : dot(rounding_name(i.rounding)); };
  auto flags = [&]() {
    std::string f;
    if (i.approx) f += ".approx";
    if (i.full) f += ".full";
    f += rnd();
    if (i.ftz) f += ".ftz";
    if (i.sat) f += ".sat";
    if (i.cc) f += ".cc";
    return f;
  };
  auto mul = [&]() {
    switch (i.mul) {
      case MulMode::Lo: return std::string(".lo");
      case MulMode::Hi: return std::string(".hi");
      case MulMode::Wide: return std::string(".wide");
      default: return std::string();
    }
  };
  auto space = [&]() {
    return i.space == StateSpace::Generic || i.space == StateSpace::None ? std::string()
                                                                          : dot(space_name(i.space));
  };
  switch (i.op) {
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: {
      if (i.volatile_) s += ".volatile";
      else if (i.order != MemOrder::None) s += dot(order_name(i.order));
      if (i.scope != MemScope::None) s += dot(scope_name(i.scope));
      s += space();
      if (i.cache_op != CacheOp::None) s += dot(cache_op_name(i.cache_op));
      if (i.vec > 1) s += ".v" + std::to_string(i.vec);
      return s + type();
    }
    case Opcode::Cvta: return s + (i.cvta_to ? ".to" : "") + space() + type();
    case Opcode::Cvt: return s + flags() + type() + dot(type_name(i.type2));
    case Opcode::Prefetch: return s + space() + ".L2";
    case Opcode::Isspacep: return s + space();
    case Opcode::Min: case Opcode::Max:
      return s + flags() + (i.cmp == CmpOp::Nan ? ".NaN" : "") + type();
    case Opcode::Bfind: return s + (i.shift_left ? ".shiftamt" : "") + type();
    case Opcode::Prmt: return s + type() + (i.prmt_mode ? dot(kPrmtModes[i.prmt_mode % 7]) : "");
    case Opcode::Dp4a: return s + type() + dot(type_name(i.type2));
    case Opcode::Dp2a: return s + mul() + type() + dot(type_name(i.type2));
    case Opcode::Shf:
      return s + (i.shift_left ? ".l" : ".r") + (i.shift_clamp ? ".clamp" : ".wrap") + type();
    case Opcode::Setp: {
      s += dot(cmp_name(i.cmp));
      if (i.boolop != BoolOp::None) s += dot(bool_name(i.boolop));
      return s + (i.ftz ? ".ftz" : "") + type();
    }
    case Opcode::Set: {
      s += dot(cmp_name(i.cmp));
      if (i.boolop != BoolOp::None) s += dot(bool_name(i.boolop));
      return s + (i.ftz ? ".ftz" : "") + type() + dot(type_name(i.type2));
    }
    case Opcode::Slct: return s + (i.ftz ? ".ftz" : "") + type() + dot(type_name(i.type2));
    case Opcode::Testp: return s + dot(testp_name(i.testp)) + type();
    case Opcode::Bra: case Opcode::BrxIdx: case Opcode::Call: case Opcode::Ret:
      return s + (i.uni ? ".uni" : "");
    case Opcode::Exit: return s;
    case Opcode::Bar:
      if (i.barrier == BarrierKind::Red)
        return s + ".red" + (i.bar_red_op == 1 ? ".popc" : i.bar_red_op == 2 ? ".and" : ".or") + type();
      return s + (i.barrier == BarrierKind::Arrive ? ".arrive" : ".sync");
    case Opcode::Membar:
      return s + (i.scope == MemScope::Cta ? ".cta" : i.scope == MemScope::Sys ? ".sys" : ".gl");
    case Opcode::Fence: return s + dot(order_name(i.order)) + dot(scope_name(i.scope));
    case Opcode::Atom: case Opcode::Red: {
      if (i.order != MemOrder::None) s += dot(order_name(i.order));
      if (i.scope != MemScope::None) s += dot(scope_name(i.scope));
      s += space() + dot(atom_name(i.atom));
      bool half = i.type == DataType::F16 || i.type == DataType::F16x2 || i.type == DataType::BF16 ||
                  i.type == DataType::BF16x2;
      return s + (half ? ".noftz" : "") + type();
    }
    case Opcode::Shfl: return s + ".sync" + dot(shfl_name(i.shfl)) + type();
    case Opcode::Vote: return s + ".sync" + dot(vote_name(i.vote)) + type();
    case Opcode::Activemask: case Opcode::Nanosleep: case Opcode::Mov: case Opcode::Popc:
    case Opcode::Clz: case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::And:
    case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot: case Opcode::Lop3:
    case Opcode::Shl: case Opcode::Shr: case Opcode::Selp: case Opcode::Copysign: case Opcode::Sad:
    case Opcode::Rem: case Opcode::Addc: case Opcode::Subc:
      return s + (i.cc ? ".cc" : "") + type();
    default:
      return s + mul() + flags() + type();
  }
}

// Name of the .branchtargets list printed for a brx.idx instruction.
std::string brx_list_name(const Function& f, const Instruction& inst) {
  if (!f.insts.empty() && &inst >= &f.insts.front() && &inst <= &f.insts.back())
    return "$BT" + std::to_string(&inst - &f.insts.front());
  return "$BT";
}

// Extension instructions: the opcode as written (all its modifiers) followed
// by the operands (keywords of kExtName positions printed as names when the
// position takes no plain immediate). Uses the global extension registry.
std::string extension_text(const Names& n, const Instruction& inst) {
  std::string_view t = inst.text;
  if (!t.empty() && t[0] == '@') t = t.substr(std::min(t.size(), t.find(' ') + 1));
  std::string s(t.substr(0, t.find(' ')));
  const auto* def = frontend::ptx::ExtensionRegistry::global().find(inst.ext_id);
  for (size_t i = 0; i < inst.ops.size(); ++i) {
    s += i == 0 ? " " : ", ";
    const Operand& o = inst.ops[i];
    if (def && i < def->operands.size() && o.kind == OperandKind::Imm) {
      const auto& spec = def->operands[i];
      if ((spec.kinds & frontend::ptx::kExtName) && !(spec.kinds & frontend::ptx::kExtImm) &&
          o.imm < spec.names.size()) {
        s += spec.names[o.imm];
        continue;
      }
    }
    DataType t2 = def && i < def->operands.size() && def->operands[i].type != DataType::None
                      ? def->operands[i].type
                      : inst.type;
    s += operand_text(n, o, t2);
  }
  return s;
}

std::string instruction_text(const Names& n, const Instruction& inst) {
  if (inst.op == Opcode::Invalid) return inst.text;
  std::string s;
  if (inst.has_guard) s += std::string("@") + (inst.guard_negated ? "!" : "") + n.reg(inst.guard_reg) + " ";
  if (inst.op == Opcode::Extension) return s + extension_text(n, inst);
  s += mnemonic(inst);
  if (inst.op == Opcode::Call) {
    s += " ";
    const Operand& rets = inst.ops[0];
    if (!rets.elems.empty()) {
      s += "(";
      for (size_t i = 0; i < rets.elems.size(); ++i)
        s += (i ? ", " : "") + operand_text(n, rets.elems[i], DataType::None);
      s += "), ";
    }
    s += operand_text(n, inst.ops[1], DataType::None) + ", (";
    const Operand& args = inst.ops[2];
    for (size_t i = 0; i < args.elems.size(); ++i)
      s += (i ? ", " : "") + operand_text(n, args.elems[i], DataType::None);
    return s + ")";
  }
  for (size_t i = 0; i < inst.ops.size(); ++i) {
    s += i == 0 ? " " : (inst.dual_dst && i == 1 ? "|" : ", ");
    if (inst.op == Opcode::BrxIdx && i == 1) {
      s += brx_list_name(n.f, inst);
      continue;
    }
    s += operand_text(n, inst.ops[i], imm_type(inst, i));
  }
  return s;
}

std::string var_decl(const Names& n, const Variable& v, uint32_t index, bool module_scope) {
  (void)module_scope;
  std::string s;
  if (v.is_extern) s += ".extern ";
  if (v.is_visible) s += ".visible ";
  s += dot(space_name(v.space));
  if (v.align) s += " .align " + std::to_string(v.align);
  s += " " + dot(type_name(v.type)) + " " + n.var(index);
  unsigned esize = type_size(v.type);
  uint64_t count = esize ? v.size / esize : 0;
  if (v.is_extern && v.size == 0) {
    s += "[]";
  } else if (count != 1) {
    s += "[" + std::to_string(count) + "]";
  }
  if (!v.init.empty() && esize) {
    std::unordered_map<uint64_t, uint32_t> addr;
    for (const auto& [off, var] : v.address_inits) addr[off] = var;
    std::string list;
    for (uint64_t e = 0; e < count; ++e) {
      uint64_t bits = 0;
      for (unsigned b = 0; b < esize && e * esize + b < v.init.size(); ++b)
        bits |= uint64_t{v.init[e * esize + b]} << (8 * b);
      if (e) list += ", ";
      auto it = addr.find(e * esize);
      if (it != addr.end()) {
        list += "generic(" + n.var(it->second) + ")";
        if (bits) list += "+" + std::to_string(bits);
        continue;
      }
      if (is_signed(v.type) && esize < 8 && (bits >> (esize * 8 - 1)) & 1)
        bits |= ~uint64_t{0} << (esize * 8);
      list += imm_text(bits, v.type);
    }
    s += count == 1 ? " = " + list : " = {" + list + "}";
  }
  return s;
}

std::string param_decl(const Names& n, const Variable& v, uint32_t index) {
  std::string s = ".param";
  if (v.align) s += " .align " + std::to_string(v.align);
  s += " " + dot(type_name(v.type)) + " " + n.var(index);
  unsigned esize = type_size(v.type);
  if (esize && v.size != esize) s += "[" + std::to_string(v.size / esize) + "]";
  return s;
}

// Length of the run of registers starting at `r` named <base>0, <base>1, ...
// with the same type (1 if there is none).
size_t register_run(const Function& f, const Names& n, size_t r) {
  const std::string& first = n.regs[r];
  if (first.empty() || first.back() != '0') return 1;
  const std::string base = first.substr(0, first.size() - 1);
  if (base.empty() || (base.back() >= '0' && base.back() <= '9')) return 1;
  size_t k = 1;
  while (r + k < f.regs.size() && f.regs[r + k].type == f.regs[r].type && f.regs[r + k].vec == f.regs[r].vec &&
         n.regs[r + k] == base + std::to_string(k))
    ++k;
  return k;
}

// Builds uniquified register/variable names and label names for `f`.
void build_names(Names& n) {
  const Function& f = n.f;
  std::unordered_map<std::string, unsigned> counts;
  for (const Register& r : f.regs) ++counts[r.name];
  n.regs.reserve(f.regs.size());
  for (size_t i = 0; i < f.regs.size(); ++i) {
    const std::string& name = f.regs[i].name;
    n.regs.push_back(counts[name] > 1 ? name + "$" + std::to_string(i) : name);
  }
  std::unordered_set<uint32_t> own;
  for (uint32_t v : f.params) own.insert(v);
  for (uint32_t v : f.returns) own.insert(v);
  for (uint32_t v : f.locals) own.insert(v);
  std::unordered_map<std::string, unsigned> vcounts;
  std::unordered_set<uint32_t> all_owned;
  for (const Function& g : n.m.functions) {
    for (uint32_t v : g.params) all_owned.insert(v);
    for (uint32_t v : g.returns) all_owned.insert(v);
    for (uint32_t v : g.locals) all_owned.insert(v);
  }
  for (uint32_t v = 0; v < n.m.vars.size(); ++v)
    if (!all_owned.count(v) || own.count(v)) ++vcounts[n.m.vars[v].name];
  for (uint32_t v : own) {
    const std::string& name = n.m.vars[v].name;
    if (vcounts[name] > 1) n.vars[v] = name + "$" + std::to_string(v);
  }
  for (const auto& [name, idx] : f.labels) n.labels.emplace(idx, name);
}

}  // namespace

std::string print_operand(const Module& m, const Function& f, const Operand& op) {
  Names n(m, f);
  return operand_text(n, op, DataType::None);
}

std::string print_instruction(const Module& m, const Function& f, const Instruction& inst) {
  Names n(m, f);
  return instruction_text(n, inst);
}

std::string print_function(const Module& m, const Function& f, const InstructionComment& comment) {
  Names n(m, f);
  build_names(n);
  std::string s;
  if (f.is_visible) s += ".visible ";
  s += f.is_entry ? ".entry " : ".func ";
  if (!f.returns.empty()) {
    s += "(";
    for (size_t i = 0; i < f.returns.size(); ++i)
      s += (i ? ", " : "") + param_decl(n, m.vars[f.returns[i]], f.returns[i]);
    s += ") ";
  }
  s += f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i)
    s += std::string(i ? ",\n\t" : "\n\t") + param_decl(n, m.vars[f.params[i]], f.params[i]);
  s += f.params.empty() ? ")\n" : "\n)\n";
  auto dims = [&](const char* name, const uint32_t (&d)[3]) {
    if (d[0]) s += std::string(name) + " " + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
                   std::to_string(d[2]) + "\n";
  };
  dims(".maxntid", f.maxntid);
  dims(".reqntid", f.reqntid);
  if (f.minnctapersm) s += ".minnctapersm " + std::to_string(f.minnctapersm) + "\n";
  if (f.maxnreg) s += ".maxnreg " + std::to_string(f.maxnreg) + "\n";
  s += "{\n";
  for (size_t r = 0; r < f.regs.size();) {
    s += "\t.reg ";
    if (f.regs[r].vec > 1) s += ".v" + std::to_string(f.regs[r].vec) + " ";
    s += dot(type_name(f.regs[r].type)) + " ";
    // `%r0, %r1, ... %rN-1` declared together print as `%r<N>`.
    size_t run = register_run(f, n, r);
    if (run > 1) {
      const std::string& name = n.regs[r];
      s += name.substr(0, name.size() - 1) + "<" + std::to_string(run) + ">;\n";
      r += run;
    } else {
      s += n.regs[r] + ";\n";
      ++r;
    }
  }
  for (uint32_t v : f.locals) s += "\t" + var_decl(n, m.vars[v], v, false) + ";\n";
  std::unordered_map<uint32_t, std::vector<std::string>> labels_at;
  for (const auto& [name, idx] : f.labels) labels_at[idx].push_back(name);
  std::unordered_set<uint32_t> targets;
  for (const Instruction& inst : f.insts) {
    for (const Operand& o : inst.ops)
      if (o.kind == OperandKind::Label && inst.op != Opcode::BrxIdx) targets.insert(o.target);
    for (uint32_t t : inst.targets) targets.insert(t);
  }
  for (uint32_t i = 0; i <= f.insts.size(); ++i) {
    auto it = labels_at.find(i);
    if (it != labels_at.end()) {
      for (const auto& l : it->second) s += l + ":\n";
    } else if (targets.count(i)) {
      s += n.label(i) + ":\n";
    }
    if (i == f.insts.size()) break;
    const Instruction& inst = f.insts[i];
    if (inst.op == Opcode::BrxIdx) {
      s += brx_list_name(f, inst) + ": .branchtargets ";
      for (size_t k = 0; k < inst.targets.size(); ++k) s += (k ? ", " : "") + n.label(inst.targets[k]);
      s += ";\n";
    }
    s += "\t" + instruction_text(n, inst) + ";";
    const std::string note = comment ? comment(f, i) : std::string();
    s += note.empty() ? "\n" : "\t// " + note + "\n";
  }
  s += "}\n";
  return s;
}

std::string print_module(const Module& m, const InstructionComment& comment) {
  std::string s = ".version " + (m.version.empty() ? std::string("9.0") : m.version) + "\n";
  s += ".target " + (m.target.empty() ? std::string("sm_75") : m.target) + "\n";
  s += ".address_size " + std::to_string(m.address_size) + "\n\n";
  std::unordered_set<uint32_t> owned;
  for (const Function& f : m.functions) {
    for (uint32_t v : f.params) owned.insert(v);
    for (uint32_t v : f.returns) owned.insert(v);
    for (uint32_t v : f.locals) owned.insert(v);
  }
  if (!m.functions.empty() || !m.vars.empty()) {
    Function none;
    Names n(m, m.functions.empty() ? none : m.functions[0]);
    for (uint32_t v = 0; v < m.vars.size(); ++v)
      if (!owned.count(v)) s += var_decl(n, m.vars[v], v, true) + ";\n";
  }
  for (const Function& f : m.functions) s += "\n" + print_function(m, f, comment);
  return s;
}

}  // namespace simtlm::ir
