// Time integrals of the CTA counts a CTA-switching allocator reports
// (FineReg, Virtual Thread, Reg+DRAM): the shared step arithmetic.
#pragma once

#include <algorithm>
#include <cstdint>

namespace simtlm::models::finereg {

// The span of an integral step up to cycle c: the cycles since `last` (which
// becomes c), 0 when there are none. After the SM was empty the step starts
// at c - 1: time between launches (the next launch's CTAs are admitted before
// its first tick) is not counted, as the SM's own resident_cta_cycles does
// not count it.
inline uint64_t integral_step(uint64_t c, uint64_t& last, bool& was_empty) {
  if (was_empty) {
    last = std::max(last, c - 1);
    was_empty = false;
  }
  if (c <= last) return 0;
  const uint64_t d = c - last;
  last = c;
  return d;
}

// Resident CTAs that are not active (pending).
inline uint64_t pending_ctas(uint64_t resident, uint64_t active) { return resident - std::min(resident, active); }

}  // namespace simtlm::models::finereg
