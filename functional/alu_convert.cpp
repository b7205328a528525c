// cvt: conversions between integer and floating-point types (PTX ISA "cvt").
//
//  - int -> int: the source is sign- or zero-extended according to its own
//    type, then truncated to the destination width, or with .sat clamped to the
//    destination range. Signed 8-bit results are written sign-extended to 64
//    bits (no 8-bit registers exist, so the destination register is always
//    wider than .s8 and PTX extends a signed result to the register width).
//  - int -> float: correctly rounded with .rn (default), .rz, .rm, .rp.
//  - float -> int: requires .rni/.rzi/.rmi/.rpi; the rounded value saturates to
//    the destination range and NaN converts to 0 (with or without .sat).
//  - float -> float: widening is exact; narrowing requires .rn/.rz/.rm/.rp and is
//    correctly rounded (bit-exact f16/bf16 including subnormals and overflow);
//    .rni/.rzi/.rmi/.rpi round to an integral value in the destination format.
//    .ftz flushes f32 subnormal inputs/results, .sat clamps to [0, 1] (NaN -> 0),
//    .relu (f16/bf16 results) clamps negative values to +0, .satfinite clamps
//    infinities/overflow to the largest finite value. NaN results are canonical.
//  - cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b packs cvt(a) into the
//    upper and cvt(b) into the lower half of d.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "functional/alu_detail.h"
#include "functional/alu_fp.h"

namespace simtlm::functional::alu_detail {
namespace {

using I128 = __int128;

enum class FK : uint8_t { F16, BF16, F32, F64 };  // float kinds

bool float_kind(DataType t, FK& k) {
  switch (t) {
    case DataType::F16: k = FK::F16; return true;
    case DataType::BF16: k = FK::BF16; return true;
    case DataType::F32: k = FK::F32; return true;
    case DataType::F64: k = FK::F64; return true;
    default: return false;
  }
}
int float_bits(FK k) { return k == FK::F64 ? 64 : (k == FK::F32 ? 32 : 16); }

bool is_int_rounding(ir::Rounding r) {
  return r == ir::Rounding::Rni || r == ir::Rounding::Rzi || r == ir::Rounding::Rmi ||
         r == ir::Rounding::Rpi;
}
bool is_float_rnd(ir::Rounding r) {
  return r == ir::Rounding::Rn || r == ir::Rounding::Rz || r == ir::Rounding::Rm ||
         r == ir::Rounding::Rp;
}

// Exact value of a float-kind operand; .ftz applies to f32 sources.
template <FK K>
inline double read_float(uint64_t raw, bool ftz) {
  if constexpr (K == FK::F16) {
    return f16_to_f32(raw);
  } else if constexpr (K == FK::BF16) {
    return bf16_to_f32(raw);
  } else if constexpr (K == FK::F32) {
    const float x = as_f32(raw);
    return ftz ? flush_f32(x) : x;
  } else {
    return as_f64(raw);
  }
}

// Integer-valued rounding of a double, exact and without libm calls. Values
// with |x| >= 2^52 (and NaN, infinities) are already integral. The nearest-even
// case adds and subtracts 2^52, which rounds under the host's default
// round-to-nearest mode (cvt kernels never run inside a RoundingScope).
inline double round_integral(double x, Rnd m) {
  const double ax = std::fabs(x);
  if (!(ax < 0x1p52)) return x;
  double t;
  switch (m) {
    case Rnd::Zero:
      t = static_cast<double>(static_cast<int64_t>(x));
      break;
    case Rnd::Down:
      t = static_cast<double>(static_cast<int64_t>(x));
      if (t > x) t -= 1.0;
      break;
    case Rnd::Up:
      t = static_cast<double>(static_cast<int64_t>(x));
      if (t < x) t += 1.0;
      break;
    default:
      t = (ax + 0x1p52) - 0x1p52;
      break;
  }
  return std::copysign(t, x);  // keeps the sign of zero results (-0.5 -> -0.0)
}

// An integer type's register value widened to 64 bits (sign- or zero-extended)
// and the register value of a (wrapped) result. .s8 results are written
// sign-extended to 64 bits: 8-bit values always live in wider registers and PTX
// extends a signed result to the register width.
template <class T>
struct IntT {
  using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  static W get(uint64_t raw) { return static_cast<W>(Int<T>::get(raw)); }
  static uint64_t put(uint64_t v) {
    if constexpr (std::is_same_v<T, int8_t>) {
      return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(v)));
    } else {
      return v & Int<T>::kMask;
    }
  }
  static constexpr I128 kMin = std::numeric_limits<T>::min();
  static constexpr I128 kMax = std::numeric_limits<T>::max();
};

// Calls F::template make<T>() with the integer type T of `t` for two nested
// type dispatches (destination, then source).
template <template <class, class> class Make2>
struct OuterMaker {
  DataType inner;
  template <class D>
  AluKernel make() const {
    return dispatch_int(inner, Make2<D, void>{});
  }
};

// ---- int -> int ----------------------------------------------------------
template <class D, class S, bool Sat>
struct CvtIntIntOp {
  static uint64_t apply(uint64_t raw) {
    const auto v = IntT<S>::get(raw);
    if constexpr (Sat) {
      I128 w = v;
      w = w < IntT<D>::kMin ? IntT<D>::kMin : (w > IntT<D>::kMax ? IntT<D>::kMax : w);
      return IntT<D>::put(static_cast<uint64_t>(w));
    } else {
      return IntT<D>::put(static_cast<uint64_t>(v));
    }
  }
};
template <bool Sat>
struct IntIntMake {
  template <class D, class>
  struct Inner {
    template <class S>
    AluKernel make() const {
      return &Unary<CvtIntIntOp<D, S, Sat>>::run;
    }
  };
};

// ---- int -> float --------------------------------------------------------
template <FK D, bool Sat, class S>
struct CvtIntFloat {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s = a.src[0];
    const Rnd m = rnd_of(a.inst->rounding);
    constexpr uint64_t kOne = D == FK::F64 ? 0x3FF0000000000000ull
                                           : (D == FK::F32 ? 0x3F800000u : (D == FK::F16 ? 0x3C00u : 0x3F80u));
    for_each_lane(a.mask, [&](unsigned i) {
      const auto v = IntT<S>::get(s[i]);
      if (Sat && v <= 0) {
        d[i] = 0;
      } else if (Sat && v >= 1) {
        d[i] = kOne;
      } else if (D == FK::F32 && m == Rnd::Nearest) {
        d[i] = f32_bits(static_cast<float>(v));  // host conversion: correctly rounded
      } else if (D == FK::F64 && m == Rnd::Nearest) {
        d[i] = f64_bits(static_cast<double>(v));
      } else {
        const bool neg = v < 0;
        const uint64_t mag = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
        if constexpr (D == FK::F64) {
          d[i] = f64_bits(int_to_f64(neg, mag, m));
        } else {
          constexpr Fmt f = D == FK::F32 ? kF32 : (D == FK::F16 ? kF16 : kBF16);
          d[i] = int_to_narrow(neg, mag, f, m);
        }
      }
    });
  }
};
template <FK D, bool Sat>
struct IntFloatMake {
  template <class S>
  AluKernel make() const {
    return &CvtIntFloat<D, Sat, S>::run;
  }
};

// ---- float -> int --------------------------------------------------------
// Rounds to an integer (.rni/.rzi/.rmi/.rpi), then saturates to the range of D;
// NaN gives 0.
// .rzi needs no rounding step: the range checks below see the unrounded value
// (equivalent at both ends) and the conversion instruction truncates.
template <FK S, class D, bool Rzi>
struct CvtFloatInt {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s = a.src[0];
    const Rnd m = rnd_of(a.inst->rounding);
    const bool ftz = a.inst->ftz;
    constexpr double kHiExcl = static_cast<double>(IntT<D>::kMax) + 1.0;  // a power of two
    constexpr double kLo = static_cast<double>(IntT<D>::kMin);
    for_each_lane(a.mask, [&](unsigned i) {
      const double x = read_float<S>(s[i], ftz);
      const double r = Rzi ? x : round_integral(x, m);
      uint64_t v;
      if (r != r) {
        v = 0;
      } else if (r >= kHiExcl) {
        v = static_cast<uint64_t>(IntT<D>::kMax);
      } else if (r <= kLo) {
        v = static_cast<uint64_t>(IntT<D>::kMin);
      } else if constexpr (std::is_signed_v<D>) {
        v = static_cast<uint64_t>(static_cast<int64_t>(r));
      } else {
        v = static_cast<uint64_t>(r);
      }
      d[i] = IntT<D>::put(v);
    });
  }
};
template <FK S, bool Rzi>
struct FloatIntMake {
  template <class D>
  AluKernel make() const {
    return &CvtFloatInt<S, D, Rzi>::run;
  }
};

// ---- float -> float ------------------------------------------------------
struct FloatOpts {
  Rnd m;
  bool integral;   // .rni/.rzi/.rmi/.rpi
  bool ftz_in, ftz_out, sat, relu, satfinite;
};

template <FK D>
inline uint64_t encode_float(double v, const FloatOpts& o) {
  if (o.sat) v = saturate(v);
  if (o.relu && v <= 0) v = 0.0;  // NaN stays NaN
  uint64_t r;
  if constexpr (D == FK::F64) {
    r = v != v ? kCanonicalNaN64 : f64_bits(v);
  } else {
    constexpr Fmt f = D == FK::F32 ? kF32 : (D == FK::F16 ? kF16 : kBF16);
    r = double_to_narrow(v, f, o.integral ? Rnd::Nearest : o.m);
    if (D == FK::F32 && o.ftz_out) r = f32_bits(flush_f32(as_f32(r)));
  }
  if (o.satfinite) {
    constexpr int kBits = D == FK::F64 ? 64 : (D == FK::F32 ? 32 : 16);
    constexpr int kMbits = D == FK::F64 ? 52 : (D == FK::F32 ? 23 : (D == FK::F16 ? 10 : 7));
    constexpr uint64_t kSign = 1ull << (kBits - 1);
    constexpr uint64_t kInf = (kSign - 1) & ~((1ull << kMbits) - 1);
    if ((r & ~kSign) == kInf) r = (r & kSign) | (kInf - 1);
  }
  return r;
}

template <FK S, FK D, bool Relu, bool SatFinite>
struct CvtFloatFloat {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s = a.src[0];
    const ir::Instruction& inst = *a.inst;
    FloatOpts o{};
    o.m = rnd_of(inst.rounding);
    o.integral = is_int_rounding(inst.rounding);
    o.ftz_in = inst.ftz && S == FK::F32;
    o.ftz_out = inst.ftz && D == FK::F32;
    o.sat = inst.sat;
    o.relu = Relu;
    o.satfinite = SatFinite;
    for_each_lane(a.mask, [&](unsigned i) {
      double v = read_float<S>(s[i], o.ftz_in);
      if (o.integral) v = round_integral(v, o.m);
      d[i] = encode_float<D>(v, o);
    });
  }
};

// cvt.rn{.ftz}.{f16,bf16}.f32 without .relu/.satfinite/.sat: bit-level rounding.
template <FK D, bool Ftz>
struct CvtF32HalfRn {
  static uint64_t apply(uint64_t a) {
    float x = as_f32(a);
    if (Ftz) x = flush_f32(x);
    return D == FK::F16 ? f32_to_f16_rn(x) : f32_to_bf16_rn(x);
  }
};

// Plain f32 <-> f64 without modifiers (the common case): host conversions,
// which are exact (widening) or round-to-nearest-even (narrowing).
struct CvtF32F64 {
  static uint64_t apply(uint64_t a) { return out_f64<false>(static_cast<double>(as_f32(a))); }
};
struct CvtF64F32Rn {
  static uint64_t apply(uint64_t a) { return out_f32<false, false>(static_cast<float>(as_f64(a))); }
};

// cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: d = {cvt(a), cvt(b)} (a in the upper half).
template <FK D, bool Relu, bool SatFinite>
struct CvtPackF32 {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* sa = a.src[0];
    const uint64_t* sb = a.src[1];
    const ir::Instruction& inst = *a.inst;
    FloatOpts o{};
    o.m = rnd_of(inst.rounding);
    o.relu = Relu;
    o.satfinite = SatFinite;
    for_each_lane(a.mask, [&](unsigned i) {
      const uint64_t hi = encode_float<D>(as_f32(sa[i]), o);
      const uint64_t lo = encode_float<D>(as_f32(sb[i]), o);
      d[i] = (hi << 16) | lo;
    });
  }
};

// .relu and .satfinite are template parameters (they have no IR field and are
// read from the instruction text once, at selection).
template <template <FK, bool, bool> class K, FK D>
AluKernel with_half_mods(bool relu, bool satfinite) {
  if (relu) return satfinite ? &K<D, true, true>::run : &K<D, true, false>::run;
  return satfinite ? &K<D, false, true>::run : &K<D, false, false>::run;
}
template <FK S>
struct FromSrc {
  template <FK D, bool Relu, bool SatFinite>
  using K = CvtFloatFloat<S, D, Relu, SatFinite>;
};

template <FK S>
AluKernel float_float_for_src(FK dk, bool relu, bool satfinite) {
  switch (dk) {
    case FK::F16: return with_half_mods<FromSrc<S>::template K, FK::F16>(relu, satfinite);
    case FK::BF16: return with_half_mods<FromSrc<S>::template K, FK::BF16>(relu, satfinite);
    case FK::F32:
      return relu || satfinite ? nullptr : &CvtFloatFloat<S, FK::F32, false, false>::run;
    case FK::F64:
      return relu || satfinite ? nullptr : &CvtFloatFloat<S, FK::F64, false, false>::run;
  }
  return nullptr;
}

AluKernel select_float_float(const Instruction& inst, FK dk, FK sk) {
  const ir::Rounding r = inst.rounding;
  const bool narrowing = float_bits(dk) < float_bits(sk) ||
                         (float_bits(dk) == 16 && float_bits(sk) == 16 && dk != sk);
  if (r == ir::Rounding::Rna) return nullptr;
  if (narrowing && !is_float_rnd(r) && !is_int_rounding(r)) return nullptr;
  const bool relu = has_modifier(inst, "relu");
  const bool satfinite = has_modifier(inst, "satfinite");
  const bool plain = !inst.ftz && !inst.sat && !relu && !satfinite;
  if (plain && dk == FK::F64 && sk == FK::F32 && r == ir::Rounding::None) {
    return &Unary<CvtF32F64>::run;
  }
  if (plain && dk == FK::F32 && sk == FK::F64 && r == ir::Rounding::Rn) {
    return &Unary<CvtF64F32Rn>::run;
  }
  const bool plain_but_ftz = !inst.sat && !relu && !satfinite;
  if (plain_but_ftz && sk == FK::F32 && r == ir::Rounding::Rn) {
    if (dk == FK::F16) return inst.ftz ? &Unary<CvtF32HalfRn<FK::F16, true>>::run
                                       : &Unary<CvtF32HalfRn<FK::F16, false>>::run;
    if (dk == FK::BF16) return inst.ftz ? &Unary<CvtF32HalfRn<FK::BF16, true>>::run
                                        : &Unary<CvtF32HalfRn<FK::BF16, false>>::run;
  }
  switch (sk) {
    case FK::F16: return float_float_for_src<FK::F16>(dk, relu, satfinite);
    case FK::BF16: return float_float_for_src<FK::BF16>(dk, relu, satfinite);
    case FK::F32: return float_float_for_src<FK::F32>(dk, relu, satfinite);
    case FK::F64: return float_float_for_src<FK::F64>(dk, relu, satfinite);
  }
  return nullptr;
}

template <bool Sat>
AluKernel int_float_for_sat(FK dk, DataType st) {
  switch (dk) {
    case FK::F16: return dispatch_int(st, IntFloatMake<FK::F16, Sat>{});
    case FK::BF16: return dispatch_int(st, IntFloatMake<FK::BF16, Sat>{});
    case FK::F32: return dispatch_int(st, IntFloatMake<FK::F32, Sat>{});
    case FK::F64: return dispatch_int(st, IntFloatMake<FK::F64, Sat>{});
  }
  return nullptr;
}

template <bool Rzi>
AluKernel float_int_kernel(FK sk, DataType dt) {
  switch (sk) {
    case FK::F16: return dispatch_int(dt, FloatIntMake<FK::F16, Rzi>{});
    case FK::BF16: return dispatch_int(dt, FloatIntMake<FK::BF16, Rzi>{});
    case FK::F32: return dispatch_int(dt, FloatIntMake<FK::F32, Rzi>{});
    case FK::F64: return dispatch_int(dt, FloatIntMake<FK::F64, Rzi>{});
  }
  return nullptr;
}
AluKernel select_float_int(FK sk, DataType dt, ir::Rounding r) {
  return r == ir::Rounding::Rzi ? float_int_kernel<true>(sk, dt) : float_int_kernel<false>(sk, dt);
}

}  // namespace

AluKernel select_convert(const Instruction& inst) {
  const DataType dt = inst.type;
  const DataType st = inst.type2;
  const ir::Rounding r = inst.rounding;
  FK dk{}, sk{};
  const bool d_int = int_bits(dt) != 0;
  const bool s_int = int_bits(st) != 0;
  const bool d_float = float_kind(dt, dk);
  const bool s_float = float_kind(st, sk);

  if (dt == DataType::F16x2 || dt == DataType::BF16x2) {
    if (st != DataType::F32 || !is_float_rnd(r) || inst.sat || inst.ftz) return nullptr;
    const bool relu = has_modifier(inst, "relu");
    const bool satfinite = has_modifier(inst, "satfinite");
    return dt == DataType::F16x2 ? with_half_mods<CvtPackF32, FK::F16>(relu, satfinite)
                                 : with_half_mods<CvtPackF32, FK::BF16>(relu, satfinite);
  }
  if (d_int && s_int) {
    if (r != ir::Rounding::None || inst.ftz) return nullptr;
    return inst.sat ? dispatch_int(dt, OuterMaker<IntIntMake<true>::Inner>{st})
                    : dispatch_int(dt, OuterMaker<IntIntMake<false>::Inner>{st});
  }
  if (d_float && s_int) {
    // .ftz is accepted for .f32 destinations and has no effect (no subnormal results).
    if (!(r == ir::Rounding::None || is_float_rnd(r))) return nullptr;
    if (inst.ftz && dk != FK::F32) return nullptr;
    return inst.sat ? int_float_for_sat<true>(dk, st) : int_float_for_sat<false>(dk, st);
  }
  if (d_int && s_float) {
    if (!is_int_rounding(r)) return nullptr;
    return select_float_int(sk, dt, r);
  }
  if (d_float && s_float) return select_float_float(inst, dk, sk);
  return nullptr;
}

}  // namespace simtlm::functional::alu_detail
