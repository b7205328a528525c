// Register-file allocation of an SM: how many CTAs of a shape fit, admitting
// and releasing a CTA, and an issue-time check. The baseline gives every CTA
// all of its registers for its whole life; register sharing (Jatala) and
// FineReg plug in as other implementations of this interface, chosen by
// gpu.sm.regfile.alloc_policy.
//
// Baseline rule (GPGPU-Sim 3.x shader_core_config::max_cta, which reproduces
// the occupancy tables of the seeds): registers per thread are rounded up to
// a multiple of the allocation granularity (gpu.sm.register_alloc_granularity,
// 4 on the presets; CUDA CC 2.0 hardware allocates 64 per warp = 2 per thread)
// and a CTA needs that many registers for each thread of its warps (the CTA is
// padded to whole warps):
//     units(CTA) = round_up(regs_per_thread, granularity) x warps x warp_size
// A CTA fits when units(CTA) <= registers - units in use.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/factory_registry.h"
#include "models/finereg/finereg_params.h"
#include "models/sm/cta_allocator.h"
#include "simtlm/stats.h"

namespace simtlm::models::regfile {

// The register file's allocator: capacity() and in_use() count registers.
class Allocator : public CtaAllocator {};

struct AllocatorParams {
  std::string policy = "baseline";
  uint32_t registers = 32768;
  uint32_t granularity = 4;        // registers per thread
  uint32_t max_ctas = 8;           // CTA slots of the SM (size of the slot table)
  double sharing_threshold = 0.1;  // for sharing policies
  // FineReg (policy "finereg"): the ACRF/PCRF split and the active limits
  // its pending CTAs may exceed (the SM's max_ctas, warps and threads).
  finereg::FineRegParams finereg;
  finereg::VtParams vt;  // policies vt and regdram
  uint32_t active_ctas = 8;
  uint32_t active_warps = 48;
  uint32_t active_threads = 1536;
  // Register sharing's deadlock-avoidance rule (canAcquire, §2.3); false only
  // in the test that shows the deadlock it prevents (SmParams, not a key).
  bool sharing_deadlock_rule = true;
};

class BaselineAllocator : public Allocator {
 public:
  explicit BaselineAllocator(const AllocatorParams& params);
  const char* name() const override { return "baseline"; }

  // Registers one CTA of this shape needs.
  uint64_t units(const CtaShape& shape) const;

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

// Allocators by the name that selects them (gpu.sm.regfile.alloc_policy); "baseline" is built in.
// A mechanism adds its allocator here (allocators().add(name, factory)).
using AllocatorRegistry = FactoryRegistry<Allocator, AllocatorParams>;
AllocatorRegistry& allocators();

// The allocator named by params.policy. Throws Error(Config) naming the key
// when it is unknown or not implemented yet.
std::unique_ptr<Allocator> make_allocator(const AllocatorParams& params);

}  // namespace simtlm::models::regfile
