// Two-level warp scheduling (Narasiman et al., MICRO'11, as described in
// Rogers' thesis §3.4.1): per scheduler an active set of at most
// active_set_size warps; only they are offered for issue. Warps enter the
// active set in launch order while it has room. An active warp that stalls
// on a long-latency result or waits at a barrier is demoted to the tail of
// the pending queue, and the pending warp chosen by the outer policy (lrr:
// the head of the queue, gto: the oldest) among the pending warps that do
// not wait is promoted. Whether a pending warp waits comes from the SM's
// probe (at a barrier, or for a memory result: sched::WarpWaitProbe);
// without one (unit tests), a warp counts as waiting from its demotion until
// it issues again. When every pending warp waits, the one queued longest is
// promoted, so each gets its turn. Barrier waits demote too, so that a CTA
// larger than the active set can reach its barrier.
// Inside the active set the inner policy orders warps: lrr = slot order
// starting after the last issuer, gto = last issuer first, then oldest.
#pragma once

#include <deque>
#include <vector>

#include "models/sched/policy.h"

namespace simtlm::models::sched {

class TwoLevelPolicy : public Policy {
 public:
  explicit TwoLevelPolicy(const PolicyParams& params);
  const char* name() const override { return "two_level"; }
  void warp_added(const WarpInfo& warp) override;
  void warp_removed(uint32_t slot) override;
  const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) override;
  void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) override;
  bool wants_stall_events() const override { return true; }
  void on_stall(uint32_t slot, StallKind kind, uint64_t cycle) override;
  uint64_t stall_order_version() const override { return demotions_; }
  void set_wait_probe(const WarpWaitProbe* probe) override { probe_ = probe; }
  std::string describe(unsigned scheduler) const override;

  // Inspection (tests, reports).
  const std::vector<uint32_t>& active(unsigned scheduler) const { return sched_[scheduler].active; }
  std::vector<uint32_t> pending(unsigned scheduler) const;

 private:
  struct Sched {
    std::vector<uint32_t> active;  // slots, ascending
    std::deque<uint32_t> pending;  // demotion/arrival order
    int64_t last = -1;             // last issuer
  };
  std::vector<uint32_t> order_;  // the list order() returns
  void promote(Sched& s, int64_t exclude = -1);
  void demote(Sched& s, uint32_t slot);

  uint32_t capacity_;
  bool inner_gto_;
  bool outer_gto_;
  std::vector<Sched> sched_;
  std::vector<uint32_t> owner_;
  std::vector<uint64_t> age_;
  std::vector<bool> waiting_;  // without a probe: demoted at a long-latency stall or a barrier, no issue since
  const WarpWaitProbe* probe_ = nullptr;
  bool waits(uint32_t slot) const { return probe_ != nullptr ? probe_->waits(slot) : waiting_[slot]; }
  uint64_t demotions_ = 0;  // stall_order_version()
};

}  // namespace simtlm::models::sched
