// Which bytes of its CTA's shared memory a warp's next instruction would
// touch, computed from the current register values without executing it.
// The timing model's scratchpad-sharing check (models/smem/sharing_allocator.h)
// asks it before issue, because the functional execution at issue cannot be
// undone once it has run.
#pragma once

#include <cstdint>

#include "functional/executor.h"
#include "functional/warp.h"

namespace simtlm::functional {

// The byte range [lo, hi) of the CTA's shared memory that the instruction at
// `pc` touches in the lanes that would execute it (active and guard true):
// shared-space loads, stores, atomics and reductions, and generic ones whose
// lanes fall in the shared window. False when no lane touches shared memory.
// Bounds are not checked here (execution reports a bad address).
bool shared_access_range(const LaunchContext& ctx, const Warp& warp, uint32_t pc, uint64_t& lo, uint64_t& hi);

}  // namespace simtlm::functional
