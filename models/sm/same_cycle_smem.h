// Shared-memory accesses that start in the same cycle timed as one access
// (SmParams::coalesce_same_cycle: the vws platform's slices, whose memory
// unit is the baseline's, seed 002 §6.2.1): the bank-conflict degree of each
// instruction is that of the union of its lanes and the lanes of the
// instructions of the same kind (load or store) and width that started in
// the same cycle before it, so that 8 slices' 4-lane accesses see the banks
// as one 32-lane access does. An instruction's degree is the union's so far:
// the last one of the cycle waits for all passes, earlier ones for fewer
// (the banks serve the slices in issue order).
#pragma once

#include <array>
#include <cstdint>

#include "models/smem/banks.h"

namespace simtlm::models {

class SameCycleBanks {
 public:
  // Lanes `lanes` of an access of `bytes` bytes each at addrs[i] - base in
  // the shared memory of CTA `cta` (distinct CTAs' words are distinct words
  // of the same banks), starting in cycle `start`. Returns the degree of the
  // cycle's union so far and, in `added`, the passes it added to the
  // cycle's access (the union's degree before it subtracted).
  uint32_t degree(smem::Banks& banks, const uint64_t* addrs, uint64_t lanes, uint32_t bytes, uint64_t base,
                  uint64_t cta, bool store, uint64_t start, uint32_t& added);

 private:
  static constexpr uint32_t kMaxLanes = 64;
  uint64_t start_ = ~0ull;
  bool store_ = false;
  uint32_t bytes_ = 0;
  uint32_t n_ = 0;
  uint32_t degree_ = 0;
  std::array<uint64_t, kMaxLanes> addrs_{};
};

}  // namespace simtlm::models
