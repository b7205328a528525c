#include "models/smem/banks.h"

#include <algorithm>

namespace simtlm::models::smem {

namespace {
bool pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
uint32_t log2u(uint32_t v) { return static_cast<uint32_t>(__builtin_ctz(v)); }
}  // namespace

Banks::Banks(uint32_t banks, uint32_t bank_width_bytes)
    : banks_(banks == 0 ? 1 : banks),
      width_(bank_width_bytes == 0 ? 4 : bank_width_bytes),
      per_bank_(banks_, 0),
      first_word_(banks_, 0) {
  words_.reserve(64 * 16);
  touched_.reserve(banks_);
  extra_.reserve(64 * 16);
  // Power-of-two geometries (every preset) avoid divisions on the hot path.
  bank_mask_ = pow2(banks_) ? banks_ - 1 : 0;
  width_shift_ = pow2(width_) ? log2u(width_) : kNoShift;
}

uint32_t Banks::degree(const uint64_t* addrs, uint64_t lanes, uint32_t bytes, uint64_t base) {
  if (lanes == 0) return 0;
  words_.clear();
  const uint32_t span = bytes == 0 ? 1 : bytes;
  const uint32_t shift = width_shift_;
  for (uint64_t m = lanes; m; m &= m - 1) {
    const uint64_t a = addrs[__builtin_ctzll(m)] - base;
    const uint64_t first = shift != kNoShift ? a >> shift : a / width_;
    const uint64_t last = shift != kNoShift ? (a + span - 1) >> shift : (a + span - 1) / width_;
    for (uint64_t w = first; w <= last; ++w) words_.push_back(w);
  }
  // Distinct words per bank without sorting: the first word of a bank is
  // kept in first_word_; further distinct words of a bank (real conflicts,
  // rare) go to extra_, searched linearly. Broadcasts and conflict-free
  // accesses therefore cost one pass over the lanes.
  uint32_t worst = 0;
  for (uint64_t w : words_) {
    const uint32_t b = bank_mask_ != 0 || banks_ == 1 ? static_cast<uint32_t>(w & bank_mask_)
                                                        : static_cast<uint32_t>(w % banks_);
    uint32_t& n = per_bank_[b];
    if (n == 0) {
      first_word_[b] = w;
      touched_.push_back(b);
      n = 1;
    } else if (first_word_[b] != w) {
      bool seen = false;
      for (const auto& e : extra_) {
        if (e.first == b && e.second == w) {
          seen = true;
          break;
        }
      }
      if (seen) continue;
      extra_.emplace_back(b, w);
      ++n;
    }
    worst = std::max(worst, n);
  }
  for (uint32_t b : touched_) per_bank_[b] = 0;
  touched_.clear();
  extra_.clear();
  return worst;
}

}  // namespace simtlm::models::smem
