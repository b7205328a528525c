#include "models/sm/cta_table.h"

#include <algorithm>
#include <string>

#include "models/sm/occupancy.h"
#include "simtlm/error.h"

namespace simtlm::models {

CtaTable::CtaTable(const SmParams& p, uint32_t max_warps, Parts parts, std::unique_ptr<regfile::Allocator> regs,
                   std::unique_ptr<smem::Allocator> smem)
    : p_(p), max_warps_(max_warps), warps_(parts.warps), front_(parts.front), policy_(parts.policy),
      stats_(parts.stats), bus_(parts.bus), regs_(std::move(regs)), smem_(std::move(smem)), ctas_(p.resident_ctas()) {
  check_.reserve(p.resident_ctas() * 2);
}

CtaEvent CtaTable::event(uint32_t cslot, uint64_t c) const {
  const CtaState& cs = ctas_[cslot];
  CtaEvent e;
  e.cycle = c;
  e.cta_slot = cslot;
  e.cta_id = cs.linear_id;
  e.warps = cs.shape.warps;
  return e;
}

WarpEvent CtaTable::warp_event(uint32_t slot, uint64_t c) const {
  const WarpState& w = warps_[slot];
  WarpEvent e;
  e.cycle = c;
  e.warp_slot = slot;
  e.cta_slot = w.cta_slot;
  e.cta_id = ctas_[w.cta_slot].linear_id;
  e.warp_in_cta = w.warp_in_cta;
  return e;
}

sched::WarpInfo CtaTable::warp_info(uint32_t slot) const {
  const WarpState& w = warps_[slot];
  sched::WarpInfo info;
  info.slot = slot;
  info.scheduler = w.scheduler;
  info.age = w.age;
  info.cta_slot = w.cta_slot;
  info.cta_id = ctas_[w.cta_slot].linear_id;
  info.warp_in_cta = w.warp_in_cta;
  return info;
}

uint32_t CtaTable::max_resident_ctas(const CtaShape& shape) const {
  // One computation for the dispatcher, `simtlm list --details` and the tests.
  // It builds the configured allocators to ask them (about a million host
  // instructions), and every launch asks again, mostly for a shape seen before.
  for (const auto& [seen, ctas] : fit_memo_) {
    if (seen == shape) return ctas;
  }
  if (fit_memo_.size() >= 64) fit_memo_.clear();  // many distinct shapes: keep the list short
  fit_memo_.emplace_back(shape, occupancy_limits(p_, shape).ctas);
  return fit_memo_.back().second;
}

bool CtaTable::can_admit(const CtaShape& shape) const {
  if (shape.warps == 0 || shape.warp_size != p_.warp_size) return false;
  // Resident limits (= the active ones unless a mechanism such as FineReg
  // keeps pending CTAs; its allocator then enforces the active limits); a
  // CTA reserves whole warp-slot groups (the vws platform's slices).
  if (busy_ctas_ >= ctas_.size()) return false;
  if (reserved_warps_ + p_.reserved_slots(shape.warps) > max_warps_) return false;
  if (reserved_threads_ + shape.padded_threads() > p_.resident_threads()) return false;
  return regs_->can_admit(shape) && smem_->can_admit(shape);
}

std::shared_ptr<const KernelTiming> CtaTable::timing_for(const functional::LaunchContext& ctx) {
  // Reuse the table of a launch that still has CTAs here; drop tables nobody
  // uses any more (their LaunchContext may be gone).
  timings_.erase(std::remove_if(timings_.begin(), timings_.end(),
                                [](const std::shared_ptr<const KernelTiming>& t) { return t.use_count() == 1; }),
                 timings_.end());
  for (const auto& t : timings_) {
    if (&t->ctx() == &ctx) return t;
  }
  timings_.push_back(std::make_shared<const KernelTiming>(ctx, p_));
  return timings_.back();
}

void CtaTable::admit(functional::LaunchContext& ctx, uint64_t linear_cta_id, const uint64_t* cycle_counter,
                     uint64_t cycle) {
  const CtaShape shape = CtaShape::of(ctx);
  uint32_t slot = 0;
  while (ctas_[slot].status != CtaState::Status::Free) ++slot;
  CtaState& cs = ctas_[slot];
  cs.cta = std::make_unique<functional::Cta>(ctx, linear_cta_id);
  cs.cta->set_sm_id(p_.id);                 // %smid
  cs.cta->set_cycle_counter(cycle_counter);  // %clock/%clock64: the SM's core cycle at issue
  cs.ctx = &ctx;
  cs.timing = timing_for(ctx);
  cs.shape = shape;
  cs.linear_id = linear_cta_id;
  cs.status = CtaState::Status::Pending;
  regs_->admit(slot, shape);
  cs.suspended = regs_->starts_suspended(slot);
  smem_->admit(slot, shape);
  ++busy_ctas_;
  reserved_warps_ += p_.reserved_slots(shape.warps);
  reserved_threads_ += shape.padded_threads();
  pending_.push_back(slot);
  if (!bus_.empty()) {
    const CtaEvent e = event(slot, cycle);
    bus_.publish([&](SmObserver& o) { o.on_cta_admit(e); });
  }
}

void CtaTable::activate_pending(uint64_t c) {
  for (uint32_t cslot : pending_) {
    CtaState& cs = ctas_[cslot];
    cs.status = CtaState::Status::Active;
    cs.launch_cycle = c;
    cs.outstanding = 0;
    cs.warp_slots.clear();
    const size_t n = cs.cta->num_warps();
    cs.warps_left = static_cast<uint32_t>(n);
    // At least two words: the scoreboard's operand-mask test reads both.
    const size_t words = std::max<size_t>(2, (cs.timing->num_regs() + 63) / 64 + 1);
    uint32_t next_free = 0;
    const uint32_t group = p_.warp_slot_group;
    uint32_t group_base = 0;
    for (size_t i = 0; i < n; ++i) {
      if (group == 1) {
        while (warps_[next_free].resident) ++next_free;
      } else {
        // A group is used by one CTA from its first slot on: a free first
        // slot means a free group (admission reserved whole groups).
        if (i % group == 0) {
          while (warps_[group_base].resident) group_base += group;
        }
        next_free = group_base + static_cast<uint32_t>(i % group);
      }
      const uint32_t ws = next_free;
      WarpState& w = warps_[ws];
      w.resident = true;
      w.live = true;
      w.finished = false;
      w.warp = &cs.cta->warp(i);
      w.timing = cs.timing.get();
      w.cta_slot = cslot;
      w.warp_in_cta = static_cast<uint32_t>(i);
      w.scheduler = ws % p_.schedulers;
      w.age = age_counter_++;
      w.ib_pc = w.warp->pc();
      w.ib_count = 0;
      w.fetch_inflight = false;
      front_.forget(ws);
      w.scoreboard.assign(2 * words, 0);
      w.pending = w.scoreboard.data();
      w.pending_long = w.pending + words;
      w.pc = w.warp->pc();
      w.waiting = w.warp->waiting();
      w.outstanding = 0;
      w.at_barrier = false;
      w.eligible_from = 0;
      w.sb_blocked = false;
      w.last_stall = sched::StallKind::Fetch;
      w.blocking_reg = kNoSlot;
      cs.warp_slots.push_back(ws);
      if (cs.suspended) {
        // Admitted suspended: resident, but not offered until resume().
        w.live = false;
        warps_.park(ws, WarpTable::kParkedDead);
        continue;
      }
      warps_.park(ws, kIssued);
      warps_.add_live(w.scheduler);
      policy_.warp_added(warp_info(ws));
      front_.want_fetch(ws);
    }
    ++resident_ctas_;
    resident_warps_ += static_cast<uint32_t>(n);
    ++stats_.ctas_launched;
    stats_.warps_launched += n;
    stats_.max_resident_ctas = std::max<uint64_t>(stats_.max_resident_ctas, resident_ctas_);
    stats_.max_resident_warps = std::max<uint64_t>(stats_.max_resident_warps, resident_warps_);
    policy_.on_cta_launch(cslot, cs.linear_id, c);
    if (!bus_.empty()) {
      const CtaEvent e = event(cslot, c);
      bus_.publish([&](SmObserver& o) { o.on_cta_activate(e); });
      for (uint32_t ws : cs.warp_slots) {
        const WarpEvent we = warp_event(ws, c);
        bus_.publish([&](SmObserver& o) { o.on_warp_launch(we); });
      }
      if (cs.suspended) bus_.publish([&](SmObserver& o) { o.on_cta_suspend(e); });
    }
  }
  pending_.clear();
}

void CtaTable::suspend(uint32_t cslot, uint64_t c) {
  CtaState& cs = ctas_[cslot];
  if (cs.status != CtaState::Status::Active) {
    throw Error(ErrorKind::Internal, "suspend of CTA slot " + std::to_string(cslot) + ", which is not active");
  }
  if (cs.suspended) return;
  cs.suspended = true;
  for (uint32_t ws : cs.warp_slots) {
    WarpState& w = warps_[ws];
    if (!w.live) continue;
    w.live = false;
    warps_.park(ws, WarpTable::kParkedDead);
    warps_.remove_live(w.scheduler);
    front_.forget(ws);
    policy_.warp_removed(ws);
  }
  regs_->suspend(cslot);
  smem_->suspend(cslot);
  if (!bus_.empty()) {
    const CtaEvent e = event(cslot, c);
    bus_.publish([&](SmObserver& o) { o.on_cta_suspend(e); });
  }
}

void CtaTable::resume(uint32_t cslot, uint64_t c) {
  CtaState& cs = ctas_[cslot];
  if (cs.status != CtaState::Status::Active || !cs.suspended) {
    throw Error(ErrorKind::Internal, "resume of CTA slot " + std::to_string(cslot) + ", which is not suspended");
  }
  cs.suspended = false;
  regs_->resume(cslot);
  smem_->resume(cslot);
  for (uint32_t ws : cs.warp_slots) {
    WarpState& w = warps_[ws];
    if (w.finished) continue;
    w.live = true;
    w.sb_blocked = false;  // re-examined: the scoreboard answers again
    warps_.park(ws, kIssued);
    warps_.add_live(w.scheduler);
    policy_.warp_added(warp_info(ws));
    if (w.ib_count == 0) front_.want_fetch(ws);
  }
  if (!bus_.empty()) {
    const CtaEvent e = event(cslot, c);
    bus_.publish([&](SmObserver& o) { o.on_cta_resume(e); });
  }
}

void CtaTable::warp_finished(uint32_t slot, uint64_t c) {
  WarpState& w = warps_[slot];
  CtaState& cs = ctas_[w.cta_slot];
  warps_.park(slot, WarpTable::kParkedDead);
  w.live = false;
  w.finished = true;
  w.ib_count = 0;
  warps_.remove_live(w.scheduler);
  --resident_warps_;
  --cs.warps_left;
  policy_.warp_removed(slot);
  regs_->warp_finished(w.cta_slot, w.warp_in_cta);
  smem_->warp_finished(w.cta_slot, w.warp_in_cta);
  if (!bus_.empty()) {
    const WarpEvent e = warp_event(slot, c);
    bus_.publish([&](SmObserver& o) { o.on_warp_finish(e); });
  }
  if (cs.warps_left == 0 && cs.outstanding == 0) check_.push_back(w.cta_slot);
}

void CtaTable::complete(uint32_t cslot, uint64_t c) {
  CtaState& cs = ctas_[cslot];
  for (uint32_t ws : cs.warp_slots) {
    WarpState& w = warps_[ws];
    front_.forget(ws);
    w.resident = false;
    w.live = false;
    warps_.park(ws, WarpTable::kParkedDead);
    w.warp = nullptr;
    w.timing = nullptr;
    w.ib_count = 0;
    w.fetch_inflight = false;
  }
  regs_->release(cslot);
  smem_->release(cslot);
  policy_.on_cta_exit(cslot, cs.linear_id, c);
  if (!bus_.empty()) {
    const CtaEvent e = event(cslot, c);
    bus_.publish([&](SmObserver& o) { o.on_cta_exit(e); });
  }
  --resident_ctas_;
  --busy_ctas_;
  reserved_warps_ -= p_.reserved_slots(cs.shape.warps);
  reserved_threads_ -= cs.shape.padded_threads();
  ++stats_.ctas_completed;
  const functional::LaunchContext& ctx = *cs.ctx;
  const uint64_t id = cs.linear_id;
  // Keep the timing table alive until the callback returned (it may launch
  // another CTA of the same launch).
  std::shared_ptr<const KernelTiming> keep = std::move(cs.timing);
  cs.cta.reset();
  cs.warp_slots.clear();
  cs.ctx = nullptr;
  cs.suspended = false;
  cs.status = CtaState::Status::Free;
  if (complete_fn_) complete_fn_(ctx, id);
}

void CtaTable::finish(uint64_t c) {
  for (size_t i = 0; i < check_.size(); ++i) {
    const uint32_t cslot = check_[i];
    const CtaState& cs = ctas_[cslot];
    if (cs.status == CtaState::Status::Active && cs.warps_left == 0 && cs.outstanding == 0) complete(cslot, c);
  }
  check_.clear();
}

}  // namespace simtlm::models
