// FineReg's checking mode (gpu.sm.regfile.finereg.check; seed note 004 §7,
// invariants 1 and 2): makes the functional state of a switched-out CTA go
// through the PCRF, so that a lost register, a wrong chain or an unsound
// live set changes the program's results or stops the run.
//
// At switch-out, for every unfinished warp: the values of its live registers
// (live_vectors.h: the PCs its lanes resume at), in the lanes they are live
// for, become the lanes of the PCRF items, one per live
// physical 32-bit register (on divergent paths two registers may share a
// physical one, each in its own lanes); a copy of them is kept aside
// (the golden copy); then EVERY register of the warp, live or not, is
// overwritten with a poison value. At switch-in the PCRF's items are written
// back into the live registers and each is compared with the golden copy:
// a difference is Error(Internal) naming CTA, warp, register and lane. A
// dead register keeps its poison, so a register the analysis wrongly calls
// dead corrupts the program and fails its CPU check.
//
// The timing model executes instructions at issue, so when a CTA switches
// out, the results of its loads still in flight are already in its
// registers: the PCRF copy holds them (the note's hazard 2.11.1, option (c)).
// Predicates are part of the warp's pipeline context, not of the register
// file: they are neither saved nor poisoned. Registers holding constant-bank
// values have no register (ptxas reads them from the bank again): kept.
#pragma once

#include <cstdint>
#include <vector>

#include "functional/warp.h"
#include "models/finereg/live_vectors.h"
#include "models/finereg/pcrf.h"

namespace simtlm::models::finereg {

// What a warp's live registers are at a switch: its live physical registers
// (with lanes when `with_data`) as PCRF items of warp `warp_in_cta`.
std::vector<PcrfItem> live_items(const ir::Function& kernel, const LiveVectorTable& table,
                                 const functional::Warp& warp, uint32_t warp_in_cta, bool with_data);

class LiveCheck {
 public:
  explicit LiveCheck(uint32_t cta_slots) : saved_(cta_slots) {}

  // Switch-out of CTA slot `slot` (its warps in CTA order): keeps the golden
  // copy of the live registers of its unfinished warps and poisons all their
  // registers.
  void switch_out(uint32_t slot, const ir::Function& kernel, const LiveVectorTable& table,
                  const std::vector<functional::Warp*>& warps);
  // Switch-in of CTA `cta_id` in `slot`: writes `items` (from the PCRF) back
  // and compares every live register with the golden copy. Error(Internal)
  // on a difference.
  void switch_in(uint32_t slot, uint64_t cta_id, const ir::Function& kernel,
                 const std::vector<functional::Warp*>& warps, const std::vector<PcrfItem>& items);

  uint64_t registers_checked() const { return checked_; }

  static constexpr uint64_t kPoison = 0xDEADBEEFDEADBEEFull;

 private:
  struct Saved {
    uint32_t warp = 0;
    uint32_t reg = 0;         // virtual register
    uint64_t lanes_live = 0;  // lanes it is live in (lanes resuming at a PC where it is live)
    std::vector<uint64_t> lanes;
  };
  std::vector<std::vector<Saved>> saved_;
  uint64_t checked_ = 0;
};

}  // namespace simtlm::models::finereg
