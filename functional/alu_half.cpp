// Half-precision arithmetic on .f16/.bf16 and the packed .f16x2/.bf16x2 forms:
// add, sub, mul, fma (mad), neg, abs, min, max, ex2.approx, tanh.approx (PTX ISA
// "Half Precision Floating-Point Instructions"). Results are correctly rounded
// (.rn): add/sub/mul are evaluated in binary32 where that provably rounds
// correctly, the rest in double precision (fma with round-to-odd, odd_fma) and
// rounded once to the 16-bit format. The packed forms apply the operation to
// the lower and upper 16-bit halves independently.
#include <cmath>

#include "functional/alu_detail.h"
#include "functional/alu_fp.h"

namespace simtlm::functional::alu_detail {
namespace {

// Format helpers; BF selects bf16, otherwise f16. .ftz exists for f16 only.
template <bool BF>
inline constexpr Fmt kHalf = BF ? kBF16 : kF16;

template <bool BF, bool Ftz>
inline double hin(uint32_t h) {
  if (Ftz) h = half_flush(h, kHalf<BF>);
  return BF ? bf16_to_f32(h) : f16_to_f32(h);
}
// Rounds v to the half format: .sat clamps to [0, 1] (NaN -> +0), .relu clamps
// negative values and -0 to +0 (NaN stays NaN), .ftz flushes subnormal results.
template <bool BF, bool Ftz, bool Sat, bool Relu>
inline uint32_t hout(double v) {
  if (Sat) v = saturate(v);
  if (Relu && v <= 0) v = 0.0;
  uint32_t h = static_cast<uint32_t>(double_to_narrow(v, kHalf<BF>, Rnd::Nearest));
  if (Ftz) h = half_flush(h, kHalf<BF>);
  return h;
}

// Float-evaluated form of hout for add/sub/mul: computing a sum or product of
// two halves in binary32 and rounding that to the half format is correctly
// rounded, because 24 >= 2*11 + 2 makes the double rounding innocuous
// (Figueroa), and bf16 sums are exact in binary32 even when subnormal.
template <bool BF, bool Ftz, bool Sat, bool Relu>
inline uint32_t hout_f(float v) {
  if (Sat) v = saturate(v);
  if (Relu && v <= 0) v = 0.0f;
  uint32_t h = BF ? f32_to_bf16_rn(v) : f32_to_f16_rn(v);
  if (Ftz) h = half_flush(h, kHalf<BF>);
  return h;
}
template <bool BF, bool Ftz>
inline float hin_f(uint32_t h) {
  if (Ftz) h = half_flush(h, kHalf<BF>);
  return BF ? bf16_to_f32(h) : f16_to_f32(h);
}

template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HAdd {
  static uint32_t op(uint32_t a, uint32_t b) {
    return hout_f<BF, Ftz, Sat, Relu>(hin_f<BF, Ftz>(a) + hin_f<BF, Ftz>(b));
  }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HSub {
  static uint32_t op(uint32_t a, uint32_t b) {
    return hout_f<BF, Ftz, Sat, Relu>(hin_f<BF, Ftz>(a) - hin_f<BF, Ftz>(b));
  }
};
// f16 products are exact in binary32; bf16 products can fall below the binary32
// normal range, so they are formed exactly in double and rounded once.
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HMul {
  static uint32_t op(uint32_t a, uint32_t b) {
    if constexpr (BF) {
      return hout<BF, Ftz, Sat, Relu>(hin<BF, Ftz>(a) * hin<BF, Ftz>(b));
    } else {
      return hout_f<BF, Ftz, Sat, Relu>(hin_f<BF, Ftz>(a) * hin_f<BF, Ftz>(b));
    }
  }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HFma {
  static uint32_t op(uint32_t a, uint32_t b, uint32_t c) {
    return hout<BF, Ftz, Sat, Relu>(odd_fma(hin<BF, Ftz>(a), hin<BF, Ftz>(b), hin<BF, Ftz>(c)));
  }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HNeg {
  static uint32_t op(uint32_t a) { return (Ftz ? half_flush(a, kHalf<BF>) : a) ^ 0x8000u; }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HAbs {
  static uint32_t op(uint32_t a) { return (Ftz ? half_flush(a, kHalf<BF>) : a) & 0x7FFFu; }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HEx2 {
  static uint32_t op(uint32_t a) {
    return hout<BF, Ftz, false, false>(std::exp2(static_cast<double>(hin<BF, Ftz>(a))));
  }
};
template <bool BF, bool Ftz, bool Sat, bool Relu>
struct HTanh {
  static uint32_t op(uint32_t a) {
    return hout<BF, Ftz, false, false>(std::tanh(static_cast<double>(hin<BF, Ftz>(a))));
  }
};

// min/max as for f32 (NaN ignored unless .NaN, -0 < +0), returning the chosen
// operand's bits; .relu then clamps a negative result to +0.
template <bool BF, bool Ftz, bool IsMax, bool NaNMode, bool Relu>
struct HMinMax {
  static uint32_t op(uint32_t a, uint32_t b) {
    if (Ftz) {
      a = half_flush(a, kHalf<BF>);
      b = half_flush(b, kHalf<BF>);
    }
    const bool an = half_is_nan(a, kHalf<BF>), bn = half_is_nan(b, kHalf<BF>);
    uint32_t r;
    if (an || bn) {
      if (NaNMode || (an && bn)) return kCanonicalNaN16;
      r = an ? b : a;
    } else {
      const double x = hin<BF, false>(a), y = hin<BF, false>(b);
      if (x == y) {
        r = (((a & 0x8000u) != 0) == IsMax) ? b : a;
      } else {
        r = IsMax ? (x > y ? a : b) : (x < y ? a : b);
      }
    }
    if (Relu && (r & 0x8000u) != 0) r = 0;
    return r;
  }
};

// Lane shapes: scalar halves use the low 16 bits, packed ones both halves.
template <class H, bool X2>
struct H1 {
  static uint64_t apply(uint64_t a) {
    const uint64_t lo = H::op(static_cast<uint32_t>(a) & 0xFFFFu);
    if (!X2) return lo;
    return lo | (static_cast<uint64_t>(H::op(static_cast<uint32_t>(a >> 16) & 0xFFFFu)) << 16);
  }
};
template <class H, bool X2>
struct H2 {
  static uint64_t apply(uint64_t a, uint64_t b) {
    const uint64_t lo = H::op(static_cast<uint32_t>(a) & 0xFFFFu, static_cast<uint32_t>(b) & 0xFFFFu);
    if (!X2) return lo;
    const uint64_t hi = H::op(static_cast<uint32_t>(a >> 16) & 0xFFFFu,
                              static_cast<uint32_t>(b >> 16) & 0xFFFFu);
    return lo | (hi << 16);
  }
};
template <class H, bool X2>
struct H3 {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t lo = H::op(static_cast<uint32_t>(a) & 0xFFFFu, static_cast<uint32_t>(b) & 0xFFFFu,
                              static_cast<uint32_t>(c) & 0xFFFFu);
    if (!X2) return lo;
    const uint64_t hi = H::op(static_cast<uint32_t>(a >> 16) & 0xFFFFu,
                              static_cast<uint32_t>(b >> 16) & 0xFFFFu,
                              static_cast<uint32_t>(c >> 16) & 0xFFFFu);
    return lo | (hi << 16);
  }
};

template <class H, bool X2> struct Shape1 { static void run(const AluArgs& a) { Unary<H1<H, X2>>::run(a); } };
template <class H, bool X2> struct Shape2 { static void run(const AluArgs& a) { Binary<H2<H, X2>>::run(a); } };
template <class H, bool X2> struct Shape3 { static void run(const AluArgs& a) { Ternary<H3<H, X2>>::run(a); } };

struct Flags {
  bool bf, x2, ftz, sat, relu;
};

// Instantiates Shape<Op<BF, Ftz, Sat, Relu>, X2> for the flags.
template <template <bool, bool, bool, bool> class Op, template <class, bool> class Shape, bool BF,
          bool X2, bool Ftz, bool Sat>
AluKernel make_relu(bool relu) {
  return relu ? &Shape<Op<BF, Ftz, Sat, true>, X2>::run : &Shape<Op<BF, Ftz, Sat, false>, X2>::run;
}
template <template <bool, bool, bool, bool> class Op, template <class, bool> class Shape, bool BF,
          bool X2, bool Ftz>
AluKernel make_sat(const Flags& f) {
  return f.sat ? make_relu<Op, Shape, BF, X2, Ftz, true>(f.relu)
               : make_relu<Op, Shape, BF, X2, Ftz, false>(f.relu);
}
template <template <bool, bool, bool, bool> class Op, template <class, bool> class Shape, bool BF,
          bool X2>
AluKernel make_ftz(const Flags& f) {
  if (BF && f.ftz) return nullptr;  // .ftz is defined for f16 only
  return f.ftz ? make_sat<Op, Shape, BF, X2, true>(f) : make_sat<Op, Shape, BF, X2, false>(f);
}
template <template <bool, bool, bool, bool> class Op, template <class, bool> class Shape>
AluKernel make(const Flags& f) {
  if (f.bf) return f.x2 ? make_ftz<Op, Shape, true, true>(f) : make_ftz<Op, Shape, true, false>(f);
  return f.x2 ? make_ftz<Op, Shape, false, true>(f) : make_ftz<Op, Shape, false, false>(f);
}

template <bool IsMax, bool NaNMode, bool Relu>
AluKernel min_max(const Flags& f) {
  if (f.bf) {
    if (f.ftz) return nullptr;
    return f.x2 ? &Shape2<HMinMax<true, false, IsMax, NaNMode, Relu>, true>::run
                : &Shape2<HMinMax<true, false, IsMax, NaNMode, Relu>, false>::run;
  }
  if (f.ftz) {
    return f.x2 ? &Shape2<HMinMax<false, true, IsMax, NaNMode, Relu>, true>::run
                : &Shape2<HMinMax<false, true, IsMax, NaNMode, Relu>, false>::run;
  }
  return f.x2 ? &Shape2<HMinMax<false, false, IsMax, NaNMode, Relu>, true>::run
              : &Shape2<HMinMax<false, false, IsMax, NaNMode, Relu>, false>::run;
}
template <bool IsMax>
AluKernel select_min_max(const Instruction& inst, const Flags& f) {
  if (f.sat || has_modifier(inst, "xorsign")) return nullptr;
  const bool nan_mode = inst.cmp == ir::CmpOp::Nan || has_modifier(inst, "NaN");
  if (nan_mode) return f.relu ? min_max<IsMax, true, true>(f) : min_max<IsMax, true, false>(f);
  return f.relu ? min_max<IsMax, false, true>(f) : min_max<IsMax, false, false>(f);
}

}  // namespace

AluKernel select_half(const Instruction& inst) {
  const DataType t = inst.type;
  Flags f{};
  f.bf = t == DataType::BF16 || t == DataType::BF16x2;
  f.x2 = t == DataType::F16x2 || t == DataType::BF16x2;
  f.ftz = inst.ftz;
  f.sat = inst.sat;
  f.relu = has_modifier(inst, "relu");
  const bool rn = inst.rounding == ir::Rounding::None || inst.rounding == ir::Rounding::Rn;
  if (!rn) return nullptr;
  switch (inst.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul:
      if (f.relu || inst.mul != ir::MulMode::None) return nullptr;
      if (inst.op == Opcode::Add) return make<HAdd, Shape2>(f);
      if (inst.op == Opcode::Sub) return make<HSub, Shape2>(f);
      return make<HMul, Shape2>(f);
    case Opcode::Fma: case Opcode::Mad:
      if (f.sat && f.relu) return nullptr;
      return make<HFma, Shape3>(f);
    case Opcode::Neg: case Opcode::Abs:
      if (f.sat || f.relu || inst.rounding != ir::Rounding::None) return nullptr;
      return inst.op == Opcode::Neg ? make<HNeg, Shape1>(f) : make<HAbs, Shape1>(f);
    case Opcode::Min: return select_min_max<false>(inst, f);
    case Opcode::Max: return select_min_max<true>(inst, f);
    case Opcode::Ex2: case Opcode::Tanh: {
      if (f.sat || f.relu || inst.rounding != ir::Rounding::None) return nullptr;
      // ex2.approx.f16 has no .ftz; ex2.approx.ftz.bf16 always flushes.
      Flags g = f;
      g.ftz = false;
      return inst.op == Opcode::Ex2 ? make<HEx2, Shape1>(g) : make<HTanh, Shape1>(g);
    }
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
