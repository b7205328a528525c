// Bit manipulation and packed integer products: popc, clz, bfind, brev, bfe,
// bfi, prmt, dp4a, dp2a (PTX ISA "Integer Arithmetic Instructions").
#include "functional/alu_detail.h"

namespace simtlm::functional::alu_detail {
namespace {

// Mask of the low n bits, n in 0..64.
inline uint64_t low_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

template <class T>
struct PopcOp {
  static uint64_t apply(uint64_t a) {
    return static_cast<uint64_t>(__builtin_popcountll(a & Int<T>::kMask));
  }
};

// clz(0) = operand width.
template <class T>
struct ClzOp {
  static uint64_t apply(uint64_t a) {
    const uint64_t v = a & Int<T>::kMask;
    if (v == 0) return Int<T>::kBits;
    return static_cast<uint64_t>(__builtin_clzll(v)) - (64 - Int<T>::kBits);
  }
};

// bfind: bit position of the most significant non-sign bit (for negative
// signed inputs: of the most significant 0), 0xFFFFFFFF if there is none;
// .shiftamt returns (msb - position) instead.
template <class T, bool ShiftAmt>
struct BfindOp {
  static uint64_t apply(uint64_t a) {
    constexpr unsigned kMsb = Int<T>::kBits - 1;
    uint64_t v = a & Int<T>::kMask;
    if (Int<T>::kSigned && ((v >> kMsb) & 1) != 0) v = ~v & Int<T>::kMask;
    if (v == 0) return 0xFFFFFFFFu;
    const unsigned pos = 63u - static_cast<unsigned>(__builtin_clzll(v));
    return ShiftAmt ? kMsb - pos : pos;
  }
};
template <class T> using BfindPos = BfindOp<T, false>;
template <class T> using BfindShift = BfindOp<T, true>;

template <class T>
struct BrevOp {
  static uint64_t apply(uint64_t a) {
    uint64_t v = a;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    v = __builtin_bswap64(v);
    return v >> (64 - Int<T>::kBits);
  }
};

// bfe: d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, with pos = b & 0xff,
// len = c & 0xff and sbit = 0 for unsigned types or len == 0, else
// a[min(pos+len-1, msb)].
template <class T>
struct BfeOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    constexpr unsigned kBits = Int<T>::kBits;
    const unsigned pos = static_cast<unsigned>(b & 0xFF);
    const unsigned len = static_cast<unsigned>(c & 0xFF);
    const uint64_t v = a & Int<T>::kMask;
    uint64_t sbit = 0;
    if (Int<T>::kSigned && len != 0) {
      const unsigned top = pos + len - 1 < kBits - 1 ? pos + len - 1 : kBits - 1;
      sbit = (v >> top) & 1;
    }
    const unsigned n = pos >= kBits ? 0 : (len < kBits - pos ? len : kBits - pos);
    uint64_t field = n == 0 ? 0 : (v >> pos) & low_mask(n);
    if (sbit != 0) field |= ~low_mask(n);
    return field & Int<T>::kMask;
  }
};

// bfi: f = b with bits [pos, pos+len) replaced by the low bits of a (clipped at msb).
template <class T>
struct BfiOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    constexpr unsigned kBits = Int<T>::kBits;
    const unsigned pos = static_cast<unsigned>(c & 0xFF);
    const unsigned len = static_cast<unsigned>(d & 0xFF);
    const unsigned n = pos >= kBits ? 0 : (len < kBits - pos ? len : kBits - pos);
    if (n == 0) return b & Int<T>::kMask;
    const uint64_t m = low_mask(n) << pos;
    return ((b & ~m) | ((a << pos) & m)) & Int<T>::kMask;
  }
};

// prmt default mode: four 4-bit selectors in c[15:0]; bit 3 of a selector
// replicates the sign of the selected byte.
struct PrmtOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t src = ((b & 0xFFFFFFFFu) << 32) | (a & 0xFFFFFFFFu);
    uint64_t d = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned sel = static_cast<unsigned>(c >> (4 * k)) & 0xF;
      uint64_t byte = (src >> ((sel & 7) * 8)) & 0xFF;
      if ((sel & 8) != 0) byte = (byte & 0x80) != 0 ? 0xFF : 0;
      d |= byte << (8 * k);
    }
    return d;
  }
};

// prmt modes .f4e .b4e .rc8 .ecl .ecr .rc16 (Instruction::prmt_mode 1..6):
// source byte index for d.b0..d.b3, selected by c[1:0].
constexpr uint8_t kPrmtModes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
};
template <int Mode>
struct PrmtModeOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t src = ((b & 0xFFFFFFFFu) << 32) | (a & 0xFFFFFFFFu);
    const uint8_t* idx = kPrmtModes[Mode - 1][c & 3];
    uint64_t d = 0;
    for (unsigned k = 0; k < 4; ++k) d |= ((src >> (idx[k] * 8)) & 0xFF) << (8 * k);
    return d;
  }
};

template <bool Signed>
inline int64_t byte_of(uint64_t v, unsigned k) {
  const uint8_t x = static_cast<uint8_t>(v >> (8 * k));
  return Signed ? static_cast<int64_t>(static_cast<int8_t>(x)) : static_cast<int64_t>(x);
}
template <bool Signed>
inline int64_t half_of(uint64_t v, unsigned k) {
  const uint16_t x = static_cast<uint16_t>(v >> (16 * k));
  return Signed ? static_cast<int64_t>(static_cast<int16_t>(x)) : static_cast<int64_t>(x);
}

// dp4a: d = c + sum of the four byte products (32-bit wrap-around).
template <bool SA, bool SB>
struct Dp4aOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    int64_t sum = 0;
    for (unsigned k = 0; k < 4; ++k) sum += byte_of<SA>(a, k) * byte_of<SB>(b, k);
    return (c + static_cast<uint64_t>(sum)) & 0xFFFFFFFFu;
  }
};
// dp2a: d = c + a.h0 * b.byte(2h) + a.h1 * b.byte(2h+1), h = 0 (.lo) or 1 (.hi).
template <bool SA, bool SB, bool Hi>
struct Dp2aOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const unsigned base = Hi ? 2 : 0;
    const int64_t sum = half_of<SA>(a, 0) * byte_of<SB>(b, base) +
                        half_of<SA>(a, 1) * byte_of<SB>(b, base + 1);
    return (c + static_cast<uint64_t>(sum)) & 0xFFFFFFFFu;
  }
};

bool is_32_or_64(DataType t, bool allow_signed, bool allow_unsigned, bool allow_bits) {
  switch (t) {
    case DataType::B32: case DataType::B64: return allow_bits;
    case DataType::U32: case DataType::U64: return allow_unsigned;
    case DataType::S32: case DataType::S64: return allow_signed;
    default: return false;
  }
}

// Signedness of a dp4a/dp2a operand type (u32/s32), or -1 when invalid.
int dp_sign(DataType t) {
  if (t == DataType::S32) return 1;
  if (t == DataType::U32) return 0;
  return -1;
}

template <template <bool, bool> class Op>
AluKernel dp_kernel(int sa, int sb) {
  if (sa) return sb ? &Ternary<Op<true, true>>::run : &Ternary<Op<true, false>>::run;
  return sb ? &Ternary<Op<false, true>>::run : &Ternary<Op<false, false>>::run;
}
template <bool SA, bool SB> using Dp2aLo = Dp2aOp<SA, SB, false>;
template <bool SA, bool SB> using Dp2aHi = Dp2aOp<SA, SB, true>;

}  // namespace

AluKernel select_bits(const Instruction& inst) {
  const DataType t = inst.type;
  switch (inst.op) {
    case Opcode::Popc:
      return is_32_or_64(t, true, true, true) ? int_kernel<Unary, PopcOp>(t) : nullptr;
    case Opcode::Clz:
      return is_32_or_64(t, true, true, true) ? int_kernel<Unary, ClzOp>(t) : nullptr;
    case Opcode::Brev:
      return is_32_or_64(t, true, true, true) ? int_kernel<Unary, BrevOp>(t) : nullptr;
    case Opcode::Bfind:
      if (!is_32_or_64(t, true, true, false)) return nullptr;
      // The parser records .shiftamt as shift_left; the text is checked as well.
      return inst.shift_left || has_modifier(inst, "shiftamt") ? int_kernel<Unary, BfindShift>(t)
                                            : int_kernel<Unary, BfindPos>(t);
    case Opcode::Bfe:
      return is_32_or_64(t, true, true, false) ? int_kernel<Ternary, BfeOp>(t) : nullptr;
    case Opcode::Bfi:
      return is_32_or_64(t, false, false, true) ? int_kernel<Quaternary, BfiOp>(t) : nullptr;
    case Opcode::Prmt:
      if (t != DataType::B32) return nullptr;
      switch (inst.prmt_mode) {
        case 0: return &Ternary<PrmtOp>::run;
        case 1: return &Ternary<PrmtModeOp<1>>::run;
        case 2: return &Ternary<PrmtModeOp<2>>::run;
        case 3: return &Ternary<PrmtModeOp<3>>::run;
        case 4: return &Ternary<PrmtModeOp<4>>::run;
        case 5: return &Ternary<PrmtModeOp<5>>::run;
        case 6: return &Ternary<PrmtModeOp<6>>::run;
        default: return nullptr;
      }
    case Opcode::Dp4a: case Opcode::Dp2a: {
      const int sa = dp_sign(t);
      const int sb = dp_sign(inst.type2 == DataType::None ? t : inst.type2);
      if (sa < 0 || sb < 0) return nullptr;
      if (inst.op == Opcode::Dp4a) return dp_kernel<Dp4aOp>(sa, sb);
      const bool hi = inst.mul == ir::MulMode::Hi || has_modifier(inst, "hi");
      return hi ? dp_kernel<Dp2aHi>(sa, sb) : dp_kernel<Dp2aLo>(sa, sb);
    }
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
