// FineReg's parameters (gpu.sm.regfile.finereg.*, models/finereg/finereg_config_keys.cpp)
// and those of its comparison mechanisms, Virtual Thread (gpu.sm.regfile.vt.*)
// and Reg+DRAM (gpu.sm.regfile.regdram.*), carried in SmParams and
// regfile::AllocatorParams.
#pragma once

#include <cstdint>

namespace simtlm::models::finereg {

// Virtual Thread's CTA switching logic, which FineReg adopts: 2.4 KB per SM
// (Oh et al. §V-F; seed note 004 §2.9), 2.4 x 8,192 bits rounded.
inline constexpr uint64_t kVtLogicBits = 19661;

struct FineRegParams {
  uint64_t acrf_bytes = 131072;
  uint64_t pcrf_bytes = 131072;
  uint32_t max_resident_ctas = 128;
  uint32_t max_resident_warps = 512;
  uint32_t pcrf_latency = 4;
  uint32_t cycles_per_register = 1;
  uint32_t vector_cache_entries = 32;
  bool restore_first = true;
  // New CTAs beyond the scheduling limits rest in free ACRF space as
  // PEND_ACRF (1,2); stalled CTAs switch their context only when their
  // partner or a new CTA fits beside their registers (docs/finereg.md).
  bool launch_beyond_limit = true;
  bool context_only_switch = true;
  bool check = false;
};

// Virtual Thread (alloc_policy = vt) and Reg+DRAM (alloc_policy = regdram):
// the pipeline context a pending CTA backs up in shared memory, and the
// off-chip register contexts of Reg+DRAM.
struct VtParams {
  uint32_t context_bytes_per_warp = 128;
  uint32_t context_bytes_per_cycle = 128;
  uint32_t max_offchip_ctas = 32;      // Reg+DRAM only
};

}  // namespace simtlm::models::finereg
