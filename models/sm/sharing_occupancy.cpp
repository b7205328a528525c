#include "models/sm/sharing_occupancy.h"

#include <algorithm>
#include <cmath>

#include "models/sm/occupancy.h"

namespace simtlm::models {

namespace {

uint64_t round_up(uint64_t v, uint64_t g) { return g <= 1 ? v : (v + g - 1) / g * g; }

// ceil(log2(x)) for x >= 1 (0 for x = 1).
uint64_t ceil_log2(uint64_t x) {
  uint64_t bits = 0;
  while ((uint64_t{1} << bits) < x) ++bits;
  return bits;
}

uint32_t clamp32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, kUnbounded)); }

}  // namespace

uint64_t threshold_millionths(double t) {
  return static_cast<uint64_t>(std::llround(t * static_cast<double>(kThresholdScale)));
}

SharingOccupancy sharing_occupancy(uint64_t capacity, uint64_t per_cta, uint64_t t_millionths, uint32_t cap) {
  SharingOccupancy o;
  o.cap = cap;
  if (per_cta == 0) {  // the CTA does not use this resource: nothing to share
    o.unshared_fit = kUnbounded;
    o.baseline = o.ctas = o.unshared = cap;
    return o;
  }
  const uint64_t f = capacity / per_cta;
  const uint64_t remainder = capacity - f * per_cta;
  const uint64_t private_cost = t_millionths * per_cta;  // t R_tb, in millionths of a unit
  const uint64_t s = private_cost == 0 ? f : std::min(f, remainder * kThresholdScale / private_cost);
  o.unshared_fit = clamp32(f);
  o.pairs_fit = clamp32(s);
  o.baseline = std::min(o.unshared_fit, cap);
  const uint32_t m = std::min(clamp32(f + s), cap);
  o.enabled = m > f;
  if (o.enabled) {
    o.ctas = m;
    o.pairs = m - o.unshared_fit;
    o.unshared = o.unshared_fit - o.pairs;
  } else {
    o.ctas = o.unshared = o.baseline;
  }
  return o;
}

uint64_t register_units(const SmParams& params, const CtaShape& shape) {
  return round_up(shape.regs_per_thread, params.register_alloc_granularity) * shape.padded_threads();
}

uint64_t shared_units(const SmParams& params, const CtaShape& shape) {
  return round_up(shape.shared_bytes, params.shared_memory_alloc_granularity);
}

OccupancyReport occupancy_report(const SmParams& params, const CtaShape& shape) {
  SmParams base = params;
  base.register_alloc_policy = "baseline";
  base.shared_alloc_policy = "baseline";
  const OccupancyLimits limits = occupancy_limits(base, shape);
  OccupancyReport r;
  r.by_threads = limits.by_threads;
  r.by_cta_slots = limits.by_cta_slots;
  r.by_registers = limits.by_registers;
  r.by_shared_memory = limits.by_shared_memory;
  r.baseline_ctas = limits.ctas;
  r.limiter = limits.limiter();
  if (limits.ctas == 0 && (shape.warps == 0 || shape.warp_size != params.warp_size)) return r;
  const uint32_t others = std::min(limits.by_threads, limits.by_cta_slots);
  r.registers = sharing_occupancy(params.registers, register_units(params, shape),
                                  threshold_millionths(params.register_sharing_threshold),
                                  std::min(others, limits.by_shared_memory));
  r.shared_memory = sharing_occupancy(params.shared_memory_bytes, shared_units(params, shape),
                                      threshold_millionths(params.shared_sharing_threshold),
                                      std::min(others, limits.by_registers));
  return r;
}

uint64_t register_sharing_storage_bits(uint32_t cta_slots, uint32_t warp_slots) {
  const uint64_t t = cta_slots, w = warp_slots;
  return 1 + t * ceil_log2(t + 1) + 2 * w + (w / 2) * ceil_log2(w);
}

uint64_t scratchpad_sharing_storage_bits(uint32_t cta_slots, uint32_t warp_slots) {
  const uint64_t t = cta_slots, w = warp_slots;
  return 1 + t * ceil_log2(t + 1) + w + (t / 2) * ceil_log2(t);
}

}  // namespace simtlm::models
