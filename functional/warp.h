// A warp of the functional SIMT engine: per-lane registers, carry flags, the
// live/active lane masks and the reconvergence (SIMT) stack. The functional
// backend (functional/launch.cpp) and the timing model both drive warps
// through functional::execute() (functional/executor.h); the timing model
// decides *when* a warp issues, the executor what the instruction does.
//
// ---------------------------------------------------------------------------
// Design decisions of the functional engine (copied to docs/architecture.md)
// ---------------------------------------------------------------------------
// Register storage. Register-major lane arrays: value of register r in lane l
//   is regs[r * W + l] (uint64_t), holding the value in the low bytes of the
//   register's type, zero-extended (the ALU convention of functional/alu.h).
//   Predicates are 0/1. Registers start at zero (deterministic). A load of a
//   signed type narrower than its destination register sign-extends to the
//   register's declared width; unsigned/bit types zero-extend.
// Warp width W is a run-time value 1..64. Threads are packed into warps in
//   linear thread-id order (x fastest); lanes of a partial last warp beyond the
//   CTA's thread count are never live.
// SIMT stack. Entries {pc, rpc, mask}; the top entry is the executing path
//   (its mask = the active mask). A branch whose active lanes disagree pushes
//   one entry per distinct target (paths whose target already is the
//   reconvergence pc are not pushed: those lanes simply wait) after turning
//   the top entry into the reconvergence entry (pc = branch's
//   Instruction::reconverge_pc). When the branch's reconvergence pc equals the
//   top entry's own rpc (loops, nested branches sharing an ipdom) the top entry
//   is replaced instead, so loops with divergent trip counts keep the stack
//   bounded. An entry is popped when its pc reaches its rpc or its mask becomes
//   empty. rpc = ir::kNoReconvergence means "reconverge at thread exit".
//   Path order: the fall-through path runs first, then the taken path(s)
//   (brx.idx: groups in order of their lowest lane).
// Guards. Lanes whose guard predicate is false do not execute but stay active;
//   a guarded branch/exit diverges on (active & guard).
// Exit. ret/exit in the kernel (and running off its end) retires the
//   executing lanes: removed from the live mask and from every stack entry;
//   emptied entries are popped. A warp with no live lanes is finished.
// Barriers (bar.sync/barrier.sync/bar.arrive/bar.red, ids 0..15) execute per
//   warp, as the PTX ISA describes for `bar`: when any lane of a warp executes
//   the barrier, the warp arrives with all its LIVE threads (exited threads
//   never count; lanes parked on another path of a divergent branch do, so
//   `if (t < n) return; ... __syncthreads()` and a barrier inside a divergent
//   branch behave as on hardware). Without a thread count the barrier
//   completes when all live threads of the CTA have arrived, re-checked
//   whenever threads exit; with a count b when b threads have arrived. A
//   waiting warp has already advanced past the barrier and does not issue
//   until released; bar.red reduces the executing lanes' predicates and
//   writes the result to them on release. If no warp of a CTA can issue and
//   some wait, the launch fails with Error(Deadlock) naming the waiting warps,
//   their barrier, PTX line and arrival count.
// Warp collectives (shfl.sync, vote.sync, activemask, %laneid, %lanemask_*)
//   operate on 32-lane segments of the warp: for W <= 32 the segment is the
//   whole warp (source lanes >= W are out of range, ballot bits >= W are 0);
//   for W > 32 each 32-lane half behaves like a 32-wide warp, so warp-
//   synchronous code written for 32 lanes gives the same results at W = 64.
//   WARP_SZ (`warpSize`) is the segment width, min(W, 32), so code that
//   derives lane numbers and shuffle offsets from warpSize agrees with them.
//   Membermask bit i selects lane i of the executing lane's segment. A shuffle
//   whose source lane is out of range, not executing or beyond the warp
//   returns the executing lane's own value (the predicate output follows the
//   ISA's clamp rule only). Lanes not in membermask do not participate in vote.
// Memory. Global/const/module .global via GlobalMemory (bounds-checked per
//   allocation); shared = the CTA's buffer (static + dynamic, zero-filled);
//   local = a per-thread frame of Function::local_bytes; param = the kernel
//   parameter buffer (read-only). A symbol used as a value yields its address
//   in its own space (shared offset, local offset, param offset, device
//   address) as nvcc expects (`mov.u32 %r, smem` then ld.shared [%r]); cvta
//   adds/subtracts the generic windows of functional/launch.h. Every access is
//   checked for alignment to its full size (element size x vector length) and
//   bounds before any lane writes anything; a violation is Error(Fault) naming
//   kernel, PTX line and text, CTA, thread and address.
// Atomics/reductions execute lane by lane in increasing lane order.
// Special registers: %warpid = warp index in the CTA, %nwarpid = warps per
//   CTA, %smid = Cta::sm_id() (0 in the functional backend), %nsmid/%gridid
//   from the launch request; %clock/%clock64/
//   %globaltimer are a deterministic per-CTA count of executed warp
//   instructions unless the timing model supplies a cycle counter.
// Pre-decode. LaunchContext translates every instruction once per launch (for
//   the launch's W): handler, cached ALU kernel, operands as register lane-
//   array offsets or pre-broadcast constants (immediates, symbol addresses).
//   Frequent shapes (scalar shared/local/param loads and shared/local stores
//   with a register address) get fused fast paths. An instruction the engine
//   cannot execute (unsupported type/modifier, unregistered extension) is an
//   Error(Ptx) naming file and line when a warp executes it with at least one
//   lane, not at launch (dead code in nvcc output does not fail a launch).
//   Built-in extensions: trap = Error(Fault); bar.warp.sync = no-op (lanes of
//   a warp run in lockstep).
// Functional backend scheduling (run_launch): CTAs one at a time in linear
//   CTA-id order; warps of a CTA round-robin, each up to 1024 instructions or
//   until it waits at a barrier or finishes. Deterministic; spin-waits between
//   warps of one CTA progress; a CTA spinning on a flag set by a later CTA
//   never finishes (no watchdog yet).
// ---------------------------------------------------------------------------
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "frontend/ir/instruction.h"

namespace simtlm::functional {

// Population count that inlines without -mpopcnt (the builtin would call
// libgcc's table-driven __popcountdi2 on baseline x86-64).
inline unsigned popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

// What the executed instruction was, for the timing model's pipelines.
enum class ExecClass : uint8_t {
  Int,         // integer/logic/shift/compare/select/mov/cvta/isspacep
  Fp,          // single/half precision floating point (incl. conversions)
  Sfu,         // transcendental / reciprocal / square root / float division
  Dp,          // double precision
  Load,        // ld/ldu
  Store,       // st
  Atomic,      // atom (returns a value)
  Reduction,   // red (no return value)
  Branch,      // bra/brx.idx
  Barrier,     // bar/barrier
  Exit,        // ret/exit
  Collective,  // shfl/vote/activemask
  Nop,         // membar/fence/prefetch/nanosleep (no functional effect)
  Extension,   // registered extension instruction
};

// The result of executing one warp instruction. Lives inside its Warp (a
// fixed per-warp buffer reused by every instruction, no allocation).
struct ExecRecord {
  const ir::Instruction* inst = nullptr;  // nullptr for the implicit exit past the end
  uint32_t pc = 0;              // index of the executed instruction
  ExecClass cls = ExecClass::Nop;
  uint64_t active_mask = 0;     // lanes active when the instruction issued
  uint64_t exec_mask = 0;       // active lanes whose guard predicate held
  // Memory instructions (Load/Store/Atomic/Reduction): per-lane addresses,
  // index = lane, valid for lanes in exec_mask. Addresses are in `space`
  // (shared/local offsets, param offsets, device addresses for global/const,
  // generic addresses for generic accesses).
  ir::StateSpace space = ir::StateSpace::None;
  uint32_t access_bytes = 0;    // bytes per lane (element size x vector length)
  const uint64_t* addresses = nullptr;
  uint64_t shared_lanes = 0;    // generic accesses: lanes that hit the shared window
  uint64_t local_lanes = 0;     // generic accesses: lanes that hit the local window
  // Control flow.
  bool taken = false;           // branch: some lane took it
  bool diverged = false;        // branch: lanes went different ways
  uint32_t next_pc = 0;         // pc of the warp after this instruction
  uint64_t exited_lanes = 0;    // lanes retired by this instruction
  bool waiting = false;         // the warp now waits at a barrier
  bool released = false;        // this instruction completed a barrier (other warps woke up)
  bool finished = false;        // the warp has no live lanes left
};

class Warp {
 public:
  struct StackEntry {
    uint32_t pc = 0;
    uint32_t rpc = ir::kNoReconvergence;
    uint64_t mask = 0;
  };

  // width: lanes (1..64); num_regs: virtual registers of the kernel;
  // index: warp index in its CTA; first_thread: linear thread id of lane 0;
  // live_mask: lanes holding a thread. zero_regs: the registers to zero
  // (ir::FunctionAnalysis::registers_to_zero), the others are left
  // undefined; nullptr zeroes every register.
  Warp(unsigned width, uint32_t num_regs, uint32_t index, uint32_t first_thread,
       uint64_t live_mask, const std::vector<uint32_t>* zero_regs = nullptr);
  // Move-only: the record points into the warp's own buffers.
  Warp(const Warp&) = delete;
  Warp& operator=(const Warp&) = delete;
  Warp(Warp&&) = default;
  Warp& operator=(Warp&&) = default;

  unsigned width() const { return width_; }
  uint32_t index() const { return index_; }
  uint32_t first_thread() const { return first_thread_; }

  // Control state. pc() is undefined once finished().
  uint32_t pc() const { return stack_.back().pc; }
  uint64_t active_mask() const { return stack_.empty() ? 0 : stack_.back().mask; }
  uint64_t live_mask() const { return live_; }
  bool finished() const { return stack_.empty(); }
  bool waiting() const { return waiting_; }
  unsigned barrier_id() const { return barrier_id_; }
  bool can_issue() const { return !stack_.empty() && !waiting_; }
  const std::vector<StackEntry>& stack() const { return stack_; }

  // Registers: lane array of register r (W values).
  uint64_t* reg(uint32_t r) { return regs_.get() + size_t(r) * width_; }
  const uint64_t* reg(uint32_t r) const { return regs_.get() + size_t(r) * width_; }
  uint64_t* regs() { return regs_.get(); }
  uint64_t* carry() { return carry_.data(); }
  uint32_t num_regs() const { return num_regs_; }

  // Counters.
  uint64_t instructions() const { return instructions_; }
  uint64_t thread_instructions() const { return thread_instructions_; }
  // Global-memory accesses at element granularity (LaunchStats::offchip_accesses).
  uint64_t offchip_accesses() const { return offchip_accesses_; }
  void count_offchip(uint64_t elements) { offchip_accesses_ += elements; }

  // --- control-flow primitives (used by the executor) -----------------------
  // pc := pc + 1, then reconverge if the top entry reached its rpc.
  void advance();
  // Uniform jump of the whole top entry.
  void jump(uint32_t target);
  // Two-way branch: `taken` (subset of the active mask) goes to `target`, the
  // other active lanes fall through to pc + 1; `rpc` is the branch's
  // reconvergence pc. Returns true when the lanes diverged.
  bool branch(uint64_t taken, uint32_t target, uint32_t rpc);
  // Multi-way branch (brx.idx): lanes of masks[i] go to targets[i]; groups are
  // disjoint, non-empty and cover the active mask. Returns true when n > 1.
  bool branch_multi(const uint32_t* targets, const uint64_t* masks, unsigned n, uint32_t rpc);
  // Retire lanes (exit): removes them from the live mask and every entry.
  void retire(uint64_t lanes);

  // Barrier wait state (managed by Cta).
  void set_waiting(unsigned barrier_id, uint64_t lanes, int32_t red_dst_offset, uint32_t pc);
  void clear_waiting() { waiting_ = false; }
  uint64_t barrier_lanes() const { return barrier_lanes_; }
  int32_t barrier_red_dst() const { return barrier_red_dst_; }
  uint32_t barrier_pc() const { return barrier_pc_; }  // pc of the barrier waited at

  // --- executor internals -----------------------------------------------------
  ExecRecord& record() { return record_; }
  const ExecRecord& record() const { return record_; }
  // Scratch lane arrays for materialised operands (special registers, negated
  // predicates) and for memory-access bookkeeping; sized at construction.
  uint64_t* scratch(unsigned slot) { return scratch_.data() + size_t(slot) * width_; }
  static constexpr unsigned kScratchSlots = 8;
  uint64_t* addresses() { return addresses_.data(); }
  uint8_t** host_pointers() { return host_ptrs_.data(); }
  void count(uint64_t active) {
    ++instructions_;
    thread_instructions_ += popcount64(active);
  }

 private:
  void push(uint32_t pc, uint32_t rpc, uint64_t mask) { stack_.push_back({pc, rpc, mask}); }
  void settle();  // pop entries that reached their rpc or became empty
  void open_divergence(uint32_t rpc);

  unsigned width_;
  uint32_t num_regs_;
  uint32_t index_;
  uint32_t first_thread_;
  uint64_t live_;
  // Not value-initialised: zeroing every register of every warp at each CTA
  // launch was a few percent of a timing simulation (see zero_regs).
  std::unique_ptr<uint64_t[]> regs_;
  std::vector<uint64_t> carry_;
  std::vector<StackEntry> stack_;
  bool waiting_ = false;
  unsigned barrier_id_ = 0;
  uint64_t barrier_lanes_ = 0;
  int32_t barrier_red_dst_ = -1;
  uint32_t barrier_pc_ = 0;
  uint64_t instructions_ = 0;
  uint64_t thread_instructions_ = 0;
  uint64_t offchip_accesses_ = 0;
  ExecRecord record_;
  std::vector<uint64_t> scratch_;
  std::vector<uint64_t> addresses_;
  std::vector<uint8_t*> host_ptrs_;
};

}  // namespace simtlm::functional
