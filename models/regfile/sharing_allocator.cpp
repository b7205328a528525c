#include "models/regfile/sharing_allocator.h"


#include "models/sm/inst_timing.h"
#include "models/sm/sharing_occupancy.h"

namespace simtlm::models::regfile {

namespace {
uint64_t round_up(uint64_t v, uint64_t g) { return g <= 1 ? v : (v + g - 1) / g * g; }
}  // namespace

SharingAllocator::SharingAllocator(const AllocatorParams& params)
    : granularity_(params.granularity == 0 ? 1 : params.granularity),
      t_(threshold_millionths(params.sharing_threshold)),
      deadlock_rule_(params.sharing_deadlock_rule),
      pairs_(params.registers, t_, params.max_ctas),
      ctas_(params.max_ctas) {}

uint64_t SharingAllocator::units(const CtaShape& shape) const {
  return round_up(shape.regs_per_thread, granularity_) * shape.padded_threads();
}

uint32_t SharingAllocator::max_ctas(const CtaShape& shape) const {
  return sharing_occupancy(pairs_.capacity(), units(shape), t_, pairs_.size()).ctas;
}

bool SharingAllocator::can_admit(const CtaShape& shape) const { return pairs_.can_admit(units(shape), shape.warps); }

void SharingAllocator::admit(uint32_t cta_slot, const CtaShape& shape) {
  pairs_.admit(cta_slot, units(shape), shape.warps);
  Cta& c = ctas_[cta_slot];
  c.private_regs = static_cast<uint32_t>(uint64_t{shape.regs_per_thread} * t_ / kThresholdScale);
  c.holders = 0;
  c.holds.assign(shape.warps, 0);
  if (pairs_.partner(cta_slot) != CtaPairs::kNone) ++pairs_formed_;
}

void SharingAllocator::release(uint32_t cta_slot) {
  pairs_.release(cta_slot);
  ctas_[cta_slot] = Cta{};
}

bool SharingAllocator::warp_holds_lock(uint32_t cta_slot, uint32_t warp_in_cta) const {
  const Cta& c = ctas_[cta_slot];
  return warp_in_cta < c.holds.size() && c.holds[warp_in_cta] != 0;
}

bool SharingAllocator::may_acquire(uint32_t cta_slot) const {
  const uint32_t p = pairs_.partner(cta_slot);
  if (p == CtaPairs::kNone) return true;
  if (other_ != nullptr && other_->holds_lock_against(p, cta_slot)) return false;
  return !deadlock_rule_ || ctas_[p].holders == 0;
}

IssueCheck SharingAllocator::may_issue(const IssueQuery& q) {
  Cta& c = ctas_[q.cta_slot];
  if (q.timing == nullptr || q.warp_in_cta >= c.holds.size() || c.holds[q.warp_in_cta]) return IssueCheck::Ok;
  // Registers 1..private_regs are private; a higher number is shared.
  if (q.timing->max_reg_number <= c.private_regs) return IssueCheck::Ok;
  const uint32_t p = pairs_.partner(q.cta_slot);
  if (p != CtaPairs::kNone && warp_holds_lock(p, q.warp_in_cta)) {
    ++lock_stalls_;
    return IssueCheck::Blocked;
  }
  if (!may_acquire(q.cta_slot)) {
    ++deadlock_rule_stalls_;
    return IssueCheck::Blocked;
  }
  c.holds[q.warp_in_cta] = 1;
  ++c.holders;
  if (p != CtaPairs::kNone) ++lock_acquisitions_;
  return IssueCheck::Ok;
}

void SharingAllocator::warp_finished(uint32_t cta_slot, uint32_t warp_in_cta) {
  Cta& c = ctas_[cta_slot];
  if (warp_in_cta < c.holds.size() && c.holds[warp_in_cta]) {
    c.holds[warp_in_cta] = 0;
    --c.holders;
  }
}

sched::SharingClass SharingAllocator::sharing_class(uint32_t cta_slot) const {
  const uint32_t p = pairs_.partner(cta_slot);
  return pairs_.sharing_class(cta_slot, ctas_[cta_slot].holders > 0, p != CtaPairs::kNone && ctas_[p].holders > 0);
}

void SharingAllocator::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("sharing");
  g.counter("pairs", &pairs_formed_, "pairs", "CTA pairs formed (a CTA admitted as the partner of a resident one)");
  g.counter("lock_acquisitions", &lock_acquisitions_, "locks",
            "warp-pair locks taken by a warp of a paired CTA on its first shared-register access");
  g.counter("lock_stalls", &lock_stalls_, "checks",
            "issue checks refused because the partner warp holds the pair's shared registers");
  g.counter("deadlock_rule_stalls", &deadlock_rule_stalls_, "checks",
            "issue checks refused by the deadlock-avoidance rule (a partner-CTA warp holds a lock)");
}

}  // namespace simtlm::models::regfile
