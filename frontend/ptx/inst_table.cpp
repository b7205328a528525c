// Mnemonic -> (opcode, decoder) table, and decoding of registered extensions.
#include <algorithm>
#include <unordered_map>

#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

const std::unordered_map<std::string_view, OpcodeEntry>& table() {
  static const std::unordered_map<std::string_view, OpcodeEntry> t = {
      {"mov", {Opcode::Mov, decode_mov}},
      {"ld", {Opcode::Ld, decode_ld}},
      {"ldu", {Opcode::Ldu, decode_ldu}},
      {"st", {Opcode::St, decode_st}},
      {"cvta", {Opcode::Cvta, decode_cvta}},
      {"cvt", {Opcode::Cvt, decode_cvt}},
      {"prefetch", {Opcode::Prefetch, decode_prefetch}},
      {"prefetchu", {Opcode::Prefetch, decode_prefetch}},
      {"isspacep", {Opcode::Isspacep, decode_isspacep}},
      {"add", {Opcode::Add, decode_add_sub}},
      {"sub", {Opcode::Sub, decode_add_sub}},
      {"mul", {Opcode::Mul, decode_mul}},
      {"mad", {Opcode::Mad, decode_mad}},
      {"mul24", {Opcode::Mul24, decode_mul24}},
      {"mad24", {Opcode::Mad24, decode_mul24}},
      {"addc", {Opcode::Addc, decode_addc_subc}},
      {"subc", {Opcode::Subc, decode_addc_subc}},
      {"madc", {Opcode::Madc, decode_madc}},
      {"sad", {Opcode::Sad, decode_sad}},
      {"div", {Opcode::Div, decode_div}},
      {"rem", {Opcode::Rem, decode_rem}},
      {"abs", {Opcode::Abs, decode_abs_neg}},
      {"neg", {Opcode::Neg, decode_abs_neg}},
      {"min", {Opcode::Min, decode_min_max}},
      {"max", {Opcode::Max, decode_min_max}},
      {"popc", {Opcode::Popc, decode_bitcount}},
      {"clz", {Opcode::Clz, decode_bitcount}},
      {"bfind", {Opcode::Bfind, decode_bitcount}},
      {"brev", {Opcode::Brev, decode_bitcount}},
      {"bfe", {Opcode::Bfe, decode_bfe}},
      {"bfi", {Opcode::Bfi, decode_bfi}},
      {"prmt", {Opcode::Prmt, decode_prmt}},
      {"dp4a", {Opcode::Dp4a, decode_dp}},
      {"dp2a", {Opcode::Dp2a, decode_dp}},
      {"and", {Opcode::And, decode_logic}},
      {"or", {Opcode::Or, decode_logic}},
      {"xor", {Opcode::Xor, decode_logic}},
      {"not", {Opcode::Not, decode_not}},
      {"cnot", {Opcode::Cnot, decode_not}},
      {"lop3", {Opcode::Lop3, decode_lop3}},
      {"shl", {Opcode::Shl, decode_shift}},
      {"shr", {Opcode::Shr, decode_shift}},
      {"shf", {Opcode::Shf, decode_shf}},
      {"setp", {Opcode::Setp, decode_setp}},
      {"set", {Opcode::Set, decode_set}},
      {"selp", {Opcode::Selp, decode_selp}},
      {"slct", {Opcode::Slct, decode_slct}},
      {"fma", {Opcode::Fma, decode_fma}},
      {"rcp", {Opcode::Rcp, decode_rcp_sqrt}},
      {"sqrt", {Opcode::Sqrt, decode_rcp_sqrt}},
      {"rsqrt", {Opcode::Rsqrt, decode_rcp_sqrt}},
      {"ex2", {Opcode::Ex2, decode_approx_unary}},
      {"lg2", {Opcode::Lg2, decode_approx_unary}},
      {"sin", {Opcode::Sin, decode_approx_unary}},
      {"cos", {Opcode::Cos, decode_approx_unary}},
      {"tanh", {Opcode::Tanh, decode_approx_unary}},
      {"copysign", {Opcode::Copysign, decode_copysign}},
      {"testp", {Opcode::Testp, decode_testp}},
      {"bra", {Opcode::Bra, decode_bra}},
      {"brx", {Opcode::BrxIdx, decode_brx}},
      {"call", {Opcode::Call, decode_call}},
      {"ret", {Opcode::Ret, decode_ret_exit}},
      {"exit", {Opcode::Exit, decode_ret_exit}},
      {"bar", {Opcode::Bar, decode_bar}},
      {"barrier", {Opcode::Bar, decode_bar}},
      {"membar", {Opcode::Membar, decode_membar}},
      {"fence", {Opcode::Fence, decode_fence}},
      {"atom", {Opcode::Atom, decode_atom}},
      {"red", {Opcode::Red, decode_atom}},
      {"shfl", {Opcode::Shfl, decode_shfl}},
      {"vote", {Opcode::Vote, decode_vote}},
      {"activemask", {Opcode::Activemask, decode_activemask}},
      {"nanosleep", {Opcode::Nanosleep, decode_nanosleep}},
  };
  return t;
}

uint32_t slot_kinds(uint32_t ext_kinds) {
  uint32_t k = 0;
  if (ext_kinds & kExtReg) k |= kSlotReg;
  if (ext_kinds & kExtImm) k |= kSlotImm;
  if (ext_kinds & kExtSpecial) k |= kSlotSpecial;
  if (ext_kinds & kExtSymbol) k |= kSlotSymbol;
  if (ext_kinds & kExtAddress) k |= kSlotAddress;
  if (ext_kinds & kExtVector) k |= kSlotVector;
  return k;
}

}  // namespace

const OpcodeEntry* Parser::find_opcode(std::string_view mnemonic) const {
  const auto& t = table();
  auto it = t.find(mnemonic);
  return it == t.end() ? nullptr : &it->second;
}

void Parser::decode_extension(InstCtx& c, int ext_id) {
  const ExtensionDef& def = *ext_.find(static_cast<uint16_t>(ext_id));
  Instruction& inst = c.inst;
  if (inst.has_guard && !def.allow_guard) c.fail(def.mnemonic + " cannot be predicated");
  unsigned ntypes = 0;
  std::vector<unsigned> group_count(def.modifier_groups.size(), 0);
  for (std::string_view comp : c.comps) {
    DataType t;
    if (ntypes < def.max_types && parse_type(comp, t)) {
      (ntypes == 0 ? inst.type : inst.type2) = t;
      ++ntypes;
      continue;
    }
    bool grouped = false;
    for (size_t g = 0; g < def.modifier_groups.size(); ++g) {
      const auto& names = def.modifier_groups[g].names;
      if (std::find(names.begin(), names.end(), comp) == names.end()) continue;
      if (++group_count[g] > 1) c.fail(def.mnemonic + ": conflicting modifier '." + std::string(comp) + "'");
      grouped = true;
    }
    std::string err;
    bool consumed = def.parse_modifier && def.parse_modifier(comp, inst, err);
    if (!err.empty()) c.fail(err);
    if (consumed || grouped) continue;
    c.fail("unknown modifier '." + std::string(comp) + "' for " + def.mnemonic);
  }
  if (def.type_required && ntypes == 0) c.fail(def.mnemonic + " needs a type modifier");
  for (size_t g = 0; g < def.modifier_groups.size(); ++g) {
    if (!def.modifier_groups[g].required || group_count[g]) continue;
    std::string names;
    for (const auto& n : def.modifier_groups[g].names) names += (names.empty() ? "." : " or .") + n;
    c.fail(def.mnemonic + " needs " + names);
  }
  size_t min_ops = 0;
  for (const ExtOperand& o : def.operands)
    if (!o.optional) ++min_ops;
  if (c.raw.size() < min_ops || c.raw.size() > def.operands.size()) {
    std::string expect = min_ops == def.operands.size()
                             ? std::to_string(min_ops)
                             : std::to_string(min_ops) + " to " + std::to_string(def.operands.size());
    c.fail(def.mnemonic + " expects " + expect + " operands, got " + std::to_string(c.raw.size()));
  }
  for (size_t i = 0; i < c.raw.size(); ++i) {
    const ExtOperand& spec = def.operands[i];
    const RawOperand& r = c.raw[i];
    if (r.kind == RawOperand::Kind::Name && !r.negate && !r.has_offset && !lookup(r.name)) {
      if (spec.kinds & kExtName) {
        auto it = std::find(spec.names.begin(), spec.names.end(), r.name);
        if (it != spec.names.end()) {
          Operand o;
          o.kind = OperandKind::Imm;
          o.imm = static_cast<uint64_t>(it - spec.names.begin());
          inst.ops.push_back(o);
          continue;
        }
      }
      if ((spec.kinds & kExtLabel) && r.name[0] != '%') {
        Operand o;
        o.kind = OperandKind::Label;
        inst.ops.push_back(o);
        add_label_ref(std::string(r.name), static_cast<uint32_t>(fn_->insts.size()),
                      static_cast<int32_t>(inst.ops.size() - 1), r.tok);
        continue;
      }
    }
    Slot s;
    s.kinds = slot_kinds(spec.kinds);
    if (s.kinds == 0) c.fail_at(r, "operand " + std::to_string(i + 1) + " of " + def.mnemonic + " has the wrong kind");
    s.type = spec.type != DataType::None ? spec.type : inst.type;
    s.dst = spec.is_dst;
    s.negate_ok = s.type == DataType::Pred && !spec.is_dst;
    s.elem = s.type;
    inst.ops.push_back(convert(r, s));
  }
  if (def.validate) {
    std::string err;
    def.validate(inst, err);
    if (!err.empty()) c.fail(err);
  }
}

}  // namespace simtlm::frontend::ptx
