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
#include "models/sched/policy.h"
#include "models/sm/resources.h"
#include "simtlm/stats.h"

namespace simtlm::models::regfile {

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual const char* name() const = 0;

  // CTAs of this shape that fit in an empty SM as far as registers go.
  virtual uint32_t max_ctas(const CtaShape& shape) const = 0;
  // True when one more CTA of this shape fits now.
  virtual bool can_admit(const CtaShape& shape) const = 0;
  // Reserves the registers of a CTA placed in `cta_slot` (can_admit was true).
  virtual void admit(uint32_t cta_slot, const CtaShape& shape) = 0;
  // Returns the registers of the CTA in `cta_slot`.
  virtual void release(uint32_t cta_slot) = 0;
  // Consulted before every issue (sharing locks); the baseline never blocks.
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

  virtual uint64_t capacity() const = 0;  // registers
  virtual uint64_t in_use() const = 0;
};

struct AllocatorParams {
  std::string policy = "baseline";
  uint32_t registers = 32768;
  uint32_t granularity = 4;        // registers per thread
  uint32_t max_ctas = 8;           // CTA slots of the SM (size of the slot table)
  double sharing_threshold = 0.1;  // for sharing policies
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
