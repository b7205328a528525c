// Static warp limiting (Rogers §3.2.2, seed note 002 §4): a per-SM cap on
// the warps that are actively scheduled, independent of the CTA size. The
// allowed warps are the warp_limit oldest live warps of the SM (age = launch
// order); while one of them waits at a barrier, the other warps of its CTA
// are allowed as well, so that they can reach the barrier (the thesis:
// "allows the rest of the work-group to reach the barrier, then continues
// with the same multithreading constraints"); after the release they drop
// out again. Among the allowed warps each scheduler uses GTO.
#pragma once

#include <vector>

#include "models/sched/gto.h"

namespace simtlm::models::sched {

class SwlPolicy : public Policy {
 public:
  explicit SwlPolicy(const PolicyParams& params);
  const char* name() const override { return "swl"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  void on_barrier(uint32_t slot, BarrierEvent event, uint64_t cycle) override;
  std::string describe(unsigned scheduler) const override;

  // True when `slot` is offered (after the last order() call).
  bool allowed(uint32_t slot) const { return slot < allowed_.size() && allowed_[slot] != 0; }

 private:
  struct Warp {
    bool live = false;
    bool at_barrier = false;
    uint64_t age = 0;
    uint32_t cta_slot = 0;
  };
  void recompute();

  GtoPolicy gto_;
  uint32_t limit_;
  std::vector<Warp> warps_;
  std::vector<uint8_t> allowed_;
  std::vector<uint32_t> by_age_;  // scratch
  std::vector<std::vector<uint32_t>> order_;
  bool dirty_ = true;
};

}  // namespace simtlm::models::sched
