// The RMU's live-register information cache (Oh et al. §V-C, Figure 10;
// seed note 004 §2.5): direct-mapped, 32 entries of a 64-bit vector each,
// indexed by 5 bits of the PC, tagged with the PC (4 B) so that a lookup
// compares the stored PC with the one asked for. A miss reads the vector
// from the reserved global-memory area (8 B; the SM issues that read) and
// fills the entry.
//
// PCs here are instruction indices. The paper hashes byte addresses of 8-byte
// instructions: the 5 bits above the 3 offset bits are the low 5 bits of the
// index, which is what index() takes. The tag also holds the launch the vector
// belongs to (an SM may run CTAs of several kernels), so a kernel never reads
// another kernel's vector.
#pragma once

#include <cstdint>
#include <vector>

#include "models/finereg/live_vectors.h"

namespace simtlm::models::finereg {

class VectorCache {
 public:
  // `entries`: a power of two (32 in the paper).
  explicit VectorCache(uint32_t entries = 32);

  uint32_t entries() const { return static_cast<uint32_t>(lines_.size()); }
  uint32_t index(uint32_t pc) const { return pc & (entries() - 1); }
  // True on a hit (the entry holds `pc` of `kernel`); a miss fills the entry
  // (the caller charges the global-memory read). `kernel` identifies the
  // launch's table (any stable id, e.g. its address).
  bool access(uintptr_t kernel, uint32_t pc);
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  // Storage: entries x (4 B PC tag + 8 B vector) = 384 B for 32 entries.
  uint64_t storage_bytes() const { return uint64_t(entries()) * 12; }

 private:
  struct Line {
    bool valid = false;
    uintptr_t kernel = 0;
    uint32_t pc = 0;
  };
  std::vector<Line> lines_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace simtlm::models::finereg
