// The platform's part of Dynamic Warp Execution (models/regfile/
// dyn_warp_execution.h): one gate per SM, the GPU-level controller, and the
// stall counts at the start of the current window.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/regfile/dyn_warp_execution.h"
#include "platforms/common/platform.h"

namespace simtlm::platforms {

struct Platform::DynWarp {
  DynWarp(unsigned num_sms, double step, uint64_t window_cycles) : controller(num_sms, step), window(window_cycles) {}
  models::regfile::DynWarpController controller;
  std::vector<std::unique_ptr<models::regfile::DynWarpGate>> gates;  // per SM
  uint64_t window;                     // core cycles
  std::vector<uint64_t> window_start;  // per SM: stalls when the window began
  uint64_t window_start_instructions = 0;
};

}  // namespace simtlm::platforms
