// Memory coalescer of the LD/ST unit: the bytes the active lanes of one warp
// instruction touch are grouped into one request per cache line (128 bytes by
// default) with the mask of the sectors (32 bytes) touched in it. Lines keep
// the order in which lanes first touch them (lane 0 first), so the request
// order is deterministic. One memory transaction is sent per line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::models {

struct LineRequest {
  uint64_t line = 0;     // line-aligned address
  uint32_t sectors = 0;  // bit i = sector i of the line
};

class Coalescer {
 public:
  Coalescer(uint32_t line_bytes, uint32_t sector_bytes);

  void clear() {
    lines_.clear();
    last_ = 0;
  }
  // Adds the bytes [addr, addr + bytes) (may cross line boundaries).
  void add(uint64_t addr, uint32_t bytes);
  const std::vector<LineRequest>& lines() const { return lines_; }
  uint32_t line_bytes() const { return line_bytes_; }
  uint32_t sector_bytes() const { return sector_bytes_; }

 private:
  void add_in_line(uint64_t line, uint32_t first_sector, uint32_t last_sector);

  uint32_t line_bytes_;
  uint32_t sector_bytes_;
  unsigned sector_shift_;  // log2(sector_bytes_): sector numbers by shift, not division (every lane of every access)
  std::vector<LineRequest> lines_;
  size_t last_ = 0;  // index of the line touched last (consecutive lanes usually share it)
};

}  // namespace simtlm::models
