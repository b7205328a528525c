// The seed's inter-procedural slot layouts (Hayes & Zhang §3.2.1-3.2.2,
// seed note 001 §1.3, §1.4): how deep a chain of calls makes the per-thread
// slot stack under three frame layouts, the moves that compact a caller's
// live slots before a call (the Moving Stack), and Max-live over a call DAG.
//
// Our front end inlines every call (passes/inline_calls.h), so the kernels
// the pass `unified_alloc` rewrites have no call left and one frame; these
// functions are the layout arithmetic a non-inlining front end would use,
// checked against the seed's Fig. 3. Slot indices are 0-based.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simtlm::frontend::passes {

// A call chain P0 -> P1 -> ... -> Pk: the slots of each procedure's frame
// (its Max-live) and, for each call j < k, the caller's slots live across it.
struct CallChain {
  std::vector<uint32_t> frames;                   // k + 1 entries
  std::vector<std::vector<uint32_t>> live_across;  // k entries
};

// Frames stacked at full size (a CPU stack): sum of the frames.
uint32_t traditional_depth(const CallChain& chain);
// A register-stack architecture: each callee starts after its caller's
// highest live slot.
uint32_t register_stack_depth(const CallChain& chain);
// The Moving Stack: before each call the live slots are compacted to the
// lowest ones, and the callee starts right after them.
uint32_t moving_stack_depth(const CallChain& chain);
// Absolute first slot of each frame under the Moving Stack.
std::vector<uint32_t> moving_stack_bases(const CallChain& chain);

// The moves (from slot, to slot) that compact `live` (a caller's slots live
// across a call) into slots 0..|live|-1: every live slot at or above |live|
// goes to the lowest free slot below |live|, in ascending order. The
// callee's frame then starts at |live|. After the return the moves are undone
// in reverse (the seed leaves the return path open; we restore, so the
// caller's slot map does not change).
std::vector<std::pair<uint32_t, uint32_t>> compaction_moves(const std::vector<uint32_t>& live);

// §1.4 Max-live over a call DAG: MaxLive(P) = max over P's instructions of
// |Live-on-exit| + (the callee's MaxLive when the instruction is a call).
struct ProcedureLiveness {
  std::vector<uint32_t> live_on_exit;  // per instruction
  std::vector<int32_t> callee;         // per instruction: callee procedure, or -1
};
// Error(Input) naming the procedure when the call graph has a cycle
// (recursion has no static frame).
std::vector<uint32_t> max_live_over_calls(const std::vector<ProcedureLiveness>& procedures,
                                          const std::vector<std::string>& names);

}  // namespace simtlm::frontend::passes
