// Pre-decoded PTX instructions. The parser produces these once per module; both
// backends execute them without any string work on the hot path: opcodes are
// enums, operands are typed and resolved (register indices, variable ids,
// branch targets as instruction indices), and the analyses fill in the
// reconvergence point of every branch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/types.h"

namespace simtlm::ir {

enum class Opcode : uint16_t {
  Invalid,
  // data movement and conversion
  Mov, Ld, Ldu, St, Cvta, Cvt, Prefetch, Isspacep,
  // integer arithmetic
  Add, Sub, Mul, Mad, Mul24, Mad24, Addc, Subc, Madc, Sad, Div, Rem, Abs, Neg, Min, Max,
  Popc, Clz, Bfind, Brev, Bfe, Bfi, Prmt, Dp4a, Dp2a,
  // logic and shift
  And, Or, Xor, Not, Cnot, Lop3, Shl, Shr, Shf,
  // comparison and selection
  Setp, Set, Selp, Slct,
  // floating point
  Fma, Rcp, Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos, Tanh, Copysign, Testp,
  // control flow
  Bra, BrxIdx, Call, Ret, Exit,
  // synchronisation and communication
  Bar, Membar, Fence, Atom, Red, Shfl, Vote, Activemask, Nanosleep,
  // Instructions added through the extension registry (relssp, communication-
  // buffer loads/stores, bar.blocksync, ...) are `Extension`; their identity is
  // Instruction::ext_id, an index into frontend::ptx::ExtensionRegistry.
  Extension,
};

enum class OperandKind : uint8_t {
  None,
  Reg,        // virtual register: `reg` is the index into Function::regs
  Imm,        // immediate: `imm` holds the raw bit pattern in the instruction's type
  Special,    // special register: `sreg` (+ `component` 0..2 for .x/.y/.z)
  Symbol,     // address of a variable used as a value (`mov.u32 %r1, smem;`): `var`
  Address,    // memory operand [base + offset]; base is Reg, Symbol or none
  Vector,     // {a, b, c, d}: `elems` holds the element operands (Reg or Imm or Sink)
  Label,      // branch target: `target` = instruction index in the function
  Function,   // call target: `func` = index in Module::functions
  Sink,       // `_` placeholder in vector destinations
};

// One operand. Deliberately a flat struct (no variant) so it is cheap to copy
// and the executor can switch on `kind` directly.
struct Operand {
  OperandKind kind = OperandKind::None;
  bool negate = false;        // `!p` on a predicate source operand (e.g. selp/setp combine)
  uint8_t component = 0;      // special-register component (x=0, y=1, z=2)
  SpecialReg sreg = SpecialReg::None;
  // Address operands: base register (kind Reg) or base variable, plus byte offset.
  OperandKind base = OperandKind::None;  // Reg, Symbol or None (absolute [imm])
  uint32_t reg = 0;           // register index (Reg, or Address with base Reg)
  uint32_t var = 0;           // variable index (Symbol, or Address with base Symbol)
  int64_t offset = 0;         // Address: byte offset; Symbol: byte offset added (var+imm)
  uint64_t imm = 0;           // Imm: raw bits, already converted to the operand's type
  uint32_t target = 0;        // Label: instruction index;  Function: function index
  uint32_t func = 0;
  std::vector<Operand> elems; // Vector elements
};

// Source position, kept on every instruction for diagnostics and fault reports.
struct SourceLoc {
  uint32_t line = 0;
  uint32_t column = 0;
};

// Sentinel for "no reconvergence point inside this function" (reconverge at exit).
inline constexpr uint32_t kNoReconvergence = 0xFFFFFFFFu;

// One pre-decoded instruction. Field meaning depends on the opcode; unused
// fields stay at their defaults. `type` is the instruction's (first) type
// suffix; `type2` the second one where PTX has two (cvt.dst.src, setp/set
// dst.src, slct.dst.src, cvta size, prmt mode-less forms use only `type`).
struct Instruction {
  Opcode op = Opcode::Invalid;
  uint16_t ext_id = 0;             // Extension opcode id (only when op == Extension)
  DataType type = DataType::None;
  DataType type2 = DataType::None;
  StateSpace space = StateSpace::None;  // ld/st/atom/red/cvta/prefetch/isspacep
  bool cvta_to = false;            // cvta.to.<space> (generic -> space) vs cvta.<space>

  // guard predicate `@p` / `@!p`
  bool has_guard = false;
  bool guard_negated = false;
  uint32_t guard_reg = 0;

  // modifiers
  CmpOp cmp = CmpOp::None;
  BoolOp boolop = BoolOp::None;
  Rounding rounding = Rounding::None;
  MulMode mul = MulMode::None;
  AtomOp atom = AtomOp::None;
  ShflMode shfl = ShflMode::None;
  VoteMode vote = VoteMode::None;
  BarrierKind barrier = BarrierKind::None;
  MemScope scope = MemScope::None;
  MemOrder order = MemOrder::None;
  TestProp testp = TestProp::None;
  uint8_t vec = 1;                 // .v2/.v4 on ld/st (1 = scalar)
  bool sat = false, ftz = false, approx = false, full = false;
  bool cc = false;                 // .cc: writes/reads the carry flag
  bool uni = false;                // bra.uni / call.uni
  bool shift_clamp = false;        // shf.clamp (else .wrap)
  bool shift_left = false;         // shf.l (else .r)
  bool volatile_ = false;          // ld/st.volatile
  CacheOp cache_op = CacheOp::None;  // ld/st cache operator
  uint8_t prmt_mode = 0;           // prmt: 0 = default, else f4e,b4e,rc8,ecl,ecr,rc16 (1..6)
  uint8_t lop3_lut = 0;            // lop3 immediate truth table (also kept in operands)
  uint8_t bar_red_op = 0;          // bar.red: 1=popc, 2=and, 3=or

  // Operands in PTX order (destinations first). For setp with `p|q`, operands
  // are [p, q, a, b(, c)] and `dual_dst` is set; shfl.sync `d|p` likewise.
  std::vector<Operand> ops;
  bool dual_dst = false;

  // Filled by analysis: for a possibly divergent branch, the index of the
  // first instruction of its immediate post-dominator block, or
  // kNoReconvergence. Also the branch-target list of brx.idx.
  uint32_t reconverge_pc = kNoReconvergence;
  std::vector<uint32_t> targets;   // brx.idx: resolved targets

  SourceLoc loc;
  std::string text;                // the original instruction text (diagnostics, printing)
};

}  // namespace simtlm::ir
