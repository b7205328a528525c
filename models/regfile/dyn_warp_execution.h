// Dynamic Warp Execution (Jatala §2.3.3, seed note 000 §2.7), chosen by
// gpu.sm.regfile.sharing_dyn.enabled with register sharing: the long-latency
// memory instructions of non-owner warps are throttled where they make an SM
// stall more than a reference SM that never issues them.
//
// - Non-owner: the class OWF uses (SharingAllocator::sharing_class, the
//   note's implementation advice of §2.5): the CTA of a pair whose partner
//   holds shared-register locks, or, while neither holds one, the younger.
//   A non-owner holds no lock, so no warp ever waits for a throttled one
//   (the hazard of the note's §7 item 12); it stops being throttled when its
//   partner completes. Throttling only CTAs whose partner already holds a
//   lock would throttle almost nothing: with t = 0.1 a thread's private
//   registers are its first 2-6, so such a CTA's warps stop at the lock
//   within a few instructions, before their memory instructions. Register
//   sharing only (Config::validate refuses it with scratchpad sharing, where
//   a throttled CTA could hold the scratchpad lock its partner waits for).
// - Gated instructions: memory instructions whose lanes may go to the memory
//   hierarchy (global, local and generic paths); shared-memory, constant and
//   parameter accesses are short and pass.
// - SM 0 is the reference: its probability is 0, so it never issues a gated
//   instruction. Every other SM starts at probability 1.
// - Every `window` cycles the controller compares each SM's stalls in the
//   window with SM 0's: more stalls lower the SM's probability by `step`,
//   fewer raise it, within [0, 1]. Stalls are the thesis's "pipeline stall
//   cycles" (§4.1 metric 4): issue slots lost to a busy execution unit or
//   LD/ST unit (SmStats::slot_pipeline + slot_memory); throttled slots are
//   left out so that the gate's own refusals on SM 0 do not feed back.
// - Deterministic realisation of the probability (the thesis gives none): a
//   credit counter per SM. Every check of a gated instruction adds P to the
//   credit; the instruction issues when the credit reaches 1, which costs 1,
//   otherwise its warp is not ready this cycle (a throttled slot) and retries.
//   So P = 0.3 lets through exactly 3 of every 10 checks, evenly spread, with
//   no random numbers.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/regfile/sharing_allocator.h"
#include "models/sm/issue_gate.h"
#include "models/sm/inst_timing.h"
#include "simtlm/stats.h"

namespace simtlm::models::regfile {

// Probabilities in millionths.
inline constexpr uint64_t kDynOne = 1000000;

// The per-SM probabilities and their window update (the GPU-level part).
class DynWarpController {
 public:
  DynWarpController(unsigned num_sms, double step);
  // Probabilities back to the start: SM 0 at 0, the others at 1.
  void reset();
  // One window ended; `stalls[i]` = stalls of SM i during it.
  void end_window(const std::vector<uint64_t>& stalls);
  uint64_t probability(unsigned sm) const { return p_.at(sm); }
  unsigned num_sms() const { return static_cast<unsigned>(p_.size()); }
  uint64_t windows() const { return windows_; }

 private:
  std::vector<uint64_t> p_;
  uint64_t step_;
  uint64_t windows_ = 0;
};

// The issue gate of one SM.
class DynWarpGate final : public IssueGate {
 public:
  DynWarpGate(const DynWarpController& controller, unsigned sm, const SharingAllocator& registers);
  const char* name() const override { return "dynamic warp execution"; }
  bool allows(const GateQuery& query, sched::StallKind& stall) override;
  void reset_credit() { credit_ = 0; }
  // sharing.dyn.gated_memory_instructions and passed_memory_instructions.
  void register_stats(const stats::Group& group);

  uint64_t gated() const { return gated_; }
  uint64_t passed() const { return passed_; }

 private:
  const DynWarpController& controller_;
  unsigned sm_;
  const SharingAllocator& registers_;
  uint64_t credit_ = 0;  // millionths
  uint64_t gated_ = 0;   // checks refused
  uint64_t passed_ = 0;  // non-owner memory instructions let through
};

// Whether the gate applies to an instruction on this path.
bool dyn_gated_path(MemPath path);

}  // namespace simtlm::models::regfile
