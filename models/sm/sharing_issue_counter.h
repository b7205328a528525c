// Issued warp instructions by the sharing class of their CTA (owner,
// unshared, non-owner; Jatala §2.5), whatever the scheduling policy. The SM
// subscribes one when a sharing allocator is configured (off means off: no
// subscriber and no statistics otherwise). The class is the allocator's at
// the moment of issue (after the issue check may have taken a lock).
#pragma once

#include <cstdint>
#include <vector>

#include "models/sched/policy.h"
#include "models/sm/sm_events.h"
#include "simtlm/stats.h"

namespace simtlm::models {

class SharingIssueCounter final : public SmObserver {
 public:
  SharingIssueCounter(const sched::SharingClassifier& classes, uint32_t warp_slots)
      : classes_(classes), cta_of_(warp_slots, 0) {}

  void on_warp_launch(const WarpEvent& e) override {
    if (e.warp_slot >= cta_of_.size()) cta_of_.resize(e.warp_slot + 1, 0);
    cta_of_[e.warp_slot] = e.cta_slot;
  }
  void on_warp_issue(const IssueRecord& r) override {
    ++issued_[static_cast<unsigned>(classes_.sharing_class(cta_of_[r.warp_slot]))];
  }

  void register_stats(const stats::Group& g) {
    g.counter("issued_owner", &issued_[0], "warp instructions", "instructions issued by owner warps of CTA pairs");
    g.counter("issued_unshared", &issued_[1], "warp instructions", "instructions issued by warps of unpaired CTAs");
    g.counter("issued_non_owner", &issued_[2], "warp instructions",
              "instructions issued by non-owner warps of CTA pairs");
  }

 private:
  const sched::SharingClassifier& classes_;
  std::vector<uint32_t> cta_of_;  // per warp slot
  uint64_t issued_[3] = {};       // by sched::SharingClass
};

}  // namespace simtlm::models
