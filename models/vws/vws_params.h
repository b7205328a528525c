// The variable-warp-sizing SM (seed 002 Ch. 6, notes §10.2) as the baseline
// SM's parameters: the SM's lanes are
// gpu.vws.slices slices of gpu.vws.slice_width lanes each.
//
//   ganged  (ganged-only, = WS32)  the slices run in lock-step as one warp of
//           slices x slice_width threads: one scheduler, one fetch per cycle,
//           the baseline SM as configured by gpu.sm.*.
//   slices  (slice-only, = WS4)    every slice is a scheduler of its own over
//           warps of slice_width threads (warp i of a CTA on slice
//           i mod slices: the static thread -> slice mapping, §10.2), with its
//           own copy of every per-instruction resource (execution units,
//           operand collector units, register banks; each 1/slices as wide,
//           so the SM's lane throughput is the ganged one), up to one fetch
//           per slice per cycle, and the memory unit unchanged: requests of
//           all slices starting in the same cycle are coalesced as one access.
//
//   mixed   (I-VWS, E-VWS)         the slice-only SM plus the warp ganging unit
//           (models/vws/ganging_unit.h): gangs of one warp per slice formed at
//           CTA activation, fetched once per gang and issued in lock-step
//           before the slices' own schedulers, split on divergence and
//           optionally reformed.
#pragma once

#include <cstdint>
#include <string>

#include "models/sm/sm_params.h"

namespace simtlm {
class Config;
}

namespace simtlm::models::vws {

enum class Mode : uint8_t { Ganged, Slices, Mixed };
// Mixed mode: splitting on memory-latency divergence and reformation (§6.2.4-6.2.5).
enum class MemSplit : uint8_t { None, Impatient, Group };
// Sync: opportunistic reformation plus a wait of VwsParams::sync_wait cycles
// at reconvergence points (E-VWS-Sync10/50/100).
enum class Reform : uint8_t { None, Opportunistic, Sync };

struct VwsParams {
  Mode mode = Mode::Ganged;
  uint32_t slices = 8;
  uint32_t slice_width = 4;
  uint32_t fetches_per_cycle = 0;  // 0: scaled with issue (1 ganged, `slices` in slice mode)
  bool coalesce_same_cycle = true;
  // Mixed mode only.
  uint32_t gangs_per_cycle = 2;
  std::string gang_order = "bgto";
  MemSplit mem_split = MemSplit::None;
  Reform reform = Reform::None;
  uint32_t sync_wait = 0;   // Reform::Sync: cycles a split unit waits at a reconvergence pc
  uint32_t l0_bytes = 256;  // per-slice L0 I-cache (0 = none)
};

// gpu.vws.* of a configuration (already validated).
VwsParams vws_params_from_config(const Config& cfg);

// The SM parameters of a VWS SM: `base` (gpu.sm.* of the configuration, one
// scheduler, warp size as the mode needs) reshaped for the mode.
SmParams vws_sm_params(const SmParams& base, const VwsParams& v);

// SM `sm`'s parameters as the platform sim.platform names builds it: the vws
// platform's reshaped SM, otherwise sm_params_from_config. For tools that
// compute occupancy without building a platform (simtlm occupancy, list).
SmParams platform_sm_params(const Config& cfg, uint32_t sm);

const char* to_string(Mode m);

}  // namespace simtlm::models::vws
