// Small helpers shared by the workload drivers.
#pragma once

#include <cstdint>

namespace simtlm::workloads {

inline uint32_t ceil_div(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

}  // namespace simtlm::workloads
