// FineReg's parameters (gpu.sm.regfile.finereg.*, models/finereg/finereg_config_keys.cpp),
// carried in SmParams and regfile::AllocatorParams.
#pragma once

#include <cstdint>

namespace simtlm::models::finereg {

struct FineRegParams {
  uint64_t acrf_bytes = 131072;
  uint64_t pcrf_bytes = 131072;
  uint32_t max_resident_ctas = 128;
  uint32_t max_resident_warps = 512;
  uint32_t pcrf_latency = 4;
  uint32_t cycles_per_register = 1;
  uint32_t vector_cache_entries = 32;
  uint32_t vector_miss_cycles = 200;
  bool restore_first = true;
  bool check = false;
};

}  // namespace simtlm::models::finereg
