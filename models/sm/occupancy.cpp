#include "models/sm/occupancy.h"

#include <algorithm>


namespace simtlm::models {

std::string OccupancyLimits::limiter() const {
  std::string out;
  auto add = [&](bool binds, const char* name) {
    if (!binds) return;
    if (!out.empty()) out += " + ";
    out += name;
  };
  add(limited_by_threads(), "threads");
  add(limited_by_cta_slots(), "CTA slots");
  add(limited_by_registers(), "registers");
  add(limited_by_shared_memory(), "shared memory");
  return out;
}

regfile::AllocatorParams register_allocator_params(const SmParams& params, uint32_t cta_slots) {
  regfile::AllocatorParams rp;
  rp.policy = params.register_alloc_policy;
  rp.registers = params.registers;
  rp.granularity = params.register_alloc_granularity;
  rp.max_ctas = cta_slots;
  rp.sharing_threshold = params.register_sharing_threshold;
  rp.sharing_deadlock_rule = params.sharing_deadlock_rule;
  rp.finereg = params.finereg;
  rp.vt = params.vt;
  rp.active_ctas = params.max_ctas;
  rp.active_warps = params.max_warps();
  rp.active_threads = params.max_threads;
  return rp;
}

smem::AllocatorParams shared_allocator_params(const SmParams& params, uint32_t cta_slots) {
  smem::AllocatorParams sp;
  sp.policy = params.shared_alloc_policy;
  sp.bytes = params.shared_memory_bytes;
  sp.granularity = params.shared_memory_alloc_granularity;
  sp.max_ctas = cta_slots;
  sp.sharing_threshold = params.shared_sharing_threshold;
  return sp;
}

OccupancyLimits occupancy_limits(const SmParams& params, const CtaShape& shape) {
  OccupancyLimits o;
  if (shape.warps == 0 || shape.warp_size != params.warp_size) return o;
  o.by_threads = std::min(params.max_warps() / params.reserved_slots(shape.warps), params.max_threads / shape.padded_threads());
  o.by_cta_slots = params.max_ctas;

  // The allocators are asked with a slot table far larger than the SM's so
  // that their answer is the resource's own bound; the CTA-slot limit is
  // reported on its own (otherwise every small CTA would tie with the slots).
  o.by_registers = regfile::make_allocator(register_allocator_params(params, kUnbounded))->max_ctas(shape);
  o.by_shared_memory = smem::make_allocator(shared_allocator_params(params, kUnbounded))->max_ctas(shape);

  o.ctas = std::min({o.by_threads, o.by_cta_slots, o.by_registers, o.by_shared_memory});
  return o;
}

CtaShape cta_shape(uint32_t threads, uint32_t warp_size, uint32_t regs_per_thread,
                   uint64_t shared_bytes) {
  CtaShape s;
  s.threads = threads;
  s.warp_size = warp_size;
  s.warps = warp_size ? (threads + warp_size - 1) / warp_size : 0;
  s.regs_per_thread = regs_per_thread;
  s.shared_bytes = shared_bytes;
  return s;
}

}  // namespace simtlm::models
