// The SM's CTA table: admission (CTA slots, warps, threads and the register
// and shared-memory allocators), activation of an admitted CTA's warps at
// the next clock edge, suspension and resumption of a CTA's warps (they stop
// and start being offered to the schedulers; operations in flight complete
// normally), and completion once every warp finished and every operation
// returned. Every step is published on the SM's event bus and told to the
// allocators (warp finished, CTA suspended/resumed/finished).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "models/regfile/allocator.h"
#include "models/sched/policy.h"
#include "models/sm/front_end.h"
#include "models/sm/inst_timing.h"
#include "models/sm/resources.h"
#include "models/sm/sm_events.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/sm/warp_table.h"
#include "models/smem/allocator.h"

namespace simtlm::models {

struct CtaState {
  enum class Status : uint8_t { Free, Pending, Active };
  Status status = Status::Free;
  bool suspended = false;
  std::unique_ptr<functional::Cta> cta;
  functional::LaunchContext* ctx = nullptr;
  std::shared_ptr<const KernelTiming> timing;
  CtaShape shape;
  uint64_t linear_id = 0;
  std::vector<uint32_t> warp_slots;
  uint32_t warps_left = 0;   // unfinished warps
  uint32_t outstanding = 0;  // sum of its warps' outstanding operations
  uint64_t launch_cycle = 0;
};

class CtaTable {
 public:
  // Called when a CTA completed (it may admit another).
  using CompleteFn = std::function<void(const functional::LaunchContext& ctx, uint64_t cta_id)>;

  struct Parts {
    WarpTable& warps;
    FrontEnd& front;
    sched::Policy& policy;
    SmStats& stats;
    const SmEventBus& bus;
  };
  CtaTable(const SmParams& p, uint32_t max_warps, Parts parts, std::unique_ptr<regfile::Allocator> regs,
           std::unique_ptr<smem::Allocator> smem);

  void set_complete_fn(CompleteFn fn) { complete_fn_ = std::move(fn); }

  // ---- admission
  uint32_t max_resident_ctas(const CtaShape& shape) const;
  bool can_admit(const CtaShape& shape) const;
  // Reserves the CTA's resources; it becomes active at the next edge, its
  // warps offered to the schedulers unless the register allocator admitted
  // it suspended (CtaAllocator::starts_suspended; then resume() offers them).
  // `cycle_counter` is the SM's cycle (for %clock); `cycle` the current one.
  void admit(functional::LaunchContext& ctx, uint64_t linear_cta_id, const uint64_t* cycle_counter, uint64_t cycle);
  bool has_pending() const { return !pending_.empty(); }
  void activate_pending(uint64_t c);

  // ---- life cycle
  void suspend(uint32_t cta_slot, uint64_t c);
  void resume(uint32_t cta_slot, uint64_t c);
  // Warp `slot` executed its exit.
  void warp_finished(uint32_t slot, uint64_t c);
  // One operation of warp `slot` (writeback or memory instruction) is done.
  void op_done(uint32_t slot) {
    WarpState& w = warps_[slot];
    --w.outstanding;
    CtaState& cs = ctas_[w.cta_slot];
    --cs.outstanding;
    if (cs.warps_left == 0 && cs.outstanding == 0) check_.push_back(w.cta_slot);
  }
  void op_started(WarpState& w) {
    ++w.outstanding;
    ++ctas_[w.cta_slot].outstanding;
  }
  // Completes the CTAs whose last operation finished this cycle.
  void finish(uint64_t c);

  // ---- state
  CtaState& operator[](uint32_t cta_slot) { return ctas_[cta_slot]; }
  const CtaState& operator[](uint32_t cta_slot) const { return ctas_[cta_slot]; }
  uint32_t size() const { return static_cast<uint32_t>(ctas_.size()); }
  uint32_t resident_ctas() const { return resident_ctas_; }
  uint32_t resident_warps() const { return resident_warps_; }
  uint32_t busy_ctas() const { return busy_ctas_; }
  regfile::Allocator& register_allocator() { return *regs_; }
  smem::Allocator& shared_allocator() { return *smem_; }
  const regfile::Allocator& register_allocator() const { return *regs_; }
  const smem::Allocator& shared_allocator() const { return *smem_; }

 private:
  std::shared_ptr<const KernelTiming> timing_for(const functional::LaunchContext& ctx);
  void complete(uint32_t cta_slot, uint64_t c);
  CtaEvent event(uint32_t cta_slot, uint64_t c) const;
  WarpEvent warp_event(uint32_t slot, uint64_t c) const;
  // What the scheduling policy is told of the warp in `slot`.
  sched::WarpInfo warp_info(uint32_t slot) const;

  const SmParams& p_;
  uint32_t max_warps_;
  WarpTable& warps_;
  FrontEnd& front_;
  sched::Policy& policy_;
  SmStats& stats_;
  const SmEventBus& bus_;
  std::unique_ptr<regfile::Allocator> regs_;
  std::unique_ptr<smem::Allocator> smem_;
  std::vector<CtaState> ctas_;
  std::vector<uint32_t> pending_;  // CTA slots waiting for the next edge
  std::vector<uint32_t> check_;    // CTA slots that may have completed
  uint32_t resident_ctas_ = 0;
  uint32_t resident_warps_ = 0;
  uint32_t busy_ctas_ = 0;
  uint32_t reserved_warps_ = 0;    // warp slots of busy CTAs (SmParams::reserved_slots)
  uint32_t reserved_threads_ = 0;  // padded threads of busy CTAs
  uint64_t age_counter_ = 0;
  std::vector<std::shared_ptr<const KernelTiming>> timings_;
  // Shapes max_resident_ctas() was asked about, with their answers (the SM's
  // parameters never change, so the answer for a shape never does). A run
  // has a few kernels that launch again and again, often alternating.
  mutable std::vector<std::pair<CtaShape, uint32_t>> fit_memo_;
  CompleteFn complete_fn_;
};

}  // namespace simtlm::models
