// Exact floating-point format conversions and round-to-odd helpers (see
// alu_fp.h). Everything here is integer arithmetic on bit patterns or
// error-free transformations, so it does not depend on the host rounding mode.
#include "functional/alu_fp.h"

#include <cmath>

namespace simtlm::functional::alu_detail {

int fe_mode_of(ir::Rounding r) {
  switch (r) {
    case ir::Rounding::None: case ir::Rounding::Rn: return FE_TONEAREST;
    case ir::Rounding::Rz: return FE_TOWARDZERO;
    case ir::Rounding::Rm: return FE_DOWNWARD;
    case ir::Rounding::Rp: return FE_UPWARD;
    default: return -1;
  }
}

Rnd rnd_of(ir::Rounding r) {
  switch (r) {
    case ir::Rounding::Rz: case ir::Rounding::Rzi: return Rnd::Zero;
    case ir::Rounding::Rm: case ir::Rounding::Rmi: return Rnd::Down;
    case ir::Rounding::Rp: case ir::Rounding::Rpi: return Rnd::Up;
    case ir::Rounding::Rna: return Rnd::NearestAway;
    default: return Rnd::Nearest;
  }
}

uint64_t round_pack(bool neg, uint64_t sig, int e2, Fmt f, Rnd m) {
  const int total = f.ebits + f.mbits;  // bit index of the sign
  const uint64_t sign = neg ? (1ull << total) : 0;
  if (sig == 0) return sign;
  const int bias = (1 << (f.ebits - 1)) - 1;
  const int emin = 1 - bias;  // exponent of the smallest normal number
  const int msb = 63 - __builtin_clzll(sig);
  const int lead = e2 + msb;  // exponent of the leading bit
  int ulp_exp = (lead > emin ? lead : emin) - f.mbits;
  const int shift = ulp_exp - e2;  // bits of sig below the target ulp

  uint64_t keep;
  int cmp_half;  // remainder compared with half an ulp: -1, 0, +1
  bool inexact;
  if (shift <= 0) {
    keep = sig << -shift;  // exact; fits since lead - ulp_exp <= mbits
    cmp_half = -1;
    inexact = false;
  } else if (shift < 64) {
    keep = sig >> shift;
    const uint64_t rem = sig & ((1ull << shift) - 1);
    const uint64_t half = 1ull << (shift - 1);
    cmp_half = rem > half ? 1 : (rem == half ? 0 : -1);
    inexact = rem != 0;
  } else {
    keep = 0;
    const uint64_t half = 1ull << 63;
    cmp_half = shift > 64 ? -1 : (sig > half ? 1 : (sig == half ? 0 : -1));
    inexact = true;
  }

  bool up = false;
  switch (m) {
    case Rnd::Nearest: up = cmp_half > 0 || (cmp_half == 0 && (keep & 1) != 0); break;
    case Rnd::NearestAway: up = cmp_half >= 0 && inexact; break;
    case Rnd::Zero: up = false; break;
    case Rnd::Down: up = neg && inexact; break;
    case Rnd::Up: up = !neg && inexact; break;
  }
  keep += up ? 1 : 0;
  if ((keep >> (f.mbits + 1)) != 0) {  // rounding carried into a new binade
    keep >>= 1;
    ++ulp_exp;
  }

  const uint64_t frac_mask = (1ull << f.mbits) - 1;
  const int exp_all_ones = (1 << f.ebits) - 1;
  int biased = 0;  // subnormal (or zero) unless the hidden bit is set
  if ((keep >> f.mbits) != 0) biased = ulp_exp + f.mbits + bias;
  if (biased >= exp_all_ones) {
    const uint64_t inf = static_cast<uint64_t>(exp_all_ones) << f.mbits;
    const uint64_t max_finite = inf - 1;
    bool to_inf = true;
    if (m == Rnd::Zero) to_inf = false;
    if (m == Rnd::Down) to_inf = neg;
    if (m == Rnd::Up) to_inf = !neg;
    return sign | (to_inf ? inf : max_finite);
  }
  return sign | (static_cast<uint64_t>(biased) << f.mbits) | (keep & frac_mask);
}

double narrow_to_double(uint64_t bits, Fmt f) {
  const int total = f.ebits + f.mbits;
  const bool neg = ((bits >> total) & 1) != 0;
  const uint64_t frac = bits & ((1ull << f.mbits) - 1);
  const int exp_all_ones = (1 << f.ebits) - 1;
  const int exp = static_cast<int>((bits >> f.mbits) & static_cast<uint64_t>(exp_all_ones));
  const int bias = (1 << (f.ebits - 1)) - 1;
  double v;
  if (exp == exp_all_ones) {
    v = frac != 0 ? std::nan("") : HUGE_VAL;
  } else if (exp == 0) {
    v = std::ldexp(static_cast<double>(frac), 1 - bias - f.mbits);
  } else {
    v = std::ldexp(static_cast<double>(frac | (1ull << f.mbits)), exp - bias - f.mbits);
  }
  return neg ? -v : v;
}

uint64_t double_to_narrow(double v, Fmt f, Rnd m) {
  const uint64_t b = f64_bits(v);
  const bool neg = (b >> 63) != 0;
  const int exp = static_cast<int>((b >> 52) & 0x7FF);
  const uint64_t frac = b & ((1ull << 52) - 1);
  const int total = f.ebits + f.mbits;
  const uint64_t sign = neg ? (1ull << total) : 0;
  const uint64_t inf = static_cast<uint64_t>((1 << f.ebits) - 1) << f.mbits;
  if (exp == 0x7FF) {
    if (frac != 0) {  // canonical NaN: all ones but the sign
      return (1ull << total) - 1;
    }
    return sign | inf;
  }
  if (exp == 0) return round_pack(neg, frac, -1074, f, m);
  return round_pack(neg, frac | (1ull << 52), exp - 1075, f, m);
}

uint64_t int_to_narrow(bool neg, uint64_t magnitude, Fmt f, Rnd m) {
  return round_pack(neg, magnitude, 0, f, m);
}

double int_to_f64(bool neg, uint64_t magnitude, Rnd m) {
  return as_f64(round_pack(neg, magnitude, 0, kF64, m));
}

double odd_add(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return s;
  // TwoSum: s + err == a + b exactly.
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  if (err == 0) return s;
  uint64_t u = f64_bits(s);
  // s is a neighbour of the exact sum; step toward zero if it rounded away.
  const bool rounded_away = (err > 0) != (s > 0);
  if (rounded_away) u -= 1;
  u |= 1;
  return as_f64(u);
}

double odd_fma(double a, double b, double c) { return odd_add(a * b, c); }

}  // namespace simtlm::functional::alu_detail
