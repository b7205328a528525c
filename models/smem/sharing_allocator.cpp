#include "models/smem/sharing_allocator.h"

#include <algorithm>

#include "functional/shared_access.h"
#include "models/sm/inst_timing.h"
#include "models/sm/sharing_occupancy.h"

namespace simtlm::models::smem {

namespace {
uint64_t round_up(uint64_t v, uint64_t g) { return g <= 1 ? v : (v + g - 1) / g * g; }
}  // namespace

SharingAllocator::SharingAllocator(const AllocatorParams& params)
    : granularity_(params.granularity == 0 ? 1 : params.granularity),
      t_(threshold_millionths(params.sharing_threshold)),
      pairs_(params.bytes, t_, params.max_ctas),
      ctas_(params.max_ctas) {}

uint64_t SharingAllocator::units(const CtaShape& shape) const { return round_up(shape.shared_bytes, granularity_); }

uint32_t SharingAllocator::max_ctas(const CtaShape& shape) const {
  return sharing_occupancy(pairs_.capacity(), units(shape), t_, pairs_.size()).ctas;
}

bool SharingAllocator::can_admit(const CtaShape& shape) const { return pairs_.can_admit(units(shape), shape.warps); }

void SharingAllocator::admit(uint32_t cta_slot, const CtaShape& shape) {
  pairs_.admit(cta_slot, units(shape), shape.warps);
  ctas_[cta_slot] = Cta{};
  ctas_[cta_slot].private_limit = units(shape) * t_;
  ctas_[cta_slot].threads = shape.threads;
  ctas_[cta_slot].released.assign(shape.warps, 0);
  if (pairs_.partner(cta_slot) != CtaPairs::kNone) ++pairs_formed_;
}

void SharingAllocator::release(uint32_t cta_slot) {
  pairs_.release(cta_slot);
  ctas_[cta_slot] = Cta{};
}

void SharingAllocator::release_lock(uint32_t cta_slot) {
  if (!ctas_[cta_slot].holds) return;
  ctas_[cta_slot].holds = false;
  ++lock_releases_early_;
}

void SharingAllocator::relssp(uint32_t cta_slot, uint32_t warp_in_cta, uint64_t lanes) {
  Cta& c = ctas_[cta_slot];
  if (warp_in_cta >= c.released.size()) return;
  const uint64_t fresh = lanes & ~c.released[warp_in_cta];
  c.released[warp_in_cta] |= fresh;
  c.released_threads += static_cast<uint32_t>(__builtin_popcountll(fresh));
  if (c.released_threads < c.threads) return;
  std::fill(c.released.begin(), c.released.end(), 0);
  c.released_threads = 0;
  ++relssp_completions_;
  release_lock(cta_slot);
}

IssueCheck SharingAllocator::may_issue(const IssueQuery& q) {
  Cta& c = ctas_[q.cta_slot];
  if (c.holds || q.timing == nullptr || q.warp == nullptr || q.ctx == nullptr) return IssueCheck::Ok;
  if (q.timing->path != MemPath::Shared && q.timing->path != MemPath::Generic) return IssueCheck::Ok;
  uint64_t lo = 0, hi = 0;
  if (!functional::shared_access_range(*q.ctx, *q.warp, q.pc, lo, hi)) return IssueCheck::Ok;
  // Byte b is private when b < t R_tb, i.e. b x 10^6 < private_limit.
  if ((hi - 1) * kThresholdScale < c.private_limit) return IssueCheck::Ok;
  const uint32_t p = pairs_.partner(q.cta_slot);
  if (p != CtaPairs::kNone && (ctas_[p].holds || (other_ != nullptr && other_->holds_lock_against(p, q.cta_slot)))) {
    ++lock_stalls_;
    return IssueCheck::Blocked;
  }
  c.holds = true;
  if (p != CtaPairs::kNone) ++lock_acquisitions_;
  return IssueCheck::Ok;
}

sched::SharingClass SharingAllocator::sharing_class(uint32_t cta_slot) const {
  const uint32_t p = pairs_.partner(cta_slot);
  return pairs_.sharing_class(cta_slot, ctas_[cta_slot].holds, p != CtaPairs::kNone && ctas_[p].holds);
}

void SharingAllocator::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("sharing");
  g.counter("pairs", &pairs_formed_, "pairs", "CTA pairs formed (a CTA admitted as the partner of a resident one)");
  g.counter("lock_acquisitions", &lock_acquisitions_, "locks",
            "pair locks taken by a paired CTA on its first access to the shared region");
  g.counter("lock_stalls", &lock_stalls_, "checks",
            "issue checks refused because the partner CTA holds the pair's shared region");
  g.counter("lock_early_releases", &lock_releases_early_, "locks",
            "pair locks given back before the holding CTA completed (relssp)");
  g.counter("relssp_completions", &relssp_completions_, "CTAs",
            "times every active thread of a CTA had executed relssp (the lock, if held, is released)");
}

}  // namespace simtlm::models::smem
