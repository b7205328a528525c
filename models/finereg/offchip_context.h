// Reg+DRAM's off-chip register contexts (seed note 004 §2.10; docs/finereg.md
// "Comparison mechanisms"): in the checking mode
// (gpu.sm.regfile.finereg.check), the functional registers going through an
// image of a CTA's register context while it is off chip.
//
// The traffic itself is real memory traffic (vt_allocator.cpp: stores and
// loads of the whole context to the SM's reserved area through the L2 and
// DRAM model), not modelled here.
//
// Checking mode: at spill every register of the CTA's unfinished warps is
// copied into the image and overwritten with a poison value; at fill each
// must still hold the poison (nothing wrote a register of a CTA whose
// context is off chip: the pending-write hazard, note §7 invariant 3) and
// the image is written back. A CTA that issued while off chip, or a fill
// that is skipped, corrupts the program and fails its CPU check.
#pragma once

#include <cstdint>
#include <vector>

#include "functional/warp.h"
#include "models/finereg/finereg_params.h"

namespace simtlm::models::finereg {

class OffchipContexts {
 public:
  explicit OffchipContexts(uint32_t cta_slots) : images_(cta_slots) {}

  // Checking mode: keep the registers of CTA slot `slot`'s unfinished
  // warps (in CTA order) and poison them.
  void save(uint32_t slot, const std::vector<functional::Warp*>& warps);
  // Checking mode: Error(Internal) naming CTA, warp, register and lane if a
  // register changed while off chip; then the image is written back.
  void restore(uint32_t slot, uint64_t cta_id, const std::vector<functional::Warp*>& warps);

  uint64_t registers_checked() const { return checked_; }

  static constexpr uint64_t kPoison = 0xDEADBEEFDEADBEEFull;

 private:
  struct Saved {
    uint32_t warp = 0;
    std::vector<uint64_t> values;  // num_regs x width, as the warp stores them
  };
  std::vector<std::vector<Saved>> images_;
  uint64_t checked_ = 0;
};

}  // namespace simtlm::models::finereg
