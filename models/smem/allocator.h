// Shared-memory (scratchpad) allocation of an SM: how many CTAs of a shape
// fit, admitting and releasing a CTA, and an issue-time check. Scratchpad
// sharing (Jatala) and unified allocation (Hayes) plug in as other
// implementations, chosen by gpu.sm.smem.alloc_policy.
//
// Baseline rule: a CTA needs its static + dynamic shared memory rounded up to
// the allocation granularity (gpu.sm.shared_memory_alloc_granularity; 1 = no
// rounding, as GPGPU-Sim 3.x; CC 2.0 hardware uses 128 bytes):
//     bytes(CTA) = round_up(static + dynamic, granularity)
// A CTA fits when bytes(CTA) <= shared_memory_bytes - bytes in use.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/factory_registry.h"
#include "models/sm/cta_allocator.h"
#include "simtlm/stats.h"

namespace simtlm::models::smem {

// The shared memory's allocator: capacity() and in_use() count bytes.
class Allocator : public CtaAllocator {
 public:
  // The lanes `lanes` of warp `warp_in_cta` of the CTA in `cta_slot` executed
  // `relssp` (Jatala ch. 3): they will not touch the shared scratchpad region
  // again. Only scratchpad sharing acts on it; elsewhere it has no effect.
  virtual void relssp(uint32_t cta_slot, uint32_t warp_in_cta, uint64_t lanes) {
    (void)cta_slot, (void)warp_in_cta, (void)lanes;
  }
};

struct AllocatorParams {
  std::string policy = "baseline";
  uint64_t bytes = 49152;
  uint32_t granularity = 1;
  uint32_t max_ctas = 8;
  double sharing_threshold = 0.1;
};

class BaselineAllocator : public Allocator {
 public:
  explicit BaselineAllocator(const AllocatorParams& params);
  const char* name() const override { return "baseline"; }
  uint64_t bytes(const CtaShape& shape) const;
  uint32_t max_ctas(const CtaShape& shape) const override;
  bool can_admit(const CtaShape& shape) const override;
  void admit(uint32_t cta_slot, const CtaShape& shape) override;
  void release(uint32_t cta_slot) override;
  uint64_t capacity() const override { return capacity_; }
  uint64_t in_use() const override { return used_; }

 private:
  uint64_t capacity_;
  uint32_t granularity_;
  uint64_t used_ = 0;
  std::vector<uint64_t> per_slot_;
  std::vector<bool> occupied_;
};

// Allocators by the name that selects them (gpu.sm.smem.alloc_policy); "baseline" is built in.
// A mechanism adds its allocator here (allocators().add(name, factory)).
using AllocatorRegistry = FactoryRegistry<Allocator, AllocatorParams>;
AllocatorRegistry& allocators();

// The allocator named by params.policy. Throws Error(Config) naming the key
// when it is unknown or not implemented yet.
std::unique_ptr<Allocator> make_allocator(const AllocatorParams& params);

}  // namespace simtlm::models::smem
