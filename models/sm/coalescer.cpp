#include "models/sm/coalescer.h"

#include "simtlm/error.h"

namespace simtlm::models {

Coalescer::Coalescer(uint32_t line_bytes, uint32_t sector_bytes)
    : line_bytes_(line_bytes), sector_bytes_(sector_bytes), sector_shift_(0) {
  if (line_bytes == 0 || (line_bytes & (line_bytes - 1)) != 0 || sector_bytes == 0 ||
      (sector_bytes & (sector_bytes - 1)) != 0 || sector_bytes > line_bytes || line_bytes / sector_bytes > 32) {
    throw Error(ErrorKind::Config, "coalescer: line_bytes and sector_bytes must be powers of two with at most 32 "
                                   "sectors per line (got " + std::to_string(line_bytes) + "/" +
                                       std::to_string(sector_bytes) + ")");
  }
  while ((1u << sector_shift_) < sector_bytes_) ++sector_shift_;
  lines_.reserve(256);
}

void Coalescer::add_in_line(uint64_t line, uint32_t first_sector, uint32_t last_sector) {
  const uint32_t n = last_sector - first_sector + 1;
  const uint32_t mask = (n >= 32 ? ~0u : ((1u << n) - 1)) << first_sector;
  if (last_ < lines_.size() && lines_[last_].line == line) {
    lines_[last_].sectors |= mask;
    return;
  }
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].line == line) {
      lines_[i].sectors |= mask;
      last_ = i;
      return;
    }
  }
  last_ = lines_.size();
  lines_.push_back({line, mask});
}

void Coalescer::add(uint64_t addr, uint32_t bytes) {
  if (bytes == 0) bytes = 1;
  const uint64_t end = addr + bytes - 1;
  const uint64_t lmask = ~static_cast<uint64_t>(line_bytes_ - 1);
  for (uint64_t line = addr & lmask; line <= (end & lmask); line += line_bytes_) {
    const uint64_t lo = line > addr ? line : addr;
    const uint64_t hi = (line + line_bytes_ - 1) < end ? (line + line_bytes_ - 1) : end;
    add_in_line(line, static_cast<uint32_t>((lo - line) >> sector_shift_),
                static_cast<uint32_t>((hi - line) >> sector_shift_));
  }
}

}  // namespace simtlm::models
