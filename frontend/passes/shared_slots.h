// The launch-shape stage of the unified on-chip allocation (Hayes & Zhang,
// seed note 001 §1.2, §1.4-1.5, §5; docs/unified-allocation.md): spill slots
// in the shared memory the kernel does not use.
//
// The load-time pass unified_alloc (spill = shared) spilled the values that
// do not fit R to the local slot array `__unialloc_local`, keeping one
// register of R free for the slot pointer. This pass runs per kernel variant
// (it needs the block size) and does what the seed's binary rewriter did with
// nvcc's local spills:
//   1. the candidates are the 4- and 2-byte local slots the spill code
//      accesses (8-byte slots stay local: a second pointer, tid x 8, is not
//      built); a slot is live from a spill store to the spill loads that read
//      it (backward dataflow over the CFG, a store kills);
//   2. N_smem, the shared slots per thread, is the most that keeps the
//      occupancy R gives: target = resident threads at R registers with the
//      user's static + dynamic shared memory (occupancy_model.h), N_smem the
//      largest count for which the CTA with N_smem x threads x 4 more bytes
//      still reaches the target (and stays within a CTA's shared memory);
//   3. prune_to_slots to N_smem (§1.4), colour_slots within N_smem (§1.5);
//      the slots that found no shared slot stay in local memory;
//   4. the chosen accesses become ld/st.shared at
//        base + (slot x threadsPerCTA + tid) x 4,
//      tid the linear thread index, base the end of the user's static +
//      dynamic shared memory rounded up to 4: consecutive threads of a warp
//      touch consecutive words (no bank conflict), each thread its own
//      words. A register %ua_sp = base + tid x 4 is set at entry (the slot
//      pointer counted in R), the slot's row is the immediate offset;
//   5. the kernel's static_shared_bytes grows so that static + dynamic
//      covers the slots: both backends allocate them and CTA admission sees
//      them.
// When the pointer makes the colouring exceed R (the load stage reserved a
// register for it, but a greedy colouring is not monotonic) the kernel keeps
// its local slots; the summary says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kUnifiedSharedPass = "unified_alloc_shared";
inline constexpr const char* kSlotPointerName = "%ua_sp";

struct SharedSlotOptions {
  uint32_t registers = 0;  // the budget R (sets the occupancy to keep)
  OccupancyLimits limits;
  std::string where = "unified_alloc_shared";
};

// What the stage did to one kernel.
struct SharedSlotPlacement {
  std::string kernel;
  uint32_t threads = 0;            // per CTA
  uint32_t target_threads = 0;     // resident threads per SM at R (kept)
  uint32_t slots_per_thread = 0;   // N_smem
  uint32_t candidates = 0;         // 4- and 2-byte local slots
  uint32_t max_live = 0;           // of the candidates
  uint32_t shared_slots = 0;       // slots used in shared memory
  uint32_t shared_values = 0;      // local slots moved to shared memory
  uint32_t local_slots = 0;        // slots left in local memory (any size)
  uint32_t shared_accesses = 0;    // spill loads and stores rewritten
  uint64_t base = 0;               // first byte of the slots in the CTA's shared memory
  uint64_t bytes = 0;              // slots x threads x 4
  bool kept_local = false;         // the pointer did not fit R
  std::string summary() const;
};

std::vector<SharedSlotPlacement> place_shared_slots(ir::Module& module, const LaunchShape& shape,
                                                    const SharedSlotOptions& options);
// The same for one kernel of `module`.
SharedSlotPlacement place_shared_slots_kernel(ir::Module& module, ir::Function& fn, const LaunchShape& shape,
                                              const SharedSlotOptions& options);

// Options of the pass from the occupancy limits (the runtime and the CLI
// fill them from the preset).
void set_shared_slot_options(PassOptions& options, uint32_t registers, const OccupancyLimits& limits);

void add_unified_shared_pass(PassRegistry& registry);

}  // namespace simtlm::frontend::passes
