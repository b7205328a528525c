#include "models/finereg/offchip_context.h"

#include <algorithm>
#include <string>

#include "simtlm/error.h"

namespace simtlm::models::finereg {

void OffchipContexts::save(uint32_t slot, const std::vector<functional::Warp*>& warps) {
  std::vector<Saved>& image = images_.at(slot);
  image.clear();
  for (size_t i = 0; i < warps.size(); ++i) {
    functional::Warp& w = *warps[i];
    if (w.finished()) continue;
    const size_t n = size_t(w.num_regs()) * w.width();
    uint64_t* regs = w.regs();
    image.push_back(Saved{static_cast<uint32_t>(i), std::vector<uint64_t>(regs, regs + n)});
    std::fill(regs, regs + n, kPoison);
  }
}

void OffchipContexts::restore(uint32_t slot, uint64_t cta_id, const std::vector<functional::Warp*>& warps) {
  std::vector<Saved>& image = images_.at(slot);
  for (const Saved& s : image) {
    functional::Warp& w = *warps.at(s.warp);
    uint64_t* regs = w.regs();
    for (size_t k = 0; k < s.values.size(); ++k) {
      if (regs[k] != kPoison) {
        throw Error(ErrorKind::Internal, "Reg+DRAM check: CTA " + std::to_string(cta_id) + " (slot " +
                                             std::to_string(slot) + ") warp " + std::to_string(s.warp) +
                                             " register " + std::to_string(k / w.width()) + " lane " +
                                             std::to_string(k % w.width()) +
                                             " was written while its context was off chip");
      }
    }
    std::copy(s.values.begin(), s.values.end(), regs);
    checked_ += w.num_regs();
  }
  image.clear();
}

}  // namespace simtlm::models::finereg
