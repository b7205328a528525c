// GREENER's compile-time register power-state analysis (Jatala, thesis Ch. 4
// §4.2.1; seed note 000 §2.12), on an abstract instruction-level flow graph so
// that the thesis's own example (Fig. 4.3, PTXPlus registers) and our kernels
// (physical registers of the front end's allocation, power_states_pass.h) run
// through the same code.
//
// For every instruction S and register R, backwards to a fixed point:
//
//   Dist(IN(S),R)  = 1 if S accesses R (reads or writes it), else INC(Dist(OUT(S),R))
//   INC(x)         = INF if x == W or x == INF, else x + 1         (saturating)
//   Dist(OUT(S),R) = INF if S leaves the function, else MAX over the successors SS
//                    of Dist(IN(SS),R)                            (MAX: favour saving)
//   SleepOff       = Dist(OUT(S),R) == INF
//   isLive         = R is read on some path from OUT(S) before it is written
//
// and Table 4.1 gives the state R enters after S accesses it:
//
//   isLive  SleepOff  Power(OUT(S),R)
//   true    true      SLEEP   (needed again, but not soon: keep the data, drowsy)
//   true    false     ON
//   false   true      OFF     (the value is dead: gate it)
//   false   false     ON      (rewritten soon: a wake-up from OFF would not pay)
//
// Dist has a unique fixed point (in a cycle without an access to R every value
// must exceed its successor's, which only INF does), reached by iterating
// from 1 upwards; values stay in {1..W} ∪ {INF}.
//
// SIMT (not in the thesis): a warp's lanes share one physical register, so a
// register that lanes waiting on another path of a divergent branch (or at its
// reconvergence point) still need must not be turned OFF by the lanes running
// now. PowerProblem::keep_live adds such registers to the live-out sets of the
// instructions of a divergent region (power_states_pass.cpp computes them;
// docs/greener.md, "Divergence").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::frontend::passes {

enum class PowerState : uint8_t { On = 0, Sleep = 1, Off = 2 };
// "ON", "SLEEP", "OFF" (the thesis's spelling).
const char* to_string(PowerState s);
// The state that keeps more: ON over SLEEP over OFF (for an operand made of
// several registers, e.g. a 64-bit value in a register pair).
inline PowerState keep_more(PowerState a, PowerState b) { return a < b ? a : b; }

// One instruction of the flow graph.
struct PowerInst {
  std::vector<uint32_t> uses;        // registers read (operands, address bases, guard)
  std::vector<uint32_t> defs;        // registers written
  bool defs_conditional = false;     // guarded: a write does not kill the old value (liveness)
  std::vector<uint32_t> succs;       // successor instructions
  bool leaves = false;               // also (or only) leaves the function: Dist INF, nothing live there
};

struct PowerProblem {
  uint32_t num_regs = 0;
  uint32_t window = 3;               // W, >= 1
  std::vector<PowerInst> insts;
  // Registers to keep live at OUT of some instructions (divergent regions).
  struct KeepLive {
    std::vector<uint32_t> insts;
    std::vector<uint32_t> regs;
  };
  std::vector<KeepLive> keep_live;
};

class PowerAnalysis {
 public:
  // Error(Internal) for W = 0 or > kMaxWindow, a register or successor out of range.
  explicit PowerAnalysis(const PowerProblem& problem);
  static constexpr uint32_t kMaxWindow = 250;

  uint32_t window() const { return window_; }
  uint32_t infinity() const { return window_ + 1; }  // the value INF is stored as
  // Dist(IN(S),R) and Dist(OUT(S),R), in 1..W or infinity().
  uint32_t dist_in(uint32_t inst, uint32_t reg) const { return dist_in_[idx(inst, reg)]; }
  uint32_t dist_out(uint32_t inst, uint32_t reg) const;
  bool live_out(uint32_t inst, uint32_t reg) const { return live_out_[idx(inst, reg)] != 0; }
  bool live_in(uint32_t inst, uint32_t reg) const { return live_in_[idx(inst, reg)] != 0; }
  // Table 4.1 at OUT(S).
  PowerState power_out(uint32_t inst, uint32_t reg) const;
  // Passes over the instructions until Dist was stable (for tests of the fixed point).
  uint32_t dist_passes() const { return dist_passes_; }

 private:
  size_t idx(uint32_t inst, uint32_t reg) const { return static_cast<size_t>(inst) * num_regs_ + reg; }
  void solve_dist(const PowerProblem& p);
  void solve_liveness(const PowerProblem& p);

  uint32_t window_;
  uint32_t num_regs_;
  std::vector<std::vector<uint32_t>> succs_;
  std::vector<char> leaves_;
  std::vector<uint8_t> dist_in_;   // insts x regs
  std::vector<char> live_in_, live_out_;
  uint32_t dist_passes_ = 0;
};

}  // namespace simtlm::frontend::passes
