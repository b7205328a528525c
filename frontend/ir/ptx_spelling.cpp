// How PTX spells the IR's modifiers and opcodes (see ptx_spelling.h).
#include "frontend/ir/ptx_spelling.h"

namespace simtlm::ir {

std::string_view rounding_name(Rounding r) {
  switch (r) {
    case Rounding::None: return "";
    case Rounding::Rn: return "rn";
    case Rounding::Rz: return "rz";
    case Rounding::Rm: return "rm";
    case Rounding::Rp: return "rp";
    case Rounding::Rna: return "rna";
    case Rounding::Rni: return "rni";
    case Rounding::Rzi: return "rzi";
    case Rounding::Rmi: return "rmi";
    case Rounding::Rpi: return "rpi";
  }
  return "";
}

std::string_view cmp_name(CmpOp c) {
  switch (c) {
    case CmpOp::None: return "";
    case CmpOp::Eq: return "eq";
    case CmpOp::Ne: return "ne";
    case CmpOp::Lt: return "lt";
    case CmpOp::Le: return "le";
    case CmpOp::Gt: return "gt";
    case CmpOp::Ge: return "ge";
    case CmpOp::Lo: return "lo";
    case CmpOp::Ls: return "ls";
    case CmpOp::Hi: return "hi";
    case CmpOp::Hs: return "hs";
    case CmpOp::Equ: return "equ";
    case CmpOp::Neu: return "neu";
    case CmpOp::Ltu: return "ltu";
    case CmpOp::Leu: return "leu";
    case CmpOp::Gtu: return "gtu";
    case CmpOp::Geu: return "geu";
    case CmpOp::Num: return "num";
    case CmpOp::Nan: return "nan";
  }
  return "";
}

std::string_view bool_name(BoolOp b) {
  switch (b) {
    case BoolOp::None: return "";
    case BoolOp::And: return "and";
    case BoolOp::Or: return "or";
    case BoolOp::Xor: return "xor";
  }
  return "";
}

std::string_view order_name(MemOrder o) {
  switch (o) {
    case MemOrder::None: return "";
    case MemOrder::Relaxed: return "relaxed";
    case MemOrder::Acquire: return "acquire";
    case MemOrder::Release: return "release";
    case MemOrder::AcqRel: return "acq_rel";
    case MemOrder::Sc: return "sc";
    case MemOrder::Weak: return "weak";
    case MemOrder::Volatile: return "volatile";
  }
  return "";
}

std::string_view scope_name(MemScope s) {
  switch (s) {
    case MemScope::None: return "";
    case MemScope::Cta: return "cta";
    case MemScope::Cluster: return "cluster";
    case MemScope::Gpu: return "gpu";
    case MemScope::Sys: return "sys";
  }
  return "";
}

std::string_view atom_name(AtomOp a) {
  switch (a) {
    case AtomOp::None: return "";
    case AtomOp::Add: return "add";
    case AtomOp::Min: return "min";
    case AtomOp::Max: return "max";
    case AtomOp::Inc: return "inc";
    case AtomOp::Dec: return "dec";
    case AtomOp::Cas: return "cas";
    case AtomOp::Exch: return "exch";
    case AtomOp::And: return "and";
    case AtomOp::Or: return "or";
    case AtomOp::Xor: return "xor";
  }
  return "";
}

std::string_view shfl_name(ShflMode m) {
  switch (m) {
    case ShflMode::None: return "";
    case ShflMode::Up: return "up";
    case ShflMode::Down: return "down";
    case ShflMode::Bfly: return "bfly";
    case ShflMode::Idx: return "idx";
  }
  return "";
}

std::string_view vote_name(VoteMode m) {
  switch (m) {
    case VoteMode::None: return "";
    case VoteMode::All: return "all";
    case VoteMode::Any: return "any";
    case VoteMode::Uni: return "uni";
    case VoteMode::Ballot: return "ballot";
  }
  return "";
}

std::string_view testp_name(TestProp t) {
  switch (t) {
    case TestProp::None: return "";
    case TestProp::Finite: return "finite";
    case TestProp::Infinite: return "infinite";
    case TestProp::Number: return "number";
    case TestProp::NotANumber: return "notanumber";
    case TestProp::Normal: return "normal";
    case TestProp::Subnormal: return "subnormal";
  }
  return "";
}

const std::string_view kPrmtModes[7] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};

std::string_view opcode_name(Opcode op) {
  switch (op) {
    case Opcode::Invalid: return "<invalid>";
    case Opcode::Mov: return "mov";
    case Opcode::Ld: return "ld";
    case Opcode::Ldu: return "ldu";
    case Opcode::St: return "st";
    case Opcode::Cvta: return "cvta";
    case Opcode::Cvt: return "cvt";
    case Opcode::Prefetch: return "prefetch";
    case Opcode::Isspacep: return "isspacep";
    case Opcode::Add: return "add";
    case Opcode::Sub: return "sub";
    case Opcode::Mul: return "mul";
    case Opcode::Mad: return "mad";
    case Opcode::Mul24: return "mul24";
    case Opcode::Mad24: return "mad24";
    case Opcode::Addc: return "addc";
    case Opcode::Subc: return "subc";
    case Opcode::Madc: return "madc";
    case Opcode::Sad: return "sad";
    case Opcode::Div: return "div";
    case Opcode::Rem: return "rem";
    case Opcode::Abs: return "abs";
    case Opcode::Neg: return "neg";
    case Opcode::Min: return "min";
    case Opcode::Max: return "max";
    case Opcode::Popc: return "popc";
    case Opcode::Clz: return "clz";
    case Opcode::Bfind: return "bfind";
    case Opcode::Brev: return "brev";
    case Opcode::Bfe: return "bfe";
    case Opcode::Bfi: return "bfi";
    case Opcode::Prmt: return "prmt";
    case Opcode::Dp4a: return "dp4a";
    case Opcode::Dp2a: return "dp2a";
    case Opcode::And: return "and";
    case Opcode::Or: return "or";
    case Opcode::Xor: return "xor";
    case Opcode::Not: return "not";
    case Opcode::Cnot: return "cnot";
    case Opcode::Lop3: return "lop3";
    case Opcode::Shl: return "shl";
    case Opcode::Shr: return "shr";
    case Opcode::Shf: return "shf";
    case Opcode::Setp: return "setp";
    case Opcode::Set: return "set";
    case Opcode::Selp: return "selp";
    case Opcode::Slct: return "slct";
    case Opcode::Fma: return "fma";
    case Opcode::Rcp: return "rcp";
    case Opcode::Sqrt: return "sqrt";
    case Opcode::Rsqrt: return "rsqrt";
    case Opcode::Ex2: return "ex2";
    case Opcode::Lg2: return "lg2";
    case Opcode::Sin: return "sin";
    case Opcode::Cos: return "cos";
    case Opcode::Tanh: return "tanh";
    case Opcode::Copysign: return "copysign";
    case Opcode::Testp: return "testp";
    case Opcode::Bra: return "bra";
    case Opcode::BrxIdx: return "brx.idx";
    case Opcode::Call: return "call";
    case Opcode::Ret: return "ret";
    case Opcode::Exit: return "exit";
    case Opcode::Bar: return "bar";
    case Opcode::Membar: return "membar";
    case Opcode::Fence: return "fence";
    case Opcode::Atom: return "atom";
    case Opcode::Red: return "red";
    case Opcode::Shfl: return "shfl";
    case Opcode::Vote: return "vote";
    case Opcode::Activemask: return "activemask";
    case Opcode::Nanosleep: return "nanosleep";
    case Opcode::Extension: return "<extension>";
  }
  return "<?>";
}

}  // namespace simtlm::ir
