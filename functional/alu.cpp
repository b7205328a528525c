// select_alu(): routes a decoded instruction to the family that implements it
// (alu_int, alu_carry, alu_bits, alu_logic, alu_compare, alu_float,
// alu_special, alu_half, alu_convert). Runs once per instruction at decode.
#include "functional/alu.h"

#include <string>

#include "functional/alu_detail.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace alu_detail {

void unsupported(const Instruction& inst) {
  throw Error(ErrorKind::Ptx, "line " + std::to_string(inst.loc.line) +
                                  ": unsupported instruction form '" + inst.text + "'");
}

bool has_modifier(const Instruction& inst, std::string_view mod) {
  std::string_view t = inst.text;
  // Skip leading blanks and a guard predicate ("@p" / "@!p").
  auto skip_blanks = [&t] {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  };
  skip_blanks();
  if (!t.empty() && t.front() == '@') {
    while (!t.empty() && t.front() != ' ' && t.front() != '\t') t.remove_prefix(1);
    skip_blanks();
  }
  size_t end = 0;
  while (end < t.size() && t[end] != ' ' && t[end] != '\t' && t[end] != ';') ++end;
  std::string_view mnemonic = t.substr(0, end);
  // Compare every dot-separated component after the opcode name.
  size_t pos = mnemonic.find('.');
  while (pos != std::string_view::npos) {
    const size_t next = mnemonic.find('.', pos + 1);
    const std::string_view part =
        mnemonic.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos
                                                                : next - pos - 1);
    if (part == mod) return true;
    pos = next;
  }
  return false;
}

namespace {

bool is_half_type(DataType t) {
  return t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 ||
         t == DataType::BF16x2;
}
bool is_wide_float(DataType t) { return t == DataType::F32 || t == DataType::F64; }

}  // namespace
}  // namespace alu_detail

AluKernel select_alu(const ir::Instruction& inst) {
  using namespace alu_detail;
  AluKernel k = nullptr;
  switch (inst.op) {
    case Opcode::Cvt:
      k = select_convert(inst);
      break;
    case Opcode::Setp: case Opcode::Set: case Opcode::Slct:
      k = select_compare(inst);
      break;
    case Opcode::Mov: case Opcode::And: case Opcode::Or: case Opcode::Xor:
    case Opcode::Not: case Opcode::Cnot: case Opcode::Lop3: case Opcode::Shl:
    case Opcode::Shr: case Opcode::Shf: case Opcode::Selp:
      k = select_logic(inst);
      break;
    case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind: case Opcode::Brev:
    case Opcode::Bfe: case Opcode::Bfi: case Opcode::Prmt: case Opcode::Dp4a:
    case Opcode::Dp2a:
      k = select_bits(inst);
      break;
    case Opcode::Addc: case Opcode::Subc: case Opcode::Madc:
      k = select_carry(inst);
      break;
    case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Ex2:
    case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos: case Opcode::Tanh:
    case Opcode::Testp: case Opcode::Copysign:
      k = is_half_type(inst.type) ? select_half(inst) : select_special(inst);
      break;
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad:
    case Opcode::Fma: case Opcode::Div: case Opcode::Abs: case Opcode::Neg:
    case Opcode::Min: case Opcode::Max:
      if (is_half_type(inst.type)) {
        k = select_half(inst);
      } else if (is_wide_float(inst.type)) {
        k = select_float(inst);
      } else if (inst.cc && (inst.op == Opcode::Add || inst.op == Opcode::Sub ||
                             inst.op == Opcode::Mad)) {
        k = select_carry(inst);
      } else {
        k = select_int_arith(inst);
      }
      break;
    case Opcode::Mul24: case Opcode::Mad24: case Opcode::Sad: case Opcode::Rem:
      k = select_int_arith(inst);
      break;
    default:
      return nullptr;  // memory, control flow, synchronisation, extensions
  }
  if (k == nullptr) unsupported(inst);
  return k;
}

}  // namespace simtlm::functional
