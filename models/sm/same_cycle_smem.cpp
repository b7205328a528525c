#include "models/sm/same_cycle_smem.h"

namespace simtlm::models {

uint32_t SameCycleBanks::degree(smem::Banks& banks, const uint64_t* addrs, uint64_t lanes, uint32_t bytes,
                                uint64_t base, uint64_t cta, bool store, uint64_t start, uint32_t& added) {
  if (start != start_ || store != store_ || bytes != bytes_) {
    start_ = start;
    store_ = store;
    bytes_ = bytes;
    n_ = 0;
    degree_ = 0;
  }
  // The CTA in the high word: the same bank, a different word.
  for (uint64_t m = lanes; m && n_ < kMaxLanes; m &= m - 1) {
    addrs_[n_++] = addrs[__builtin_ctzll(m)] - base + (cta << 32);
  }
  const uint64_t all = n_ == 64 ? ~0ull : (uint64_t(1) << n_) - 1;
  const uint32_t d = banks.degree(addrs_.data(), all, bytes, 0);
  added = d - degree_;
  degree_ = d;
  return d;
}

}  // namespace simtlm::models
