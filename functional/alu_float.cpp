// f32/f64 arithmetic: add, sub, mul, mad, fma, div, abs, neg, min, max (PTX ISA
// "Floating-Point Instructions"). f32 is computed in float (the host is IEEE
// binary32 with SSE, so every operation is correctly rounded once); directed
// rounding modifiers run the lane loop under the matching host rounding mode.
// mad.f32 / mad.rnd.f{32,64} is a fused multiply-add (sm_20+ semantics).
#include <cmath>

#include "functional/alu_detail.h"
#include "functional/alu_fp.h"

namespace simtlm::functional::alu_detail {
namespace {

template <class FT, bool Ftz, bool Sat>
struct FAdd {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return out_fp<FT, Ftz, Sat>(in_fp<FT, Ftz>(a) + in_fp<FT, Ftz>(b));
  }
};
template <class FT, bool Ftz, bool Sat>
struct FSub {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return out_fp<FT, Ftz, Sat>(in_fp<FT, Ftz>(a) - in_fp<FT, Ftz>(b));
  }
};
template <class FT, bool Ftz, bool Sat>
struct FMul {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return out_fp<FT, Ftz, Sat>(in_fp<FT, Ftz>(a) * in_fp<FT, Ftz>(b));
  }
};
template <class FT, bool Ftz, bool Sat>
struct FFma {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return out_fp<FT, Ftz, Sat>(std::fma(in_fp<FT, Ftz>(a), in_fp<FT, Ftz>(b), in_fp<FT, Ftz>(c)));
  }
};
// fma.rn / mad without .ftz/.sat, the most frequent floating-point instruction:
// when the host CPU has FMA3 this variant (compiled for it, with explicit loops
// because lambdas would not inherit the target) does one vfmadd per lane
// instead of a libm call. Both are correctly rounded, so results are identical.
template <class FT>
__attribute__((target("fma"))) inline uint64_t fma_hw_lane(uint64_t a, uint64_t b, uint64_t c) {
  if constexpr (sizeof(FT) == 4) {
    return out_f32<false, false>(__builtin_fmaf(as_f32(a), as_f32(b), as_f32(c)));
  } else {
    return out_f64<false>(__builtin_fma(as_f64(a), as_f64(b), as_f64(c)));
  }
}
template <class FT>
struct FmaHw {
  __attribute__((target("fma"))) static void run(const AluArgs& args) {
    uint64_t* d = args.dst[0];
    if (d == nullptr) return;
    const uint64_t* x = args.src[0];
    const uint64_t* y = args.src[1];
    const uint64_t* z = args.src[2];
    uint64_t mask = args.mask;
    if ((mask & (mask + 1)) == 0) {
      const unsigned n = mask == ~0ull ? 64u : static_cast<unsigned>(__builtin_ctzll(~mask));
      for (unsigned i = 0; i < n; ++i) d[i] = fma_hw_lane<FT>(x[i], y[i], z[i]);
      return;
    }
    while (mask != 0) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(mask));
      d[i] = fma_hw_lane<FT>(x[i], y[i], z[i]);
      mask &= mask - 1;
    }
  }
};
bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}

// IEEE division (div.rn/rz/rm/rp, and div.full.f32 which is within its 2-ulp bound).
template <class FT, bool Ftz, bool Sat>
struct FDiv {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return out_fp<FT, Ftz, Sat>(in_fp<FT, Ftz>(a) / in_fp<FT, Ftz>(b));
  }
};
// div.approx.f32: d = a * (1/b); for 2^126 < |b| < 2^128 the reciprocal is 0
// (so the result is 0, or NaN when a is infinite), as the manual describes.
template <class FT, bool Ftz, bool Sat>
struct FDivApprox {
  static uint64_t apply(uint64_t a, uint64_t b) {
    const float x = in_f32<Ftz>(a);
    const float y = in_f32<Ftz>(b);
    float r = 1.0f / y;
    if (std::fabs(y) > 0x1p126f && std::isfinite(y)) r = std::copysign(0.0f, y);
    return out_f32<Ftz, Sat>(x * r);
  }
};

// abs/neg: sign-bit operations (NaN payloads are kept); .ftz flushes first.
template <class FT, bool Ftz, bool Sat>
struct FAbs {
  static uint64_t apply(uint64_t a) {
    return fp_bits(in_fp<FT, Ftz>(a)) & ~kSignBit<FT>;
  }
};
template <class FT, bool Ftz, bool Sat>
struct FNeg {
  static uint64_t apply(uint64_t a) { return fp_bits(in_fp<FT, Ftz>(a)) ^ kSignBit<FT>; }
};

// min/max: a NaN operand is ignored (both NaN -> canonical NaN); with .NaN any
// NaN operand gives the canonical NaN; -0.0 orders below +0.0. With .xorsign.abs
// the magnitudes are compared and the result takes sign(a) ^ sign(b).
template <class FT, bool IsMax, bool NaNMode, bool XorSign>
inline FT min_max(FT a, FT b) {
  FT x = a, y = b;
  if (XorSign) {
    x = std::fabs(a);
    y = std::fabs(b);
  }
  const bool xn = x != x, yn = y != y;
  FT r;
  if (xn || yn) {
    if (NaNMode || (xn && yn)) return x + y;  // a NaN; written canonical
    r = xn ? y : x;
  } else if (x == y) {
    // Only ±0 pairs differ here: min prefers -0, max prefers +0.
    r = (std::signbit(x) == IsMax) ? y : x;
  } else {
    r = IsMax ? (x > y ? x : y) : (x < y ? x : y);
  }
  if (XorSign) r = std::signbit(a) != std::signbit(b) ? -r : r;
  return r;
}
template <class FT, bool Ftz, bool IsMax, bool NaNMode, bool XorSign>
struct FMinMax {
  static uint64_t apply(uint64_t a, uint64_t b) {
    return out_fp<FT, Ftz, false>(
        min_max<FT, IsMax, NaNMode, XorSign>(in_fp<FT, Ftz>(a), in_fp<FT, Ftz>(b)));
  }
};

// Instantiates Shape<Op<FT, Ftz, Sat>> for the instruction's type and flags,
// under its rounding modifier when `rounded`. f64 takes neither .ftz nor .sat.
template <template <class, bool, bool> class Op, template <class> class Shape>
AluKernel float_kernel(const Instruction& inst, bool rounded) {
  const ir::Rounding r = rounded ? inst.rounding : ir::Rounding::None;
  if (inst.type == DataType::F32) {
    if (inst.ftz) {
      return inst.sat ? with_rounding<Shape<Op<float, true, true>>>(r)
                      : with_rounding<Shape<Op<float, true, false>>>(r);
    }
    return inst.sat ? with_rounding<Shape<Op<float, false, true>>>(r)
                    : with_rounding<Shape<Op<float, false, false>>>(r);
  }
  if (inst.type == DataType::F64) {
    if (inst.ftz || inst.sat) return nullptr;
    return with_rounding<Shape<Op<double, false, false>>>(r);
  }
  return nullptr;
}

template <bool IsMax, bool NaNMode, bool XorSign>
AluKernel min_max_kernel(const Instruction& inst) {
  if (inst.type == DataType::F32) {
    return inst.ftz ? &Binary<FMinMax<float, true, IsMax, NaNMode, XorSign>>::run
                    : &Binary<FMinMax<float, false, IsMax, NaNMode, XorSign>>::run;
  }
  if (inst.ftz || XorSign) return nullptr;
  return &Binary<FMinMax<double, false, IsMax, NaNMode, false>>::run;
}

template <bool IsMax>
AluKernel select_min_max(const Instruction& inst) {
  // The parser records .NaN as cmp == CmpOp::Nan; the text is checked as well.
  const bool nan_mode = inst.cmp == ir::CmpOp::Nan || has_modifier(inst, "NaN");
  const bool xorsign = has_modifier(inst, "xorsign");
  if (xorsign != has_modifier(inst, "abs")) return nullptr;
  if (nan_mode) {
    return xorsign ? min_max_kernel<IsMax, true, true>(inst) : min_max_kernel<IsMax, true, false>(inst);
  }
  return xorsign ? min_max_kernel<IsMax, false, true>(inst) : min_max_kernel<IsMax, false, false>(inst);
}

bool is_float_rounding(ir::Rounding r) { return fe_mode_of(r) >= 0; }

}  // namespace

AluKernel select_float(const Instruction& inst) {
  if (!is_float_rounding(inst.rounding)) return nullptr;
  switch (inst.op) {
    case Opcode::Add: return float_kernel<FAdd, Binary>(inst, true);
    case Opcode::Sub: return float_kernel<FSub, Binary>(inst, true);
    case Opcode::Mul:
      if (inst.mul != ir::MulMode::None) return nullptr;
      return float_kernel<FMul, Binary>(inst, true);
    case Opcode::Mad: case Opcode::Fma: {
      if (inst.mul != ir::MulMode::None) return nullptr;
      const bool rn = inst.rounding == ir::Rounding::None || inst.rounding == ir::Rounding::Rn;
      if (rn && !inst.ftz && !inst.sat && host_has_fma()) {
        if (inst.type == DataType::F32) return &FmaHw<float>::run;
        if (inst.type == DataType::F64) return &FmaHw<double>::run;
      }
      return float_kernel<FFma, Ternary>(inst, true);
    }
    case Opcode::Div:
      if (inst.approx) {
        if (inst.type != DataType::F32 || inst.rounding != ir::Rounding::None) return nullptr;
        return float_kernel<FDivApprox, Binary>(inst, false);
      }
      if (inst.full) {
        if (inst.type != DataType::F32 || inst.rounding != ir::Rounding::None) return nullptr;
        return float_kernel<FDiv, Binary>(inst, false);
      }
      return float_kernel<FDiv, Binary>(inst, true);
    case Opcode::Abs:
      if (inst.sat || inst.rounding != ir::Rounding::None) return nullptr;
      return float_kernel<FAbs, Unary>(inst, false);
    case Opcode::Neg:
      if (inst.sat || inst.rounding != ir::Rounding::None) return nullptr;
      return float_kernel<FNeg, Unary>(inst, false);
    case Opcode::Min: case Opcode::Max:
      if (inst.sat || inst.rounding != ir::Rounding::None) return nullptr;
      return inst.op == Opcode::Max ? select_min_max<true>(inst) : select_min_max<false>(inst);
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
