// Owner-Warp-First (Jatala §2.3.1, seed note 000 §2.5): warps of the CTA of
// a pair that owns the shared resource first, then warps of unpaired CTAs,
// then warps of the CTA that waits for its partner; within a class, oldest
// first (dynamic warp id = launch order on the SM). No greedy component: with
// no paired CTA it is oldest-first, which the thesis finds comparable to GTO
// but not identical. The classes come from the sharing allocator
// (sched::SharingClassifier, handed over by the SM); ownership is the
// allocator's: the CTA of the pair whose warps hold locks, else the older one.
#pragma once

#include <cstdint>
#include <vector>

#include "models/sched/policy.h"

namespace simtlm::models::sched {

class OwfPolicy : public Policy {
 public:
  explicit OwfPolicy(const PolicyParams& params);
  const char* name() const override { return "owf"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  void set_sharing_classifier(const SharingClassifier* classifier) override { classes_ = classifier; }
  std::string describe(unsigned scheduler) const override;

 private:
  struct Entry {
    uint64_t age;
    uint32_t slot;
    uint32_t cta_slot;
  };
  SharingClass class_of(uint32_t cta_slot) const {
    return classes_ ? classes_->sharing_class(cta_slot) : SharingClass::Unshared;
  }

  const SharingClassifier* classes_ = nullptr;
  std::vector<std::vector<Entry>> by_age_;  // per scheduler, oldest first
  std::vector<uint32_t> scheduler_of_;      // per warp slot
  std::vector<uint32_t> order_;
};

}  // namespace simtlm::models::sched
