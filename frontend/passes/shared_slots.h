// The launch-shape stage of the unified on-chip allocation (Hayes & Zhang,
// seed note 001 §1.2, §1.4-1.5, §5; docs/unified-allocation.md): spill slots
// in the shared memory the kernel does not use.
//
// With spill = shared the whole allocation runs here, per kernel variant
// (the slots need the block size, and whether the slot pointer is worth a
// register depends on them): unified_allocate_shared_kernel
//   a. computes N_smem, the shared slots per thread that keep the occupancy
//      R gives: target = resident threads at R registers with the user's
//      static + dynamic shared memory (occupancy_model.h), N_smem the largest
//      count for which the CTA with N_smem x threads x 4 more bytes still
//      reaches the target (and stays within a CTA's shared memory);
//   b. when N_smem > 0, allocates the kernel into R - 1 registers (one is
//      the slot pointer, counted in R) with local spill slots
//      (unified_alloc.h) and places them (place_shared_slots_kernel, below);
//   c. when that places no slot in shared memory (N_smem = 0, R - 1 too
//      small for the kernel, no spill slot fitting N_smem, or the pointer
//      pushing the colouring above R), allocates the original kernel into
//      all R registers with local slots instead: the pointer is reserved
//      only when shared slots are used (the summary says why not).
// place_shared_slots_kernel does what the seed's binary rewriter did with
// nvcc's local spills:
//   1. the candidates are the local slots the spill code accesses; an
//      8-byte slot (a 64-bit value) needs two 4-byte shared slots (width 2
//      in the pruning and the colouring); a slot is live from a spill store
//      to the spill loads that read it (backward dataflow over the CFG, a
//      store kills);
//   2. prune_to_slots to N_smem (§1.4; priority SharedSlotOptions::priority,
//      with PrunePriority::Accesses the accesses weighted 10x per loop level,
//      at most 3), colour_slots within N_smem (§1.5); the slots that found
//      no shared slot stay in local memory;
//   3. the chosen accesses become ld/st.shared at
//        base + (slot x threadsPerCTA + tid) x 4,
//      tid the linear thread index, base the end of the user's static +
//      dynamic shared memory rounded up to 4: consecutive threads of a warp
//      touch consecutive words (no bank conflict), each thread its own
//      words. A register %ua_sp = base + tid x 4 is set at entry, the slot's
//      row is the immediate offset. A 64-bit value's two rows are read
//      with two ld.shared.b32 and joined by mov.b64 d, {lo, hi}, written
//      with mov.b64 {lo, hi}, s and two st.shared.b32 (lo, hi: new 32-bit
//      registers, in the colouring);
//   4. the kernel's static_shared_bytes grows so that static + dynamic
//      covers the slots: both backends allocate them and CTA admission sees
//      them.
// Steps 1-4 run with and without the 8-byte slots as candidates (their
// words change which live sets are over the limit, hence the pruning of the
// others); the placement that moves more local accesses to shared memory
// (weighted 10x per loop level) is kept, the one without on a tie or when
// the halves' temporaries push the count above R (wide_dropped). When the
// pointer makes the colouring exceed R (the allocation reserved a register
// for it, but a greedy colouring is not monotonic) the placement is not
// applied (kept_local).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/slot_colouring.h"
#include "frontend/passes/unified_alloc.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kUnifiedSharedPass = "unified_alloc_shared";
inline constexpr const char* kSlotPointerName = "%ua_sp";

struct SharedSlotOptions {
  uint32_t registers = 0;  // the budget R (sets the occupancy to keep)
  OccupancyLimits limits;
  PrunePriority priority = PrunePriority::LiveSets;
  std::string where = "unified_alloc_shared";
};

// What the stage did to one kernel.
struct SharedSlotPlacement {
  std::string kernel;
  uint32_t threads = 0;            // per CTA
  uint32_t target_threads = 0;     // resident threads per SM at R (kept)
  uint32_t slots_per_thread = 0;   // N_smem
  uint32_t candidates = 0;         // local slots (any size)
  uint32_t wide_candidates = 0;    // of which 8-byte
  uint32_t max_live = 0;           // of the candidates placed, in 4-byte words
  uint32_t shared_slots = 0;       // slots used in shared memory
  uint32_t shared_values = 0;      // local slots moved to shared memory
  uint32_t wide_values = 0;        // of which 8-byte (two shared slots each)
  uint32_t local_slots = 0;        // slots left in local memory (any size)
  uint32_t shared_accesses = 0;    // spill loads and stores rewritten
  uint64_t base = 0;               // first byte of the slots in the CTA's shared memory
  uint64_t bytes = 0;              // slots x threads x 4
  bool kept_local = false;         // the pointer did not fit R
  bool wide_tried = false;         // kept_local with 8-byte values placed
  bool wide_dropped = false;       // placed without the 8-byte slots, which would have been placed
  bool wide_over_r = false;        // because they pushed the count above R (else: fewer accesses moved)
  double moved_weight = 0.0;       // local accesses moved, 10x per loop level (the choice with / without 8-byte)
  std::string summary() const;
};

// Shared slots per thread (N_smem) that keep the occupancy of R for the
// kernel `fn` as the user wrote it (its static_shared_bytes are the user's).
uint32_t shared_slots_for(const ir::Function& fn, const LaunchShape& shape, const SharedSlotOptions& options);

// Steps a-c above for the analysed, untransformed kernel module.functions[fi]:
// the allocation with shared slots when they are used, else with all R
// registers and local slots only.
struct SharedAllocation {
  KernelAllocation allocation;   // of the variant applied
  SharedSlotPlacement placement;  // shared_values = 0 when not applied
  bool pointer = false;           // the slot pointer is reserved and used
  std::string fallback;           // why not, when values were spilled and pointer = false
};
SharedAllocation unified_allocate_shared_kernel(ir::Module& module, uint32_t fi, const LaunchShape& shape,
                                                const SharedSlotOptions& options);

// Moves the local spill slots of a kernel allocated with SpillTarget::Shared
// (R - 1 registers for the values) to shared slots (steps 1-4).
SharedSlotPlacement place_shared_slots_kernel(ir::Module& module, ir::Function& fn, const LaunchShape& shape,
                                              const SharedSlotOptions& options);

// Options of the pass from the occupancy limits (the runtime and the CLI
// fill them from the preset).
void set_shared_slot_options(PassOptions& options, uint32_t registers, const OccupancyLimits& limits,
                             PrunePriority priority = PrunePriority::LiveSets);

void add_unified_shared_pass(PassRegistry& registry);

}  // namespace simtlm::frontend::passes
