// Number formats of the readable run summaries (Platform::summary and the
// builders' topology lines): fixed decimals, "n/a" for undefined values.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace simtlm::platforms {

inline std::string summary_number(double v, int decimals = 3) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

inline std::string summary_percent(double v) { return std::isnan(v) ? "n/a" : summary_number(100.0 * v, 1) + " %"; }

}  // namespace simtlm::platforms
