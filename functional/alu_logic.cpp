// Data movement and logic: mov (scalar register/immediate copy), and, or, xor,
// not, cnot, lop3, shl, shr, shf, selp (PTX ISA "Logic and Shift Instructions",
// "Data Movement", "selp"). Predicate operands hold 0 or 1; on .pred the
// bitwise instructions are the logical ones.
#include "frontend/ir/types.h"
#include "functional/alu_detail.h"

namespace simtlm::functional::alu_detail {
namespace {

// Mask of a type of `bytes` bytes (1..8); predicates use mask 1.
template <unsigned Bytes>
inline constexpr uint64_t kBytesMask = Bytes >= 8 ? ~0ull : ((1ull << (8 * Bytes)) - 1);

template <uint64_t Mask>
struct MovOp {
  static uint64_t apply(uint64_t a) { return a & Mask; }
};
template <uint64_t Mask>
struct AndOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return a & b & Mask; }
};
template <uint64_t Mask>
struct OrOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return (a | b) & Mask; }
};
template <uint64_t Mask>
struct XorOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return (a ^ b) & Mask; }
};
template <uint64_t Mask>
struct NotOp {
  static uint64_t apply(uint64_t a) { return ~a & Mask; }
};
// cnot: d = (a == 0) ? 1 : 0
template <uint64_t Mask>
struct CnotOp {
  static uint64_t apply(uint64_t a) { return (a & Mask) == 0 ? 1 : 0; }
};
// selp: d = c ? a : b
template <uint64_t Mask>
struct SelpOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) { return ((c & 1) != 0 ? a : b) & Mask; }
};

// Returns Shape<Op<mask of t>>::run for a type of 1 (pred), 2, 4 or 8 bytes.
template <template <class> class Shape, template <uint64_t> class Op>
AluKernel sized(DataType t) {
  if (t == DataType::Pred) return &Shape<Op<1>>::run;
  switch (ir::type_size(t)) {
    case 1: return &Shape<Op<kBytesMask<1>>>::run;
    case 2: return &Shape<Op<kBytesMask<2>>>::run;
    case 4: return &Shape<Op<kBytesMask<4>>>::run;
    case 8: return &Shape<Op<kBytesMask<8>>>::run;
    default: return nullptr;
  }
}

// lop3.b32: the result bit for input bits (a, b, c) is bit (a<<2 | b<<1 | c)
// of the immediate truth table (so 0xF0 = a, 0xCC = b, 0xAA = c). Evaluated
// as a three-level multiplexer over c, b, a with the table bits expanded to
// all-zero/all-one masks once per instruction.
struct Lop3Kernel {
  static void run(const AluArgs& args) {
    uint64_t* d = args.dst[0];
    if (d == nullptr) return;
    const uint64_t* sa = args.src[0];
    const uint64_t* sb = args.src[1];
    const uint64_t* sc = args.src[2];
    const unsigned lut = args.inst->lop3_lut;
    uint64_t m[8];
    for (unsigned k = 0; k < 8; ++k) m[k] = ((lut >> k) & 1) != 0 ? ~0ull : 0;
    for_each_lane(args.mask, [&](unsigned i) {
      const uint64_t a = sa[i], b = sb[i], c = sc[i];
      const uint64_t h00 = (c & m[1]) | (~c & m[0]);
      const uint64_t h01 = (c & m[3]) | (~c & m[2]);
      const uint64_t h10 = (c & m[5]) | (~c & m[4]);
      const uint64_t h11 = (c & m[7]) | (~c & m[6]);
      const uint64_t g0 = (b & h01) | (~b & h00);
      const uint64_t g1 = (b & h11) | (~b & h10);
      d[i] = ((a & g1) | (~a & g0)) & 0xFFFFFFFFu;
    });
  }
};

// shl: amounts >= the width give 0.
template <class T>
struct ShlOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    const uint64_t n = b & 0xFFFFFFFFu;
    if (n >= Int<T>::kBits) return 0;
    return (a << n) & Int<T>::kMask;
  }
};
// shr: arithmetic for signed types (amounts >= width fill with the sign),
// logical otherwise (amounts >= width give 0).
template <class T>
struct ShrOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    uint64_t n = b & 0xFFFFFFFFu;
    if constexpr (Int<T>::kSigned) {
      if (n >= Int<T>::kBits) n = Int<T>::kBits - 1;
      using S = typename Int<T>::S;
      const int64_t v = static_cast<S>(Int<T>::get(a));
      return static_cast<uint64_t>(v >> n) & Int<T>::kMask;
    } else {
      if (n >= Int<T>::kBits) return 0;
      return (a & Int<T>::kMask) >> n;
    }
  }
};

// shf: funnel shift of the 64-bit value {b, a} by n = clamp ? min(c, 32) : c & 31;
// .l keeps the upper 32 bits, .r the lower 32 bits.
template <bool Left, bool Clamp>
struct ShfOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t c32 = c & 0xFFFFFFFFu;
    const unsigned n = Clamp ? static_cast<unsigned>(c32 < 32 ? c32 : 32)
                             : static_cast<unsigned>(c32 & 31);
    const uint64_t v = ((b & 0xFFFFFFFFu) << 32) | (a & 0xFFFFFFFFu);
    if (Left) return (v << n) >> 32;
    return (v >> n) & 0xFFFFFFFFu;
  }
};

bool is_logic_type(DataType t) {
  switch (t) {
    case DataType::Pred: case DataType::B16: case DataType::B32: case DataType::B64:
    case DataType::U16: case DataType::U32: case DataType::U64:
    case DataType::S16: case DataType::S32: case DataType::S64: return true;
    default: return false;
  }
}
bool is_shift_type(DataType t) { return is_logic_type(t) && t != DataType::Pred; }

}  // namespace

AluKernel select_logic(const Instruction& inst) {
  const DataType t = inst.type;
  switch (inst.op) {
    case Opcode::Mov:
      if (t == DataType::B128 || t == DataType::None) return nullptr;
      return sized<Unary, MovOp>(t);
    case Opcode::And: return is_logic_type(t) ? sized<Binary, AndOp>(t) : nullptr;
    case Opcode::Or: return is_logic_type(t) ? sized<Binary, OrOp>(t) : nullptr;
    case Opcode::Xor: return is_logic_type(t) ? sized<Binary, XorOp>(t) : nullptr;
    case Opcode::Not: return is_logic_type(t) ? sized<Unary, NotOp>(t) : nullptr;
    case Opcode::Cnot:
      if (t == DataType::Pred) return &Unary<NotOp<1>>::run;
      return is_logic_type(t) ? sized<Unary, CnotOp>(t) : nullptr;
    case Opcode::Lop3:
      return t == DataType::B32 ? &Lop3Kernel::run : nullptr;
    case Opcode::Shl: return is_shift_type(t) ? int_kernel<Binary, ShlOp>(t) : nullptr;
    case Opcode::Shr: return is_shift_type(t) ? int_kernel<Binary, ShrOp>(t) : nullptr;
    case Opcode::Shf: {
      if (t != DataType::B32) return nullptr;
      if (inst.shift_left) {
        return inst.shift_clamp ? &Ternary<ShfOp<true, true>>::run : &Ternary<ShfOp<true, false>>::run;
      }
      return inst.shift_clamp ? &Ternary<ShfOp<false, true>>::run : &Ternary<ShfOp<false, false>>::run;
    }
    case Opcode::Selp:
      if (t == DataType::Pred || t == DataType::B128 || t == DataType::None) return nullptr;
      return sized<Ternary, SelpOp>(t);
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
