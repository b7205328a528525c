// Reg+DRAM's off-chip register contexts (seed note 004 §2.10; docs/finereg.md
// "Comparison mechanisms"): what moving a CTA's whole register allocation
// off chip and back costs, and, in the checking mode
// (gpu.sm.regfile.finereg.check), the functional registers going through an
// image of that context.
//
// Traffic is ACCOUNTED, not simulated: a context of B bytes takes
// latency + ceil(B / bytes_per_cycle) cycles each way and adds B to the
// off-chip bytes; the transfer does not go through the L1D/L2/DRAM model, so
// it does not compete with the kernels' own accesses (optimistic for
// Reg+DRAM).
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
  OffchipContexts(const VtParams& p, uint32_t cta_slots) : p_(p), images_(cta_slots) {}

  // Cycles to move a context of `bytes` one way.
  uint64_t transfer_cycles(uint64_t bytes) const {
    return p_.offchip_latency + (bytes + p_.offchip_bytes_per_cycle - 1) / p_.offchip_bytes_per_cycle;
  }

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
  VtParams p_;
  std::vector<std::vector<Saved>> images_;
  uint64_t checked_ = 0;
};

}  // namespace simtlm::models::finereg
