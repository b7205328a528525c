// Integer arithmetic: add, sub, mul/mad (.lo/.hi/.wide), mul24/mad24, sad,
// div, rem, abs, neg, min, max (PTX ISA "Integer Arithmetic Instructions").
// All arithmetic is done on unsigned 64/128-bit values so that wrap-around is
// defined; results are written zero-extended from the destination width.
#include <limits>

#include "functional/alu_detail.h"

namespace simtlm::functional::alu_detail {
namespace {

using I128 = __int128;
using U128 = unsigned __int128;

// Sign- or zero-extended value of the low Int<T>::kBits of raw.
template <class T>
inline int64_t sext(uint64_t raw) {
  return static_cast<int64_t>(static_cast<std::make_signed_t<T>>(Int<T>::get(raw)));
}
template <class T>
inline uint64_t zext(uint64_t raw) {
  return raw & Int<T>::kMask;
}
// Value of the operand as its PTX type, widened to 64 bits (as raw bits).
template <class T>
inline uint64_t widen(uint64_t raw) {
  if constexpr (Int<T>::kSigned) {
    return static_cast<uint64_t>(sext<T>(raw));
  } else {
    return zext<T>(raw);
  }
}
inline uint64_t clamp_s32(int64_t v) {
  if (v > std::numeric_limits<int32_t>::max()) v = std::numeric_limits<int32_t>::max();
  if (v < std::numeric_limits<int32_t>::min()) v = std::numeric_limits<int32_t>::min();
  return static_cast<uint32_t>(v);
}

// Full 2n-bit product of two n-bit operands of type T, as 128-bit two's complement.
template <class T>
inline U128 full_product(uint64_t a, uint64_t b) {
  if constexpr (Int<T>::kSigned) {
    return static_cast<U128>(static_cast<I128>(sext<T>(a)) * static_cast<I128>(sext<T>(b)));
  } else {
    return static_cast<U128>(zext<T>(a)) * static_cast<U128>(zext<T>(b));
  }
}
template <class T>
inline uint64_t product_hi(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(full_product<T>(a, b) >> Int<T>::kBits) & Int<T>::kMask;
}
// Mask of the .wide result (2n bits, at most 64).
template <class T>
inline constexpr uint64_t wide_mask() {
  return Int<T>::kBits >= 32 ? ~0ull : ((1ull << (2 * Int<T>::kBits)) - 1);
}

template <class T>
struct AddOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return (a + b) & Int<T>::kMask; }
};
template <class T>
struct SubOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return (a - b) & Int<T>::kMask; }
};
// add.sat.s32 / sub.sat.s32: clamp to [INT_MIN, INT_MAX].
template <class T>
struct AddSatOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return clamp_s32(sext<T>(a) + sext<T>(b)); }
};
template <class T>
struct SubSatOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return clamp_s32(sext<T>(a) - sext<T>(b)); }
};

template <class T>
struct MulLoOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return (a * b) & Int<T>::kMask; }
};
template <class T>
struct MulHiOp {
  static uint64_t apply(uint64_t a, uint64_t b) { return product_hi<T>(a, b); }
};
template <class T>
struct MulWideOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(full_product<T>(a, b)) & wide_mask<T>();
  }
};
template <class T>
struct MadLoOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (a * b + c) & Int<T>::kMask;
  }
};
template <class T>
struct MadHiOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (product_hi<T>(a, b) + c) & Int<T>::kMask;
  }
};
// mad.hi.sat.s32: the high half plus c, clamped to the s32 range.
template <class T>
struct MadHiSatOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return clamp_s32(sext<T>(product_hi<T>(a, b)) + sext<T>(c));
  }
};
template <class T>
struct MadWideOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (static_cast<uint64_t>(full_product<T>(a, b)) + c) & wide_mask<T>();
  }
};

// mul24/mad24: operands are the low 24 bits (sign-extended from bit 23 for
// .s32); t is the 48-bit product; .lo = t<31..0>, .hi = t<47..16>.
template <class T>
inline int64_t product24(uint64_t a, uint64_t b) {
  if constexpr (Int<T>::kSigned) {
    const int64_t x = static_cast<int32_t>(static_cast<uint32_t>(a) << 8) >> 8;
    const int64_t y = static_cast<int32_t>(static_cast<uint32_t>(b) << 8) >> 8;
    return x * y;
  } else {
    return static_cast<int64_t>((a & 0xFFFFFFu) * (b & 0xFFFFFFu));
  }
}
template <class T>
struct Mul24LoOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(product24<T>(a, b)) & 0xFFFFFFFFu;
  }
};
template <class T>
struct Mul24HiOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(product24<T>(a, b) >> 16) & 0xFFFFFFFFu;
  }
};
template <class T>
struct Mad24LoOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (static_cast<uint64_t>(product24<T>(a, b)) + c) & 0xFFFFFFFFu;
  }
};
template <class T>
struct Mad24HiOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (static_cast<uint64_t>(product24<T>(a, b) >> 16) + c) & 0xFFFFFFFFu;
  }
};
template <class T>
struct Mad24HiSatOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const int64_t hi = static_cast<int32_t>(static_cast<uint32_t>(product24<T>(a, b) >> 16));
    return clamp_s32(hi + sext<T>(c));
  }
};

// sad: d = c + |a - b|
template <class T>
struct SadOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t diff;
    if constexpr (Int<T>::kSigned) {
      const int64_t x = sext<T>(a), y = sext<T>(b);
      diff = x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
                   : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
    } else {
      const uint64_t x = zext<T>(a), y = zext<T>(b);
      diff = x > y ? x - y : y - x;
    }
    return (c + diff) & Int<T>::kMask;
  }
};

// div: PTX leaves division by zero unspecified; simtlm returns all ones
// (0xFF..F, i.e. -1 for signed types). INT_MIN / -1 wraps to INT_MIN.
template <class T>
struct DivOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    if constexpr (Int<T>::kSigned) {
      const int64_t x = sext<T>(a), y = sext<T>(b);
      if (y == 0) return Int<T>::kMask;
      if (y == -1) return (0 - static_cast<uint64_t>(x)) & Int<T>::kMask;
      return static_cast<uint64_t>(x / y) & Int<T>::kMask;
    } else {
      const uint64_t x = zext<T>(a), y = zext<T>(b);
      if (y == 0) return Int<T>::kMask;
      return x / y;
    }
  }
};
// rem: remainder with the sign of the dividend (C semantics). Remainder by
// zero is unspecified in PTX; simtlm returns the dividend a. INT_MIN % -1 = 0.
template <class T>
struct RemOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    if constexpr (Int<T>::kSigned) {
      const int64_t x = sext<T>(a), y = sext<T>(b);
      if (y == 0) return zext<T>(a);
      if (y == -1) return 0;
      return static_cast<uint64_t>(x % y) & Int<T>::kMask;
    } else {
      const uint64_t x = zext<T>(a), y = zext<T>(b);
      if (y == 0) return x;
      return x % y;
    }
  }
};

// abs/neg: two's complement, so abs(INT_MIN) = INT_MIN.
template <class T>
struct AbsOp {
  static uint64_t apply(uint64_t a) {
    const int64_t x = sext<T>(a);
    return (x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x)) & Int<T>::kMask;
  }
};
template <class T>
struct NegOp {
  static uint64_t apply(uint64_t a) { return (0 - a) & Int<T>::kMask; }
};

template <class T, bool IsMax, bool Relu>
struct MinMaxOp {
  static uint64_t apply(uint64_t a, uint64_t b) {
    if constexpr (Int<T>::kSigned) {
      const int64_t x = sext<T>(a), y = sext<T>(b);
      int64_t r = IsMax ? (x > y ? x : y) : (x < y ? x : y);
      if (Relu && r < 0) r = 0;
      return static_cast<uint64_t>(r) & Int<T>::kMask;
    } else {
      const uint64_t x = zext<T>(a), y = zext<T>(b);
      return IsMax ? (x > y ? x : y) : (x < y ? x : y);
    }
  }
};
template <class T> using MinOp = MinMaxOp<T, false, false>;
template <class T> using MaxOp = MinMaxOp<T, true, false>;
template <class T> using MinReluOp = MinMaxOp<T, false, true>;
template <class T> using MaxReluOp = MinMaxOp<T, true, true>;

bool is_16_or_32(DataType t) {
  return t == DataType::U16 || t == DataType::S16 || t == DataType::U32 || t == DataType::S32;
}

AluKernel select_mul(const Instruction& inst) {
  const DataType t = inst.type;
  if (!is_arith_int(t) || inst.sat) return nullptr;
  switch (inst.mul) {
    case ir::MulMode::None: case ir::MulMode::Lo: return int_kernel<Binary, MulLoOp>(t);
    case ir::MulMode::Hi: return int_kernel<Binary, MulHiOp>(t);
    case ir::MulMode::Wide:
      return is_16_or_32(t) ? int_kernel<Binary, MulWideOp>(t) : nullptr;
  }
  return nullptr;
}

AluKernel select_mad(const Instruction& inst) {
  const DataType t = inst.type;
  if (!is_arith_int(t)) return nullptr;
  if (inst.sat) {
    const bool ok = t == DataType::S32 && inst.mul == ir::MulMode::Hi;
    return ok ? &Ternary<MadHiSatOp<int32_t>>::run : nullptr;
  }
  switch (inst.mul) {
    case ir::MulMode::None: case ir::MulMode::Lo: return int_kernel<Ternary, MadLoOp>(t);
    case ir::MulMode::Hi: return int_kernel<Ternary, MadHiOp>(t);
    case ir::MulMode::Wide:
      return is_16_or_32(t) ? int_kernel<Ternary, MadWideOp>(t) : nullptr;
  }
  return nullptr;
}

AluKernel select_24(const Instruction& inst) {
  const DataType t = inst.type;
  if (t != DataType::U32 && t != DataType::S32) return nullptr;
  const bool hi = inst.mul == ir::MulMode::Hi;
  if (inst.mul == ir::MulMode::Wide) return nullptr;
  if (inst.op == Opcode::Mul24) {
    if (inst.sat) return nullptr;
    return hi ? int_kernel<Binary, Mul24HiOp>(t) : int_kernel<Binary, Mul24LoOp>(t);
  }
  if (inst.sat) {
    return (hi && t == DataType::S32) ? &Ternary<Mad24HiSatOp<int32_t>>::run : nullptr;
  }
  return hi ? int_kernel<Ternary, Mad24HiOp>(t) : int_kernel<Ternary, Mad24LoOp>(t);
}

}  // namespace

AluKernel select_int_arith(const Instruction& inst) {
  const DataType t = inst.type;
  switch (inst.op) {
    case Opcode::Add: case Opcode::Sub: {
      if (!is_arith_int(t)) return nullptr;
      const bool add = inst.op == Opcode::Add;
      if (inst.sat) {
        if (t != DataType::S32) return nullptr;
        return add ? &Binary<AddSatOp<int32_t>>::run : &Binary<SubSatOp<int32_t>>::run;
      }
      return add ? int_kernel<Binary, AddOp>(t) : int_kernel<Binary, SubOp>(t);
    }
    case Opcode::Mul: return select_mul(inst);
    case Opcode::Mad: return select_mad(inst);
    case Opcode::Mul24: case Opcode::Mad24: return select_24(inst);
    case Opcode::Sad: return is_arith_int(t) ? int_kernel<Ternary, SadOp>(t) : nullptr;
    case Opcode::Div: return is_arith_int(t) ? int_kernel<Binary, DivOp>(t) : nullptr;
    case Opcode::Rem: return is_arith_int(t) ? int_kernel<Binary, RemOp>(t) : nullptr;
    case Opcode::Abs:
      return is_arith_int(t) && is_signed_int(t) ? int_kernel<Unary, AbsOp>(t) : nullptr;
    case Opcode::Neg:
      return is_arith_int(t) && is_signed_int(t) ? int_kernel<Unary, NegOp>(t) : nullptr;
    case Opcode::Min: case Opcode::Max: {
      if (!is_arith_int(t)) return nullptr;
      const bool max = inst.op == Opcode::Max;
      if (has_modifier(inst, "relu")) {
        if (t != DataType::S32) return nullptr;
        return max ? &Binary<MaxReluOp<int32_t>>::run : &Binary<MinReluOp<int32_t>>::run;
      }
      return max ? int_kernel<Binary, MaxOp>(t) : int_kernel<Binary, MinOp>(t);
    }
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
