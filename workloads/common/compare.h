// Comparison of device results with CPU references, producing the
// CheckResult text: how many values were compared, the worst error against its
// tolerance and, on failure, the first mismatch (index, got, expected) and the
// number of mismatches. Non-finite device values always mismatch.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace simtlm::workloads {

inline std::string fmt_num(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

// got[i] against ref[i] with an absolute tolerance tol(i) >= 0 per element.
// `tolerance_rule` says how the tolerance was chosen (goes into the detail).
template <typename Got, typename TolFn>
CheckResult compare_with_tolerance(const std::string& what, const std::vector<Got>& got,
                                   const std::vector<double>& ref, TolFn tol,
                                   const std::string& tolerance_rule) {
  CheckResult r;
  if (got.size() != ref.size()) {
    r.detail = what + ": size mismatch: " + std::to_string(got.size()) + " values, expected " +
               std::to_string(ref.size());
    return r;
  }
  size_t mismatches = 0, first = 0, worst = 0;
  double worst_ratio = 0.0, max_abs = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = double(got[i]);
    const double e = std::fabs(g - ref[i]);
    const double t = tol(i);
    const bool ok = std::isfinite(g) && e <= t;
    if (!ok) {
      if (mismatches == 0) first = i;
      ++mismatches;
    }
    const double ratio = !std::isfinite(g) ? INFINITY : (t > 0 ? e / t : (e > 0 ? INFINITY : 0.0));
    if (i == 0 || ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = i;
    }
    if (std::isfinite(e) && e > max_abs) max_abs = e;
  }
  std::ostringstream os;
  os << what << ": ";
  if (mismatches == 0) {
    os << got.size() << " values match; max abs error " << fmt_num(max_abs)
       << "; worst element [" << worst << "] uses " << fmt_num(100.0 * worst_ratio)
       << "% of its tolerance " << fmt_num(tol(worst)) << "; tolerance: " << tolerance_rule;
    r.passed = true;
  } else {
    os << mismatches << " of " << got.size() << " values mismatch; first at [" << first
       << "]: got " << fmt_num(double(got[first])) << ", expected " << fmt_num(ref[first])
       << " (|error| " << fmt_num(std::fabs(double(got[first]) - ref[first])) << " > tolerance "
       << fmt_num(tol(first)) << "); tolerance: " << tolerance_rule;
  }
  r.detail = os.str();
  return r;
}

// Exact comparison for integer (or bit-exact float) outputs.
template <typename T>
CheckResult compare_exact(const std::string& what, const std::vector<T>& got,
                          const std::vector<T>& ref) {
  CheckResult r;
  if (got.size() != ref.size()) {
    r.detail = what + ": size mismatch: " + std::to_string(got.size()) + " values, expected " +
               std::to_string(ref.size());
    return r;
  }
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == ref[i])) {
      if (mismatches == 0) first = i;
      ++mismatches;
    }
  }
  std::ostringstream os;
  os << what << ": ";
  if (mismatches == 0) {
    os << got.size() << " values match exactly";
    r.passed = true;
  } else {
    os << mismatches << " of " << got.size() << " values mismatch; first at [" << first
       << "]: got " << fmt_num(double(got[first])) << ", expected " << fmt_num(double(ref[first]))
       << " (exact match required)";
  }
  r.detail = os.str();
  return r;
}

// Unit roundoff of binary32 (2^-24): the relative error bound of one correctly
// rounded float operation.
inline constexpr double kFloatUnitRoundoff = 1.0 / 16777216.0;

// Higham's gamma_n = n*u / (1 - n*u): a rounding-error bound for a chain of n
// float operations (a length-n summation or dot product in any order that is a
// tree of depth n: |computed - exact| <= gamma_n * sum |terms|).
inline double gamma_n(double n) {
  const double nu = n * kFloatUnitRoundoff;
  return nu / (1.0 - nu);
}

}  // namespace simtlm::workloads
