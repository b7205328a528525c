#include "functional/address_wrap.h"

#include <algorithm>

namespace simtlm::functional::detail {

__attribute__((noinline, cold)) void wrap_to_32_bits(uint64_t exec, uint64_t* addrs, uint64_t& lo, uint64_t& hi) {
  lo = ~0ull;
  hi = 0;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    addrs[l] &= 0xffffffffull;
    lo = std::min(lo, addrs[l]);
    hi = std::max(hi, addrs[l]);
  }
}

__attribute__((noinline, cold)) uint64_t wrap_bad_lanes_to_32_bits(uint64_t bad, uint64_t* addrs, uint64_t limit,
                                                                   uint64_t reject) {
  for (uint64_t m = bad; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    const uint64_t w = addrs[l] & 0xffffffffull;
    if (w <= limit && (w & reject) == 0) {
      addrs[l] = w;
      bad &= ~(1ull << l);
    }
  }
  return bad;
}

}  // namespace simtlm::functional::detail
