// f32/f64 special functions and classification: rcp, sqrt, rsqrt, ex2, lg2,
// sin, cos, tanh, testp, copysign.
//
// Accuracy: the IEEE forms (.rn/.rz/.rm/.rp) are correctly rounded. The .approx
// forms are computed with the C++ standard library (correctly rounded 1/x and
// sqrt; exp2f, log2f, sinf, cosf, tanhf from glibc, which are within 1 ulp),
// i.e. at least as accurate as the bounds the PTX manual gives for the GPU's
// approximations, and special values (±0, ±Inf, NaN, negative inputs) follow the
// manual's tables. rsqrt.approx is computed in double and rounded once.
#include <cmath>

#include "functional/alu_detail.h"
#include "functional/alu_fp.h"

namespace simtlm::functional::alu_detail {
namespace {

template <class FT, bool Ftz>
struct Rcp {
  static uint64_t apply(uint64_t a) { return out_fp<FT, Ftz, false>(FT(1) / in_fp<FT, Ftz>(a)); }
};
// rcp.approx.ftz.f64: subnormal input and result flushed to sign-preserving zero.
struct RcpApproxFtzF64 {
  static uint64_t apply(uint64_t a) {
    return out_f64<false>(flush_f64(1.0 / flush_f64(as_f64(a))));
  }
};
template <class FT, bool Ftz>
struct Sqrt {
  static uint64_t apply(uint64_t a) { return out_fp<FT, Ftz, false>(std::sqrt(in_fp<FT, Ftz>(a))); }
};
// rsqrt(+0) = +Inf, rsqrt(-0) = -Inf, rsqrt(negative) = NaN, rsqrt(+Inf) = +0.
template <bool Ftz>
struct RsqrtF32 {
  static uint64_t apply(uint64_t a) {
    const double x = in_f32<Ftz>(a);
    return out_f32<Ftz, false>(static_cast<float>(1.0 / std::sqrt(x)));
  }
};
template <bool Ftz>
struct RsqrtF64 {
  static uint64_t apply(uint64_t a) {
    double x = as_f64(a);
    if (Ftz) x = flush_f64(x);
    double r = 1.0 / std::sqrt(x);
    if (Ftz) r = flush_f64(r);
    return out_f64<false>(r);
  }
};
template <bool Ftz>
struct Ex2 {
  static uint64_t apply(uint64_t a) { return out_f32<Ftz, false>(std::exp2(in_f32<Ftz>(a))); }
};
template <bool Ftz>
struct Lg2 {
  static uint64_t apply(uint64_t a) { return out_f32<Ftz, false>(std::log2(in_f32<Ftz>(a))); }
};
template <bool Ftz>
struct Sin {
  static uint64_t apply(uint64_t a) { return out_f32<Ftz, false>(std::sin(in_f32<Ftz>(a))); }
};
template <bool Ftz>
struct Cos {
  static uint64_t apply(uint64_t a) { return out_f32<Ftz, false>(std::cos(in_f32<Ftz>(a))); }
};
template <bool Ftz>
struct Tanh {
  static uint64_t apply(uint64_t a) { return out_f32<Ftz, false>(std::tanh(in_f32<Ftz>(a))); }
};

// copysign d, a, b: b with the sign bit of a.
template <class FT>
struct Copysign {
  static uint64_t apply(uint64_t a, uint64_t b) {
    constexpr uint64_t kSign = kSignBit<FT>;
    constexpr uint64_t kMask = kSign | (kSign - 1);
    return ((b & ~kSign) | (a & kSign)) & kMask;
  }
};

// testp: ±0 counts as normal (not subnormal), per the manual.
template <class FT, ir::TestProp P>
struct Testp {
  static uint64_t apply(uint64_t a) {
    const FT x = in_fp<FT, false>(a);
    const int c = std::fpclassify(x);
    bool r = false;
    switch (P) {
      case ir::TestProp::Finite: r = c != FP_INFINITE && c != FP_NAN; break;
      case ir::TestProp::Infinite: r = c == FP_INFINITE; break;
      case ir::TestProp::Number: r = c != FP_NAN; break;
      case ir::TestProp::NotANumber: r = c == FP_NAN; break;
      case ir::TestProp::Normal: r = c == FP_NORMAL || c == FP_ZERO; break;
      case ir::TestProp::Subnormal: r = c == FP_SUBNORMAL; break;
      default: break;
    }
    return r ? 1 : 0;
  }
};

template <class FT>
AluKernel testp_kernel(ir::TestProp p) {
  switch (p) {
    case ir::TestProp::Finite: return &Unary<Testp<FT, ir::TestProp::Finite>>::run;
    case ir::TestProp::Infinite: return &Unary<Testp<FT, ir::TestProp::Infinite>>::run;
    case ir::TestProp::Number: return &Unary<Testp<FT, ir::TestProp::Number>>::run;
    case ir::TestProp::NotANumber: return &Unary<Testp<FT, ir::TestProp::NotANumber>>::run;
    case ir::TestProp::Normal: return &Unary<Testp<FT, ir::TestProp::Normal>>::run;
    case ir::TestProp::Subnormal: return &Unary<Testp<FT, ir::TestProp::Subnormal>>::run;
    default: return nullptr;
  }
}

// rcp and sqrt: .approx (f32 only) or an IEEE rounding modifier (none = .rn).
template <template <class, bool> class Op>
AluKernel rcp_sqrt_kernel(const Instruction& inst) {
  if (inst.sat) return nullptr;
  if (inst.type == DataType::F32) {
    if (inst.approx) {
      if (inst.rounding != ir::Rounding::None) return nullptr;
      return inst.ftz ? &Unary<Op<float, true>>::run : &Unary<Op<float, false>>::run;
    }
    return inst.ftz ? with_rounding<Unary<Op<float, true>>>(inst.rounding)
                    : with_rounding<Unary<Op<float, false>>>(inst.rounding);
  }
  if (inst.type == DataType::F64) {
    if (inst.approx || inst.ftz) return nullptr;
    return with_rounding<Unary<Op<double, false>>>(inst.rounding);
  }
  return nullptr;
}

// The .approx-only f32 functions (ex2, lg2, sin, cos, tanh).
template <template <bool> class Op>
AluKernel approx_f32_kernel(const Instruction& inst) {
  if (inst.type != DataType::F32 || inst.sat || inst.rounding != ir::Rounding::None) return nullptr;
  return inst.ftz ? &Unary<Op<true>>::run : &Unary<Op<false>>::run;
}

}  // namespace

AluKernel select_special(const Instruction& inst) {
  switch (inst.op) {
    case Opcode::Rcp:
      if (inst.type == DataType::F64 && inst.approx) {
        return inst.rounding == ir::Rounding::None && !inst.sat ? &Unary<RcpApproxFtzF64>::run
                                                                : nullptr;
      }
      return rcp_sqrt_kernel<Rcp>(inst);
    case Opcode::Sqrt: return rcp_sqrt_kernel<Sqrt>(inst);
    case Opcode::Rsqrt:
      if (inst.sat || inst.rounding != ir::Rounding::None) return nullptr;
      if (inst.type == DataType::F32) {
        return inst.ftz ? &Unary<RsqrtF32<true>>::run : &Unary<RsqrtF32<false>>::run;
      }
      if (inst.type == DataType::F64) {
        return inst.ftz ? &Unary<RsqrtF64<true>>::run : &Unary<RsqrtF64<false>>::run;
      }
      return nullptr;
    case Opcode::Ex2: return approx_f32_kernel<Ex2>(inst);
    case Opcode::Lg2: return approx_f32_kernel<Lg2>(inst);
    case Opcode::Sin: return approx_f32_kernel<Sin>(inst);
    case Opcode::Cos: return approx_f32_kernel<Cos>(inst);
    case Opcode::Tanh: return approx_f32_kernel<Tanh>(inst);
    case Opcode::Copysign:
      if (inst.type == DataType::F32) return &Binary<Copysign<float>>::run;
      if (inst.type == DataType::F64) return &Binary<Copysign<double>>::run;
      return nullptr;
    case Opcode::Testp:
      if (inst.type == DataType::F32) return testp_kernel<float>(inst.testp);
      if (inst.type == DataType::F64) return testp_kernel<double>(inst.testp);
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
