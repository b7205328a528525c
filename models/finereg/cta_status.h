// FineReg's CTA status monitor (Oh et al. §IV-C/§V-B, Table IV; seed note 004
// §2.4): per resident-CTA slot two 2-bit fields, where the CTA's pipeline
// context is (0 not launched, 1 shared memory, 2 pipeline) and where its
// registers are (0 not launched, 1 PCRF, 2 ACRF). A CTA is active only in
// (2,2); every other launched combination is pending.
//
// States (names ours, encodings the paper's):
//   Free      (0,0)  slot not launched / finished
//   Active    (2,2)  warps offered to the schedulers, registers in the ACRF
//   PendAcrf  (1,2)  context in shared memory, registers still in the ACRF
//   PendPcrf  (1,1)  context in shared memory, live registers in the PCRF
// The combination (2,1), context in the pipeline with registers in the PCRF,
// would let a CTA issue without its registers: no transition produces it,
// and every transition asserts it never appears (a model error).
//
// Transitions, each a single field change so that a switch is observable
// step by step:
//   launch        Free -> Active
//   launch_pending Free -> PendAcrf     (admitted beyond the scheduling limits
//                                       into free ACRF space, VT-style: its
//                                       initial context waits in shared memory)
//   context_out   Active -> PendAcrf      (warps leave the pipeline)
//   regs_out      PendAcrf -> PendPcrf    (live registers moved to the PCRF)
//   regs_in       PendPcrf -> PendAcrf    (registers restored into the ACRF)
//   context_in    PendAcrf -> Active
//   finish        Active -> Free
// A switch-out is context_out then regs_out; a restore regs_in then
// context_in, never context first.
//
// Switch-in candidates (select_ready): ready pending CTAs, those in (1,2)
// before those in (1,1) (no register movement needed first), the longest
// pending first within a class.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace simtlm::models::finereg {

enum class Where : uint8_t { None = 0, Stored = 1, InPlace = 2 };  // the 2-bit field values

enum class CtaSwitchState : uint8_t { Free, Active, PendAcrf, PendPcrf };
const char* to_string(CtaSwitchState s);

inline constexpr uint32_t kNoCta = ~0u;

class CtaStatusMonitor {
 public:
  explicit CtaStatusMonitor(uint32_t slots);

  uint32_t slots() const { return static_cast<uint32_t>(ctx_.size()); }
  Where context(uint32_t slot) const { return ctx_[slot]; }
  Where registers(uint32_t slot) const { return reg_[slot]; }
  // The state of the two fields; Error(Internal) for (2,1) and other
  // encodings no transition produces.
  CtaSwitchState state(uint32_t slot) const;
  bool active(uint32_t slot) const { return ctx_[slot] == Where::InPlace && reg_[slot] == Where::InPlace; }

  // The transitions above; Error(Internal) naming the slot, the transition
  // and the state when it does not apply.
  void launch(uint32_t slot);
  void launch_pending(uint32_t slot);
  void context_out(uint32_t slot);
  void regs_out(uint32_t slot);
  void regs_in(uint32_t slot);
  void context_in(uint32_t slot);
  void finish(uint32_t slot);

  // The pending CTA to switch in: among slots for which ready(slot) holds,
  // PendAcrf before PendPcrf, then the one pending longest; kNoCta if none.
  uint32_t select_ready(const std::function<bool(uint32_t)>& ready) const;

  uint32_t count(CtaSwitchState s) const;
  // Storage: 2 fields x 2 bits per slot (64 B for 128 slots).
  uint64_t storage_bits() const { return uint64_t(slots()) * 4; }

 private:
  void expect(uint32_t slot, CtaSwitchState want, const char* transition) const;
  void set(uint32_t slot, Where ctx, Where reg);

  std::vector<Where> ctx_;
  std::vector<Where> reg_;
  std::vector<uint64_t> pending_since_;  // order of switch-out (oldest first)
  uint64_t order_ = 0;
};

}  // namespace simtlm::models::finereg
