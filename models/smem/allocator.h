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
#include "models/sched/policy.h"
#include "models/sm/resources.h"
#include "simtlm/stats.h"

namespace simtlm::models::smem {

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual const char* name() const = 0;
  virtual uint32_t max_ctas(const CtaShape& shape) const = 0;
  virtual bool can_admit(const CtaShape& shape) const = 0;
  virtual void admit(uint32_t cta_slot, const CtaShape& shape) = 0;
  virtual void release(uint32_t cta_slot) = 0;
  // Consulted before every issue (scratchpad sharing locks); the baseline never blocks.
  virtual IssueCheck may_issue(const IssueQuery& query) {
    (void)query;
    return IssueCheck::Ok;
  }
  // True when may_issue() can ever block (an implementation that overrides
  // may_issue must also override this). When false the SM skips the call
  // and may park warps stalled on memory (models/sm/sm.h).
  virtual bool gates_issue() const { return false; }
  // Life cycle beyond admission (sharing locks, FineReg): warp `warp_in_cta`
  // of the CTA in `cta_slot` executed its exit; the CTA's warps stopped /
  // started being offered to the schedulers (Sm::suspend_cta/resume_cta).
  // release() is the CTA's completion.
  virtual void warp_finished(uint32_t cta_slot, uint32_t warp_in_cta) { (void)cta_slot, (void)warp_in_cta; }
  virtual void suspend(uint32_t cta_slot) { (void)cta_slot; }
  virtual void resume(uint32_t cta_slot) { (void)cta_slot; }
  // Adds the allocator's own counters under the SM's group (e.g. lock stalls).
  virtual void register_stats(const stats::Group& group) { (void)group; }
  // Owner / unshared / non-owner class of a CTA's warps, for OWF (sharing
  // allocators; nullptr when the allocator never pairs CTAs).
  virtual const sched::SharingClassifier* sharing_classifier() const { return nullptr; }
  // With register and scratchpad sharing both on, each allocator sees the
  // other's locks: a CTA does not take a lock against a partner that holds a
  // lock of the other kind on the same pair, so one pair's two kinds cannot
  // wait on each other.
  virtual void set_other_sharing(const sched::SharingClassifier* other) { (void)other; }

  virtual uint64_t capacity() const = 0;  // bytes
  virtual uint64_t in_use() const = 0;
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
