// The front-end pass `power_states` (GREENER, Jatala thesis Ch. 4; seed note
// 000 §2.12): runs the power-state analysis (power_analysis.h) on each
// kernel's physical registers and attaches, per instruction, the states the
// instruction encodes and those the register file applies.
//
// Registers are the front end's physical 32-bit registers
// (FunctionAnalysis::phys_regs, the numbering the register banks and the
// timing model use; a 64-bit value is two of them) and, after them, the
// predicate registers (analysed and printed as the thesis annotates `$p2`;
// predicates are not in the register banks, so the timing model ignores them).
// Constant-bank values (kernel parameters, %ntid) have no register.
//
// Encoding (§4.2.2): one destination and two sources, in operand order, as in
// Fig. 4.3: the first register of the destination operands (a vector's first
// element; the second destination of setp p|q is not encoded), then the first
// two register sources, not counting address registers ([%rd1]) and
// immediates. An operand of several registers (64-bit) carries the state that
// keeps the most among its registers' states (ON > SLEEP > OFF). Every other
// register the instruction touches (address registers, a third source, the
// guard, further destinations) is not encoded and enters SLEEP, as the thesis
// says.
//
//   power_states.enabled=true   off by default; the runtime enables it when
//                               gpu.sm.regfile.power_scheme = greener
//   power_states.window=W       the threshold W in instructions (1..64, default 3)
//   power_states.divergence_rule=false   per-thread liveness only (unsafe; for experiments)
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/power_analysis.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kPowerStatesPass = "power_states";
inline constexpr const char* kPowerStatesColumn = "power_states.states";
inline constexpr uint32_t kDefaultPowerWindow = 3;
inline constexpr uint32_t kMaxPowerWindow = 64;

// What one instruction carries.
struct PowerAnnotation {
  // The encoded slots in the seed's order: operand index (Instruction::ops),
  // element inside a vector operand (0 otherwise), the state.
  struct Slot {
    uint16_t operand = 0;
    uint16_t element = 0;
    PowerState state = PowerState::On;
  };
  std::vector<Slot> encoded;
  // Each physical 32-bit register the instruction reads or writes, with the
  // state it enters after the access (sources after the operand read,
  // destinations after the writeback).
  struct Reg {
    uint16_t reg = 0;
    PowerState state = PowerState::Sleep;
  };
  std::vector<Reg> regs;
};

// Runs the analysis on one analysed function (FunctionAnalysis::analyses):
// one annotation per instruction. `divergence_rule` false drops the SIMT rule
// (registers other lanes of a divergent region still need stay live): only to
// show what it prevents (docs/greener.md, "Divergence").
std::vector<PowerAnnotation> power_states(const ir::Function& fn, uint32_t window, bool divergence_rule = true);

// Registers the pass in `registry` (the global one registers it at start).
void add_power_states_pass(PassRegistry& registry);

// Prints the annotated kernel in the thesis's style: labels, then each
// instruction with its power-state list after the operands
// (`add.s32 %r3, %r1, %r2, ON, SLEEP, OFF;`). Needs the column attached.
void print_power_states(std::ostream& out, const ir::Module& module, const ir::Function& fn);

}  // namespace simtlm::frontend::passes
