#include "models/smem/banks.h"

#include <algorithm>

namespace simtlm::models::smem {

Banks::Banks(uint32_t banks, uint32_t bank_width_bytes)
    : banks_(banks == 0 ? 1 : banks), width_(bank_width_bytes == 0 ? 4 : bank_width_bytes), per_bank_(banks_, 0) {
  words_.reserve(64 * 16);
}

uint32_t Banks::degree(const uint64_t* addrs, uint64_t lanes, uint32_t bytes, uint64_t base) {
  if (lanes == 0) return 0;
  words_.clear();
  const uint32_t span = bytes == 0 ? 1 : bytes;
  for (uint64_t m = lanes; m; m &= m - 1) {
    const uint64_t a = addrs[__builtin_ctzll(m)] - base;
    const uint64_t first = a / width_, last = (a + span - 1) / width_;
    for (uint64_t w = first; w <= last; ++w) words_.push_back(w);
  }
  std::sort(words_.begin(), words_.end());
  words_.erase(std::unique(words_.begin(), words_.end()), words_.end());
  uint32_t worst = 0;
  for (uint64_t w : words_) worst = std::max(worst, ++per_bank_[w % banks_]);
  for (uint64_t w : words_) per_bank_[w % banks_] = 0;
  return worst;
}

}  // namespace simtlm::models::smem
