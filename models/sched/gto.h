// Greedy-then-oldest: the warp that issued last keeps the first place until
// it cannot issue; then the oldest warp that can issue wins (and becomes the
// greedy warp). Age = launch order on the SM; warps of one CTA are ordered by
// warp index (smallest thread ids first).
#pragma once

#include <vector>

#include "models/sched/policy.h"

namespace simtlm::models::sched {

class GtoPolicy : public Policy {
 public:
  explicit GtoPolicy(const PolicyParams& params);
  const char* name() const override { return "gto"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  bool order_changes_only_on_events() const override { return true; }
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  std::string describe(unsigned scheduler) const override;

 private:
  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  struct Sched {
    std::vector<Entry> by_age;  // oldest first
    int64_t greedy = -1;        // slot that issued last, while it is present
    // The order only changes with the warp set or the greedy warp: kept
    // between cycles instead of rebuilt on every call. A new greedy warp
    // (most issues) only needs two block copies of the age order.
    std::vector<uint32_t> age_slots;  // by_age's slots
    std::vector<uint32_t> order;
    bool warps_changed = true;  // age_slots and rank_ must be rebuilt
    bool stale = true;          // order must be rebuilt
  };
  std::vector<Sched> sched_;
  std::vector<uint32_t> owner_;
  std::vector<uint32_t> rank_;  // per slot: index in its scheduler's age_slots
};

}  // namespace simtlm::models::sched
