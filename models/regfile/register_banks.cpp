#include "models/regfile/register_banks.h"

#include <algorithm>

namespace simtlm::models::regfile {

RegisterBanks::RegisterBanks(uint32_t banks, uint32_t ports_per_bank, uint32_t write_ports)
    : banks_(banks == 0 ? 1 : banks), ports_(ports_per_bank == 0 ? 1 : ports_per_bank), next_slot_(banks_, 0),
      write_ports_(write_ports == 0 ? 1 : write_ports), next_write_slot_(banks_, 0) {
  if (banks_ > 1 && (banks_ & (banks_ - 1)) == 0) bank_mask_ = banks_ - 1;
}

uint64_t RegisterBanks::read(const uint32_t* regs, unsigned n, uint32_t warp, uint64_t cycle) {
  uint64_t done = cycle + 1;
  const uint64_t first_slot = ports_ == 1 ? cycle : cycle * ports_;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t& next = next_slot_[bank_of(regs[i], warp)];
    const uint64_t slot = std::max(next, first_slot);
    next = slot + 1;
    const uint64_t at = ports_ == 1 ? slot : slot / ports_;
    if (at > cycle) ++conflicts_;
    done = std::max(done, at + 1);
  }
  reads_ += n;
  return done;
}

uint64_t RegisterBanks::write(const uint32_t* regs, unsigned n, uint32_t warp, uint64_t cycle) {
  uint64_t done = cycle;
  const uint64_t first_slot = cycle * write_ports_;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t& next = next_write_slot_[bank_of(regs[i], warp)];
    const uint64_t slot = std::max(next, first_slot);
    next = slot + 1;
    const uint64_t at = slot / write_ports_;
    if (at > cycle) ++write_conflicts_;
    done = std::max(done, at);
  }
  writes_ += n;
  return done;
}

}  // namespace simtlm::models::regfile
