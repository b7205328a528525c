#include "models/sm/issue_stage.h"

#include <algorithm>

#include "models/sm/builtin_gates.h"
#include "models/sm/extension_timing.h"

namespace simtlm::models {

using sched::StallKind;

IssueStage::IssueStage(const SmParams& p, Parts parts)
    : p_(p), max_warps_(parts.warps.size()), last_reason_(p.schedulers, kIdle), parts_(parts) {
  refresh_flags();
}

void IssueStage::add_gate(IssueGate& gate) {
  gates_.push_back(&gate);
  refresh_flags();
}

void IssueStage::refresh_flags() {
  sched::Policy& policy = parts_.policy;
  policy_wants_stalls_ = policy.wants_stall_events();
  policy_wants_details_ = policy.wants_issue_details();
  no_issue_veto_ = gates_.empty();
  scan_memo_usable_ = no_issue_veto_ && !policy_wants_stalls_ && policy.order_changes_only_on_events();
}

uint64_t& IssueStage::slot_counter(uint8_t reason) {
  SmStats& s = parts_.stats;
  switch (reason) {
    case kIssued: return s.slot_issued;
    case kFetch: return s.slot_fetch;
    case kBarrier: return s.slot_barrier;
    case kScoreboard: return s.slot_scoreboard;
    case kPipeline: return s.slot_pipeline;
    case kMemory: return s.slot_memory;
    case kThrottled: return s.slot_throttled;
    default: return s.slot_idle;
  }
}

// Which stall a slot reports when several warps stall: the most advanced one
// (the first of equals in the policy's order).
int IssueStage::reason_priority(uint8_t reason) {
  // kIssued, kIdle, kFetch, kBarrier, kScoreboard, kPipeline, kMemory, kThrottled, kParkedDead
  static constexpr uint8_t kPriority[kReasons + 1] = {1, 1, 2, 3, 4, 5, 5, 5, 1};
  return kPriority[reason];
}

bool IssueStage::run(uint64_t c) {
  try {
    if (group_unit_ == nullptr) return run_schedulers<false>(c, 0);
    const uint64_t closed = group_unit_->issue_groups(c, *this);
    if (fault_) return false;  // a device fault in a group's issue
    return run_schedulers<true>(c, closed);
  } catch (...) {  // a gate's model check (functional faults are caught at issue)
    fault_ = std::current_exception();
    return false;
  }
}

bool IssueStage::ready(uint32_t slot, uint64_t c) {
  StallKind stall = StallKind::Fetch;
  if (check_ready(slot, c, stall) == kIssued) return true;
  parts_.warps[slot].last_stall = stall;
  return false;
}

// `closed`: schedulers whose slot the group unit used this cycle. Without a
// group unit (Grouped = false) the loop carries no test of it: the baseline's
// per-cycle path stays as it was (docs/performance.md, fifteenth session).
template <bool Grouped>
bool IssueStage::run_schedulers(uint64_t c, uint64_t closed) {
  WarpTable& warps = parts_.warps;
  sched::Policy& policy = parts_.policy;
  const uint64_t order_version = policy_wants_stalls_ ? policy.stall_order_version() : 0;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    if (Grouped && ((closed >> s) & 1u)) {
      last_reason_[s] = kIssued;
      ++slot_counter(kIssued);
      continue;
    }
    uint8_t best = kIdle;
    bool issued = false;
    WarpTable::ScanMemo& memo = warps.memo(s);
    const uint32_t live = warps.live_on(s);
    if (live > 0 && warps.memo_holds(memo, c, parts_.ldst.backlog_busy())) {
      // Same result as the last scan (see ScanMemo), without walking the warps.
      if (memo.until != kNeverCycle) structural_wake_ = std::min(structural_wake_, memo.until);
      ++slot_counter(last_reason_[s]);
      continue;
    }
    bool all_parked = true;
    bool needs_backlog = false;
    uint64_t memo_until = kNeverCycle;  // earliest structural deadline of the warps left parked
    uint32_t waiting_reasons = 0;       // bit per reason of the warps skipped by the fast path
    if (live > 0) {
      // Only an issue (after which the scan stops) changes the backlog.
      const bool backlog_busy = parts_.ldst.backlog_busy();
      // Without stall events for the policy, a warp parked until an event
      // (see kWaitsForEvent) only contributes its reason to the slot's stall.
      const uint32_t skip_mask = policy_wants_stalls_ ? 0u : WarpTable::kWaitsForEvent;
      for (uint32_t slot : policy.order(s, c)) {
        if (slot >= max_warps_) continue;
        const uint8_t parked = warps.parked(slot);
        if (parked != kIssued) {
          if ((skip_mask >> parked) & 1u) {
            waiting_reasons |= 1u << parked;
            continue;
          }
          if (parked == WarpTable::kParkedDead) continue;
          const uint64_t until = warps.parked_until(slot);
          // A warp parked behind the LD/ST backlog stays parked while the
          // backlog is not empty (it would only find it busy again).
          if (until == kNeverCycle ? (parked != kMemory || backlog_busy) : c < until) {
            // Nothing it waits for has happened: same stall as when parked.
            warps.note_parked(slot, memo_until, needs_backlog);
            if (policy_wants_stalls_) policy.on_stall(slot, warps[slot].last_stall, c);
            if (reason_priority(parked) > reason_priority(best)) best = parked;
            continue;
          }
          warps.clear_park(slot);  // a structural park ran out: examine again
        }
        StallKind stall = StallKind::Fetch;
        const IssueReason r = check_ready(slot, c, stall);
        if (r == kIssued) {
          if (!issue(slot, c)) return false;  // device fault
          issued = true;
          for (uint32_t extra = 1; extra < p_.max_issue_per_warp && warps[slot].live; ++extra) {
            if (check_ready(slot, c, stall) != kIssued) break;
            if (!issue(slot, c)) return false;
          }
          break;
        }
        warps[slot].last_stall = stall;
        if (policy_wants_stalls_) policy.on_stall(slot, stall, c);
        if (reason_priority(r) > reason_priority(best)) best = r;
        if (warps.parked(slot) == kIssued) {
          all_parked = false;  // a stall that does not park (e.g. barrier release delay)
        } else {
          warps.note_parked(slot, memo_until, needs_backlog);
        }
      }
    }
    // The structural deadlines of warps left parked are the SM's structural
    // wake-up, as their examination would have made them.
    structural_wake_ = std::min(structural_wake_, memo_until);
    // The skipped warps' reasons each have a priority of their own (below
    // the structural ones, rising with the reason's value: fetch < barrier <
    // scoreboard), so the highest of them is the one the in-order comparison
    // would have kept.
    static_assert(kFetch < kBarrier && kBarrier < kScoreboard, "skipped reasons ordered by priority");
    const uint32_t skipped = waiting_reasons & WarpTable::kEventReasons;
    if (skipped != 0) {
      const uint8_t r = static_cast<uint8_t>(31 - __builtin_clz(skipped));
      if (reason_priority(r) > reason_priority(best)) best = r;
    }
    const uint8_t reason = issued ? static_cast<uint8_t>(kIssued) : best;
    memo.valid = scan_memo_usable_ && warps.live_on(s) > 0 && !issued && all_parked;
    memo.until = memo_until;
    memo.needs_backlog = needs_backlog;
    last_reason_[s] = reason;
    ++slot_counter(reason);
  }
  // Stall events changed what the policy offers: look again next cycle.
  if (policy_wants_stalls_ && !issued_this_cycle_ && policy.stall_order_version() != order_version) {
    throttled_this_cycle_ = true;
  }
  return true;
}

IssueReason IssueStage::check_ready(uint32_t slot, uint64_t c, StallKind& stall) {
  WarpTable& warps = parts_.warps;
  WarpState& w = warps[slot];
  if (w.sb_blocked) {
    stall = w.sb_kind;
    warps.park(slot, kScoreboard);
    return kScoreboard;
  }
  w.blocking_reg = kNoSlot;
  if (w.waiting) {
    stall = StallKind::Barrier;
    warps.park(slot, kBarrier);
    return kBarrier;
  }
  if (c < w.eligible_from) {
    stall = StallKind::Barrier;
    return kBarrier;
  }
  if (w.ib_count == 0) {
    stall = StallKind::Fetch;
    warps.park(slot, kFetch);
    return kFetch;
  }
  if (w.ib_pc != w.pc) {
    // The warp went elsewhere (taken/divergent branch, reconvergence).
    parts_.front.flush(w);
    parts_.front.want_fetch(slot);
    stall = StallKind::Fetch;
    warps.park(slot, kFetch);
    return kFetch;
  }
  const InstTiming& info = w.timing->at(w.ib_pc);
  if (parts_.scoreboard.blocks(w, info, stall)) return kScoreboard;
  if (!no_issue_veto_ && !gates_allow(w, info, slot, c, stall)) {
    throttled_this_cycle_ = true;
    switch (stall) {
      case StallKind::Pipeline: case StallKind::WakeUp: return kPipeline;  // a register waking up is a structure
      case StallKind::Memory: return kMemory;
      case StallKind::Scoreboard: case StallKind::LongLatency: return kScoreboard;
      case StallKind::Barrier: return kBarrier;
      case StallKind::Fetch: return kFetch;
      default: return kThrottled;
    }
  }
  const bool mem = info.is_memory();
  const uint64_t cu = parts_.collector.free_at(info.collector);
  if (cu > c) {
    structural_wake_ = std::min(structural_wake_, cu);
    stall = mem ? StallKind::Memory : StallKind::Pipeline;
    if (no_issue_veto_) warps.park_until(slot, mem ? kMemory : kPipeline, cu);
    return mem ? kMemory : kPipeline;
  }
  const uint64_t unit = parts_.units.free_at(info.unit);
  if (unit > c + 1) {
    structural_wake_ = std::min(structural_wake_, unit - 1);
    stall = mem ? StallKind::Memory : StallKind::Pipeline;
    if (no_issue_veto_) warps.park_until(slot, mem ? kMemory : kPipeline, unit - 1);
    return mem ? kMemory : kPipeline;
  }
  if (mem && parts_.ldst.backlog_busy()) {
    stall = StallKind::Memory;
    if (no_issue_veto_) warps.park(slot, kMemory);
    return kMemory;
  }
  return kIssued;
}

bool IssueStage::gates_allow(const WarpState& w, const InstTiming& info, uint32_t slot, uint64_t c,
                             StallKind& stall) {
  const CtaState& cs = parts_.ctas[w.cta_slot];
  GateQuery q;
  q.cycle = c;
  q.warp_slot = slot;
  q.cta_slot = w.cta_slot;
  q.cta_id = cs.linear_id;
  q.warp_in_cta = w.warp_in_cta;
  q.pc = w.ib_pc;
  q.inst = cs.ctx->decoded(w.ib_pc).inst;
  q.timing = &info;
  q.kernel = &cs.ctx->kernel();
  q.warp = w.warp;
  q.ctx = cs.ctx;
  for (IssueGate* g : gates_) {
    stall = StallKind::Throttled;
    if (!g->allows(q, stall)) return false;
  }
  return true;
}

bool IssueStage::issue(uint32_t slot, uint64_t c) {
  WarpState& w = parts_.warps[slot];
  CtaState& cs = parts_.ctas[w.cta_slot];
  functional::Warp& fw = *w.warp;
  const uint32_t pc = w.ib_pc;
  const InstTiming& info = w.timing->at(pc);
  const uint64_t before_i = fw.instructions();
  const uint64_t before_t = fw.thread_instructions();
  const uint64_t before_o = fw.offchip_accesses();
  const functional::ExecRecord* rec = nullptr;
  try {
    rec = &functional::execute(fw, *cs.cta, *cs.ctx);
  } catch (...) {
    fault_ = std::current_exception();
    return false;
  }
  ++w.ib_pc;
  --w.ib_count;
  if (!fw.finished()) w.pc = fw.pc();
  w.waiting = fw.waiting();
  SmStats& stats = parts_.stats;
  stats.warp_instructions += fw.instructions() - before_i;
  const uint64_t lanes = fw.thread_instructions() - before_t;  // one instruction: its active lanes
  stats.thread_instructions += lanes;
  stats.offchip_accesses += fw.offchip_accesses() - before_o;
  ++stats.active_lanes[lanes];
  ++stats.class_instructions[static_cast<unsigned>(rec->cls) % SmStats::kExecClasses];
  last_issue_cycle_ = c;
  issued_this_cycle_ = true;

  // Operand collection: a collector unit reads the sources from the banks.
  const uint64_t operands = parts_.collector.read(info, slot, c);
  uint64_t& unit = parts_.units.earliest(info.unit);
  const uint64_t exec = std::max(operands, unit);
  parts_.collector.dispatch(info.collector, exec);  // the collector unit dispatches at `exec`
  const bool observed = !parts_.bus.empty();
  if (observed) {
    const RegisterAccess a{c, slot, &info};
    parts_.bus.publish([&](SmObserver& o) { o.on_operand_read(a); });
  }

  if (!info.is_memory()) {
    unit = exec + info.interval;
    if (info.num_dst != 0) {
      Scoreboard::reserve(w, info, false);
      parts_.ctas.op_started(w);
      parts_.writebacks.alu(exec + info.latency, slot, info);
    }
  } else {
    const LdstUnit::Issued m = parts_.ldst.issue(slot, cs.linear_id, *rec, info, exec, unit, parts_.writebacks);
    if (info.num_dst != 0) Scoreboard::reserve(w, info, m.transactions != 0);
    parts_.ctas.op_started(w);
  }
  if (info.extension != nullptr && info.extension->on_issue) {
    ExtensionIssue e{c, slot, w.cta_slot, cs.linear_id, w.warp_in_cta, *rec};
    info.extension->on_issue(parts_.services, e);
  }

  // Policy first (it may still see the warp), then control-flow effects.
  parts_.policy.on_issue(slot, w.scheduler, rec->cls, c);
  if (policy_wants_details_) {
    sched::IssueDetail d;
    d.cycle = c;
    d.slot = slot;
    d.rec = rec;
    d.kernel = &cs.ctx->kernel();
    d.l1d_load = loads_through_l1d(info);
    parts_.policy.on_issue_detail(d);
  }
  if (observed) {
    IssueRecord r;
    r.cycle = c;
    r.scheduler = w.scheduler;
    r.warp_slot = slot;
    r.cta_id = cs.linear_id;
    r.warp_in_cta = w.warp_in_cta;
    r.pc = pc;
    r.cls = rec->cls;
    r.exec = rec;
    parts_.bus.publish([&](SmObserver& o) { o.on_warp_issue(r); });
  }
  if (rec->waiting || rec->released || rec->finished) barrier_effects(*rec, w, cs, slot, c);
  if (rec->finished) {
    parts_.ctas.warp_finished(slot, c);
    return true;
  }
  if (w.ib_count > 0 && w.ib_pc != w.pc) parts_.front.flush(w);
  if (w.ib_count == 0) parts_.front.want_fetch(slot);
  return true;
}

void IssueStage::barrier_effects(const functional::ExecRecord& rec, WarpState& w, CtaState& cs, uint32_t slot,
                                 uint64_t c) {
  WarpTable& warps = parts_.warps;
  if (rec.waiting) {
    w.at_barrier = true;
    parts_.policy.on_barrier(slot, sched::BarrierEvent::Arrive, c);
    publish_barrier(cs, slot, sched::BarrierEvent::Arrive, c);
  }
  if (rec.released || rec.finished) {
    // A release (or an exit that completes a barrier) lets parked warps go.
    for (uint32_t ws : cs.warp_slots) warps.unpark(ws, kBarrier);
  }
  if (rec.released) release_waiters(cs, c);
}

inline void IssueStage::publish_barrier(const CtaState& cs, uint32_t ws, sched::BarrierEvent kind, uint64_t c) {
  if (parts_.bus.empty()) return;
  const WarpState& w = parts_.warps[ws];
  WarpEvent e{c, ws, w.cta_slot, cs.linear_id, w.warp_in_cta};
  parts_.bus.publish([&](SmObserver& o) { o.on_warp_barrier(e, kind); });
}

void IssueStage::release_waiters(CtaState& cs, uint64_t c) {
  WarpTable& warps = parts_.warps;
  for (uint32_t ws : cs.warp_slots) {
    WarpState& o = warps[ws];
    if (o.warp == nullptr) continue;
    o.waiting = o.warp->waiting();
    if (o.at_barrier && !o.waiting) {
      o.at_barrier = false;
      o.eligible_from = c + 1;
      parts_.policy.on_barrier(ws, sched::BarrierEvent::Release, c);
      publish_barrier(cs, ws, sched::BarrierEvent::Release, c);
    }
  }
}

void IssueStage::release_external(CtaState& cs, uint64_t c) {
  for (uint32_t ws : cs.warp_slots) parts_.warps.unpark(ws, kBarrier);
  release_waiters(cs, c);
}

}  // namespace simtlm::models
