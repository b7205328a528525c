// Loose round-robin: each scheduler's warps in slot order, starting with the
// first warp after the one that issued last (wrapping around). A warp that
// cannot issue simply passes its turn to the next.
#pragma once

#include <vector>

#include "models/sched/policy.h"

namespace simtlm::models::sched {

class LrrPolicy : public Policy {
 public:
  explicit LrrPolicy(const PolicyParams& params);
  const char* name() const override { return "lrr"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  bool order_changes_only_on_events() const override { return true; }
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  std::string describe(unsigned scheduler) const override;

 private:
  struct Sched {
    std::vector<uint32_t> warps;  // slots, ascending
    int64_t last = -1;            // slot that issued last (-1: none yet)
    // The order only changes with the warp set or the last issuer: kept
    // between cycles instead of rebuilt on every call.
    std::vector<uint32_t> order;
    bool stale = true;
  };
  std::vector<Sched> sched_;
  std::vector<uint32_t> owner_;   // slot -> scheduler
};

}  // namespace simtlm::models::sched
