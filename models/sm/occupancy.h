// How many CTAs of one shape an empty SM can hold, per resource, and which
// resource binds. The SM's admission (Sm::max_resident_ctas), `simtlm list
// --details` and the workload-class tests all use this one computation, so the
// occupancy a user reads is the one the CTA dispatcher applies. Registers and
// shared memory are asked of the allocators named by the configuration
// (gpu.sm.regfile.alloc_policy / gpu.sm.smem.alloc_policy).
#pragma once

#include <cstdint>
#include <string>

#include "models/regfile/allocator.h"
#include "models/sm/resources.h"
#include "models/sm/sm_params.h"
#include "models/smem/allocator.h"

namespace simtlm::models {

// A resource that a CTA does not use at all (no registers, no shared memory)
// reports this bound.
inline constexpr uint32_t kUnbounded = 1u << 16;

struct OccupancyLimits {
  uint32_t by_threads = 0;        // max_threads / warp-padded threads (and warp slots)
  uint32_t by_cta_slots = 0;      // gpu.sm.max_ctas
  uint32_t by_registers = 0;      // register allocator
  uint32_t by_shared_memory = 0;  // shared-memory allocator
  uint32_t ctas = 0;              // the minimum: resident CTAs per SM

  // The binding resource(s): "threads", "CTA slots", "registers" or
  // "shared memory"; ties are joined with " + " in that order.
  std::string limiter() const;
  bool limited_by_threads() const { return by_threads == ctas; }
  bool limited_by_cta_slots() const { return by_cta_slots == ctas; }
  bool limited_by_registers() const { return by_registers == ctas; }
  bool limited_by_shared_memory() const { return by_shared_memory == ctas; }
};

// The allocator parameters an SM with `params` uses, with a slot table of
// `cta_slots` CTAs (the SM's max_ctas; occupancy_limits asks with kUnbounded
// so that the answer is the resource's own bound, the slot limit being
// reported on its own).
regfile::AllocatorParams register_allocator_params(const SmParams& params, uint32_t cta_slots);
smem::AllocatorParams shared_allocator_params(const SmParams& params, uint32_t cta_slots);

// Limits for CTAs of `shape` on an empty SM with parameters `params`. A shape
// with no warps or another warp size than the SM's fits nowhere (all zero).
OccupancyLimits occupancy_limits(const SmParams& params, const CtaShape& shape);

// The shape of a CTA of `threads` threads with `regs_per_thread` registers and
// `shared_bytes` of static + dynamic shared memory on an SM of `warp_size`.
CtaShape cta_shape(uint32_t threads, uint32_t warp_size, uint32_t regs_per_thread,
                   uint64_t shared_bytes);

}  // namespace simtlm::models
