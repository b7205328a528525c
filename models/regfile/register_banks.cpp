#include "models/regfile/register_banks.h"

#include <algorithm>

namespace simtlm::models::regfile {

RegisterBanks::RegisterBanks(uint32_t banks, uint32_t ports_per_bank, uint32_t write_ports)
    : banks_(banks == 0 ? 1 : banks), ports_(ports_per_bank == 0 ? 1 : ports_per_bank), next_slot_(banks_, 0),
      write_ports_(write_ports == 0 ? 1 : write_ports), next_write_slot_(banks_, 0) {
  if (banks_ > 1 && (banks_ & (banks_ - 1)) == 0) bank_mask_ = banks_ - 1;
}

}  // namespace simtlm::models::regfile
