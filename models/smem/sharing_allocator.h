// Scratchpad sharing between CTA pairs (Jatala §2.2.2, seed note 000 §2.4),
// selected by gpu.sm.smem.alloc_policy = sharing.
//
// Admission: CtaPairs (models/sm/cta_pairs.h) with R = shared memory per SM
// and R_tb = the CTA's shared bytes as the baseline counts them.
//
// Access check (the allocator's issue gate): byte offsets below t x R_tb of
// a paired CTA's scratchpad are private; the others are the pair's shared
// region, under one lock per CTA pair. A shared-memory access (a shared-space
// or generic load, store, atomic or reduction) is checked over the byte range
// its executing lanes would touch (functional/shared_access.h): one that
// reaches the shared region must find the lock held by its CTA or free (it
// takes it); otherwise the warp is not ready this cycle (a throttled stall,
// counted as a lock stall). The holder never waits for the other CTA, so no
// deadlock rule is needed (§2.2.3). The lock is released when the holding
// CTA completes, or by release_lock(), which relssp() calls once every
// active thread of the CTA has executed `relssp` (Jatala ch. 3, seed note 000
// §2.10: one release bit per thread, set by the lanes of each issue; the
// padding lanes of a CTA's last warp are not active). A CTA with no partner
// takes the lock freely.
#pragma once

#include <cstdint>
#include <vector>

#include "models/sm/cta_pairs.h"
#include "models/smem/allocator.h"

namespace simtlm::models::smem {

class SharingAllocator final : public Allocator, public sched::SharingClassifier {
 public:
  explicit SharingAllocator(const AllocatorParams& params);
  const char* name() const override { return "sharing"; }

  uint32_t max_ctas(const CtaShape& shape) const override;
  bool can_admit(const CtaShape& shape) const override;
  void admit(uint32_t cta_slot, const CtaShape& shape) override;
  void release(uint32_t cta_slot) override;
  IssueCheck may_issue(const IssueQuery& query) override;
  bool gates_issue() const override { return true; }
  void register_stats(const stats::Group& group) override;
  const sched::SharingClassifier* sharing_classifier() const override { return this; }
  sched::SharingClass sharing_class(uint32_t cta_slot) const override;
  bool holds_lock_against(uint32_t holder, uint32_t partner) const override {
    return ctas_[holder].holds && pairs_.partner(holder) == partner;
  }
  void set_other_sharing(const sched::SharingClassifier* other) override { other_ = other; }
  uint64_t capacity() const override { return pairs_.capacity(); }
  uint64_t in_use() const override { return pairs_.in_use(); }

  // The CTA in `cta_slot` gives its pair's lock back (relssp). No effect when
  // it does not hold it.
  void release_lock(uint32_t cta_slot);
  // Sets the release bits of `lanes` of the warp; when every active thread
  // of the CTA has its bit, the bits are cleared and release_lock() is called
  // (no effect when the CTA does not hold the lock).
  void relssp(uint32_t cta_slot, uint32_t warp_in_cta, uint64_t lanes) override;
  uint32_t partner(uint32_t cta_slot) const { return pairs_.partner(cta_slot); }
  // Offsets below this many millionths of a byte are private (t x R_tb x 10^6).
  uint64_t private_limit_millionths(uint32_t cta_slot) const { return ctas_[cta_slot].private_limit; }

 private:
  struct Cta {
    uint64_t private_limit = 0;  // t R_tb, in millionths of a byte
    bool holds = false;
    uint32_t threads = 0;             // active (non-padding) threads
    uint32_t released_threads = 0;    // threads whose release bit is set
    std::vector<uint64_t> released;   // release bits, one word per warp (lanes)
  };
  uint64_t units(const CtaShape& shape) const;

  uint32_t granularity_;
  uint64_t t_;
  CtaPairs pairs_;
  std::vector<Cta> ctas_;
  const sched::SharingClassifier* other_ = nullptr;
  uint64_t pairs_formed_ = 0;
  uint64_t lock_acquisitions_ = 0;
  uint64_t lock_stalls_ = 0;
  uint64_t lock_releases_early_ = 0;
  uint64_t relssp_completions_ = 0;
};

}  // namespace simtlm::models::smem
