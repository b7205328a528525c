// Floating-point helpers shared by the float ALU families: bit casts, .ftz and
// .sat handling, canonical NaNs, host rounding-mode scopes, and exact
// conversions to and from the narrow formats (f16, bf16, f32) with every PTX
// rounding mode. The narrow-format rounding is done in integer arithmetic
// (round_pack), so it is bit-exact and independent of the host FP environment.
#pragma once

#include <cfenv>
#include <cstdint>
#include <cstring>

#include "frontend/ir/types.h"
#include "functional/alu.h"

namespace simtlm::functional::alu_detail {

// ---- bit casts -----------------------------------------------------------
inline float as_f32(uint64_t raw) {
  const uint32_t u = static_cast<uint32_t>(raw);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline double as_f64(uint64_t raw) {
  double d;
  std::memcpy(&d, &raw, sizeof d);
  return d;
}
inline uint64_t f64_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// Canonical NaNs written by arithmetic whose result is NaN (what NVIDIA GPUs
// produce; also makes results independent of the host's NaN propagation).
inline constexpr uint32_t kCanonicalNaN16 = 0x7FFFu;  // f16 and bf16
inline constexpr uint32_t kCanonicalNaN32 = 0x7FFFFFFFu;
inline constexpr uint64_t kCanonicalNaN64 = 0x7FFFFFFFFFFFFFFFull;

// ---- .ftz / .sat -------------------------------------------------------
// Subnormal -> zero of the same sign.
inline float flush_f32(float x) {
  uint32_t u = f32_bits(x);
  if ((u & 0x7F800000u) == 0) u &= 0x80000000u;
  float r;
  std::memcpy(&r, &u, sizeof r);
  return r;
}
inline double flush_f64(double x) {
  uint64_t u = f64_bits(x);
  if ((u & 0x7FF0000000000000ull) == 0) u &= 0x8000000000000000ull;
  return as_f64(u);
}
// .sat: clamp to [+0.0, 1.0]; NaN and -0.0 give +0.0.
template <class FT>
inline FT saturate(FT x) {
  if (!(x > FT(0))) return FT(0);
  return x > FT(1) ? FT(1) : x;
}

// Operand read / result write for the f32 and f64 arithmetic families.
template <bool Ftz>
inline float in_f32(uint64_t raw) {
  const float x = as_f32(raw);
  return Ftz ? flush_f32(x) : x;
}
inline double in_f64(uint64_t raw) { return as_f64(raw); }

template <bool Ftz, bool Sat>
inline uint64_t out_f32(float x) {
  if (Sat) x = saturate(x);
  if (Ftz) x = flush_f32(x);
  if (x != x) return kCanonicalNaN32;
  return f32_bits(x);
}
template <bool Sat>
inline uint64_t out_f64(double x) {
  if (Sat) x = saturate(x);
  if (x != x) return kCanonicalNaN64;
  return f64_bits(x);
}

// Generic forms over FT = float (f32) or double (f64); .ftz applies to f32 only.
template <class FT, bool Ftz>
inline FT in_fp(uint64_t raw) {
  if constexpr (sizeof(FT) == 4) {
    return in_f32<Ftz>(raw);
  } else {
    return as_f64(raw);
  }
}
template <class FT, bool Ftz, bool Sat>
inline uint64_t out_fp(FT x) {
  if constexpr (sizeof(FT) == 4) {
    return out_f32<Ftz, Sat>(x);
  } else {
    return out_f64<Sat>(x);
  }
}
template <class FT>
inline uint64_t fp_bits(FT x) {
  if constexpr (sizeof(FT) == 4) {
    return f32_bits(x);
  } else {
    return f64_bits(x);
  }
}
template <class FT>
inline constexpr uint64_t kSignBit = sizeof(FT) == 4 ? 0x80000000ull : 0x8000000000000000ull;

// ---- host rounding mode -------------------------------------------------
// Sets the host rounding mode for the lifetime of the scope and restores
// round-to-nearest (the program-wide default) afterwards. Kernels enter the
// scope once per warp instruction, around the whole lane loop. The FP
// operations inside depend on values loaded after fesetround() (an opaque
// call), so the compiler cannot move them out of the scope.
class RoundingScope {
 public:
  explicit RoundingScope(int fe_mode) : active_(fe_mode != FE_TONEAREST) {
    if (active_) std::fesetround(fe_mode);
  }
  ~RoundingScope() {
    if (active_) std::fesetround(FE_TONEAREST);
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  bool active_;
};

// Kernel K run under host rounding mode FeMode (an FE_* value).
template <int FeMode, class K>
struct Rounded {
  static void run(const AluArgs& a) {
    RoundingScope scope(FeMode);
    K::run(a);
  }
};

// FE_* mode of a PTX floating-point rounding modifier (.rn/.rz/.rm/.rp;
// None = .rn). Returns -1 for the integer-rounding modifiers.
int fe_mode_of(ir::Rounding r);

// Instantiates Rounded<mode, K> for the instruction's rounding modifier.
// Returns nullptr for a modifier that is not .rn/.rz/.rm/.rp/none.
template <class K>
AluKernel with_rounding(ir::Rounding r) {
  switch (r) {
    case ir::Rounding::None: case ir::Rounding::Rn: return &K::run;
    case ir::Rounding::Rz: return &Rounded<FE_TOWARDZERO, K>::run;
    case ir::Rounding::Rm: return &Rounded<FE_DOWNWARD, K>::run;
    case ir::Rounding::Rp: return &Rounded<FE_UPWARD, K>::run;
    default: return nullptr;
  }
}

// ---- narrow formats -----------------------------------------------------
// An IEEE-style binary format with `ebits` exponent and `mbits` stored
// fraction bits.
struct Fmt {
  int ebits;
  int mbits;
};
inline constexpr Fmt kF16{5, 10};
inline constexpr Fmt kBF16{8, 7};
inline constexpr Fmt kF32{8, 23};
inline constexpr Fmt kF64{11, 52};

// Rounding direction for the exact conversions.
enum class Rnd : uint8_t { Nearest, Zero, Down, Up, NearestAway };

// Rnd of a PTX floating-point rounding modifier (None -> Nearest); also maps
// the integer-rounding modifiers to their direction (.rni -> Nearest, ...).
Rnd rnd_of(ir::Rounding r);

// Rounds (-1)^neg * sig * 2^e2 to `f` with direction `m`: handles subnormal
// results, carries into the exponent and overflow (to infinity or the largest
// finite value as the direction requires). Returns the bit pattern.
uint64_t round_pack(bool neg, uint64_t sig, int e2, Fmt f, Rnd m);

// Exact value of a bit pattern of format `f` (NaN -> quiet NaN, sign kept).
double narrow_to_double(uint64_t bits, Fmt f);

// Correctly rounded conversion of a double to format `f` (NaN -> canonical
// NaN of f: 0x7FFF for 16-bit formats, 0x7FFFFFFF for f32).
uint64_t double_to_narrow(double v, Fmt f, Rnd m);

// Correctly rounded conversion of an integer to format `f`.
uint64_t int_to_narrow(bool neg, uint64_t magnitude, Fmt f, Rnd m);

// Correctly rounded conversion of an integer to f64.
double int_to_f64(bool neg, uint64_t magnitude, Rnd m);

// Round-to-odd arithmetic in double precision: the exact result truncated
// toward zero to 53 bits with the last bit set when inexact. Rounding that
// value once more to a format of at most 51 significant bits (f16, bf16, f32)
// gives the correctly rounded result in every direction, so narrow-format
// add/sub/fma avoid double rounding. odd_fma requires a*b to be exact in double
// (true for f16, bf16 and f32 operands).
double odd_add(double a, double b);
double odd_fma(double a, double b, double c);

// f16 / bf16 helpers on raw 16-bit patterns.
inline bool half_is_nan(uint32_t h, Fmt f) {
  const uint32_t exp_mask = ((1u << f.ebits) - 1) << f.mbits;
  return (h & exp_mask) == exp_mask && (h & ((1u << f.mbits) - 1)) != 0;
}
inline uint32_t half_flush(uint32_t h, Fmt f) {
  const uint32_t exp_mask = ((1u << f.ebits) - 1) << f.mbits;
  return (h & exp_mask) == 0 ? (h & 0x8000u) : h;
}

// Exact f16 / bf16 -> float of the low 16 bits of raw (NaN stays NaN).
// f16: the exponent/fraction bits placed at the binary32 position and scaled by
// 2^112 re-bias normal numbers and turn subnormals into the exact binary32
// value (the multiplication is exact); infinities/NaNs get the all-ones exponent.
#define SIMTLM_ALU_INLINE inline __attribute__((always_inline))
SIMTLM_ALU_INLINE float f16_to_f32(uint64_t raw) {
  const uint32_t h = static_cast<uint32_t>(raw) & 0xFFFFu;
  const uint32_t em = (h & 0x7FFFu) << 13;
  float f;
  std::memcpy(&f, &em, sizeof f);
  uint32_t bits = f32_bits(f * 0x1p112f);
  if (em >= (0x7C00u << 13)) bits = em | 0x7F800000u;
  bits |= (h & 0x8000u) << 16;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
SIMTLM_ALU_INLINE float bf16_to_f32(uint64_t raw) {
  const uint32_t bits = (static_cast<uint32_t>(raw) & 0xFFFFu) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Fast round-to-nearest-even f32 -> f16 / bf16 on bit patterns (NaN ->
// canonical 0x7FFF). Equivalent to double_to_narrow(x, kF16/kBF16,
// Rnd::Nearest); used on the hot paths (cvt.rn, half-precision add/sub/mul).
// The f16 subnormal branch relies on the host being in round-to-nearest mode,
// which holds everywhere outside a RoundingScope.
SIMTLM_ALU_INLINE uint32_t f32_to_f16_rn(float x) {
  uint32_t u = f32_bits(x);
  const uint32_t sign = (u >> 16) & 0x8000u;
  u &= 0x7FFFFFFFu;
  if (u >= 0x7F800000u) return u == 0x7F800000u ? (sign | 0x7C00u) : kCanonicalNaN16;
  if (u >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520 rounds to infinity
  if (u < 0x38800000u) {                        // below 2^-14: f16 subnormal or zero
    // Adding 0.5 aligns the value to multiples of 2^-24 (the f16 subnormal
    // step) with a single IEEE round-to-nearest-even addition.
    float a;
    std::memcpy(&a, &u, sizeof a);
    return sign | (f32_bits(a + 0.5f) - 0x3F000000u);
  }
  const uint32_t odd = (u >> 13) & 1;
  u += (static_cast<uint32_t>(15 - 127) << 23) + 0xFFFu + odd;
  return sign | (u >> 13);
}
SIMTLM_ALU_INLINE uint32_t f32_to_bf16_rn(float x) {
  const uint32_t u = f32_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return kCanonicalNaN16;
  return (u + 0x7FFFu + ((u >> 16) & 1)) >> 16;  // carries into the exponent / to infinity
}

}  // namespace simtlm::functional::alu_detail
