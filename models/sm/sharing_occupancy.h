// Occupancy with resource sharing between CTA pairs (Jatala thesis §2.2.4,
// seed note 000 §2.2), as pure functions of the SM's limits and a CTA's
// footprint. The sharing allocators (models/regfile/sharing_allocator.h,
// models/smem/sharing_allocator.h), `simtlm occupancy` and the tests of the
// seed's Tables 2.6 and 2.8 all use this one computation.
//
// Integer form (seed note §2.2; the thesis's Eq. 2.4 has no floors):
//   F     = floor(R / R_tb)                       CTAs the resource holds unshared
//   S     = min(F, floor((R - F R_tb) / (t R_tb))) pairs the remainder pays for
//   cap   = the other limits (threads, warps, CTA slots, the other resource)
//   M     = min(F + S, cap)                       CTAs launched
//   S_eff = M - F, U = F - S_eff                  pairs and unshared CTAs
// Sharing is enabled only when M > F; otherwise min(F, cap) CTAs run unshared.
// The threshold t is kept in millionths so that every quotient is exact
// (t = 0.1 times R_tb is not a binary fraction).
#pragma once

#include <cstdint>
#include <string>

#include "models/sm/resources.h"
#include "models/sm/sm_params.h"

namespace simtlm::models {

inline constexpr uint64_t kThresholdScale = 1000000;  // t is held as t x 10^6

// t x 10^6, rounded to the nearest integer.
uint64_t threshold_millionths(double t);

struct SharingOccupancy {
  uint32_t unshared_fit = 0;  // F (kUnbounded when the CTA uses none of the resource)
  uint32_t pairs_fit = 0;     // S: pairs the remainder pays for (before the cap)
  uint32_t cap = 0;           // the bound set by every other limit
  uint32_t baseline = 0;      // min(F, cap): resident CTAs without sharing
  uint32_t ctas = 0;          // M: CTAs launched (= baseline when sharing is off)
  uint32_t pairs = 0;         // S_eff
  uint32_t unshared = 0;      // U
  bool enabled = false;       // M > F
};

// `capacity` units per SM, `per_cta` units per CTA, threshold t (millionths),
// `cap` CTAs allowed by every other limit.
SharingOccupancy sharing_occupancy(uint64_t capacity, uint64_t per_cta, uint64_t t_millionths, uint32_t cap);

// Registers (gpu.sm.register_alloc_granularity rounding, warp padding) and
// bytes (gpu.sm.shared_memory_alloc_granularity rounding) one CTA needs,
// as the baseline allocators count them.
uint64_t register_units(const SmParams& params, const CtaShape& shape);
uint64_t shared_units(const SmParams& params, const CtaShape& shape);

// Everything `simtlm occupancy` reports for one CTA shape on one SM
// configuration: the baseline (baseline allocators, whatever the configured
// policies) and what each kind of sharing would launch with its configured
// threshold (the cap of each is the baseline bound of every other limit).
struct OccupancyReport {
  uint32_t by_threads = 0;
  uint32_t by_cta_slots = 0;
  uint32_t by_registers = 0;
  uint32_t by_shared_memory = 0;
  uint32_t baseline_ctas = 0;
  std::string limiter;  // as OccupancyLimits::limiter()
  SharingOccupancy registers;
  SharingOccupancy shared_memory;
};
OccupancyReport occupancy_report(const SmParams& params, const CtaShape& shape);

// Storage the sharing tables add to one SM (Jatala §2.4, Fig. 2.11; seed
// note §2.8), T = CTA slots, W = warp slots:
//   registers:  ShSM 1 + ShTB T ceil(log2(T+1)) + Owner W + ShWarp W + Lock floor(W/2) ceil(log2 W)
//   scratchpad: ShSM 1 + ShTB T ceil(log2(T+1)) + Owner W + Lock floor(T/2) ceil(log2 T)
uint64_t register_sharing_storage_bits(uint32_t cta_slots, uint32_t warp_slots);
uint64_t scratchpad_sharing_storage_bits(uint32_t cta_slots, uint32_t warp_slots);

}  // namespace simtlm::models
