// The occupancy model of the unified allocation (Hayes & Zhang §4, seed note
// 001 §1.6): the CUDA occupancy calculator's rules (resident CTAs of a kernel
// from its registers, shared memory and block size) and the inverse the
// seed's search uses (getRegSmem: the register budget and shared-memory
// slots per thread for a target number of resident threads).
//
// The front end has no Config: the runtime fills OccupancyLimits from the
// preset (gpu.sm.registers, gpu.sm.max_threads, ...). The rules are the
// calculator's for CC 2.0/3.0 as the seed note gives them [ext]: registers
// are allocated per warp in units of reg_alloc_unit, shared memory per CTA in
// units of smem_alloc_unit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/passes/pass_options.h"

namespace simtlm::frontend::passes {

struct OccupancyLimits {
  uint32_t registers_per_sm = 32768;
  uint32_t reg_alloc_unit = 64;        // registers, per warp
  uint32_t shared_bytes_per_sm = 49152;
  uint32_t smem_alloc_unit = 128;      // bytes, per CTA
  uint32_t max_threads_per_sm = 1536;
  uint32_t max_ctas_per_sm = 8;
  uint32_t warp_size = 32;
  uint32_t max_registers_per_thread = 63;
  uint32_t max_shared_bytes_per_cta = 49152;  // a CTA's static + dynamic shared memory (the launch check)
};

// The seed's two machines (§2.1 and the calculator's CC 2.0 / 3.0 units).
OccupancyLimits fermi_c2075();
OccupancyLimits kepler_gtx680();

// Resident CTAs per SM for a CTA of `threads` threads, `registers` per
// thread and `shared_bytes` per CTA (0 when the CTA does not fit).
uint32_t resident_ctas(const OccupancyLimits& l, uint32_t threads, uint32_t registers, uint32_t shared_bytes);
inline uint32_t active_threads(const OccupancyLimits& l, uint32_t threads, uint32_t registers, uint32_t shared_bytes) {
  return resident_ctas(l, threads, registers, shared_bytes) * threads;
}

// getRegSmem: for a target of `target_threads` resident threads (a multiple
// of `threads`), the largest register count (<= max_registers_per_thread)
// that still reaches it, and the 4-byte shared-memory slots each thread may
// use above the user's `user_shared_bytes` per CTA without lowering it.
// registers = 0 when no count reaches the target.
struct RegSmem {
  uint32_t registers = 0;
  uint32_t smem_slots_per_thread = 0;
};
RegSmem reg_smem_for(const OccupancyLimits& l, uint32_t threads, uint32_t target_threads, uint32_t user_shared_bytes);

// The limits as options of a front-end pass (the runtime fills them from the
// preset): sm_registers, reg_unit, sm_shared, smem_unit, max_threads,
// max_ctas, warp_size, max_registers, cta_shared.
const std::vector<std::string>& limit_option_keys();
void set_limit_options(PassOptions& options, const std::string& pass, const OccupancyLimits& limits);
// Error(Config) naming the pass and the key when one is missing or 0.
OccupancyLimits limit_options(const PassParams& params);

}  // namespace simtlm::frontend::passes
