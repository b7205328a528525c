// Shared-memory bank conflicts of one warp access.
//
// Word w (address / bank_width) lives in bank w mod banks. Lanes reading the
// same word are served together (broadcast, no conflict); distinct words of
// one bank serialise. The conflict degree of an access is the largest number
// of distinct words any bank must deliver, and the access takes that many
// passes through the shared-memory pipeline (degree 1 = conflict-free).
// Accesses wider than a bank (64/128-bit, vectors) touch every bank word they
// cover.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace simtlm::models::smem {

class Banks {
 public:
  Banks(uint32_t banks, uint32_t bank_width_bytes);

  // Degree of the access of `lanes` (bit i = lane i) whose byte addresses are
  // addrs[i] - base (base lets callers pass generic addresses), each lane
  // touching `bytes` bytes. 0 when no lane accesses.
  uint32_t degree(const uint64_t* addrs, uint64_t lanes, uint32_t bytes, uint64_t base = 0);

  uint32_t banks() const { return banks_; }

 private:
  static constexpr uint32_t kNoShift = ~0u;

  uint32_t banks_;
  uint32_t width_;
  uint32_t bank_mask_ = 0;          // banks_ - 1 when banks_ is a power of two, else 0
  uint32_t width_shift_ = kNoShift; // log2(width_) when width_ is a power of two
  std::vector<uint64_t> words_;    // scratch: words of the access
  std::vector<uint32_t> per_bank_; // scratch: distinct words per bank
  std::vector<uint64_t> first_word_;                     // scratch: first word seen per bank
  std::vector<uint32_t> touched_;                        // scratch: banks with a word
  std::vector<std::pair<uint32_t, uint64_t>> extra_;     // scratch: further distinct (bank, word)
};

}  // namespace simtlm::models::smem
