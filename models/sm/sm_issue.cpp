// Sm: schedulers, issue (functional execution + timing), operand collection,
// execution pipelines and the LD/ST unit (coalescer, shared memory, constant
// cache, transactions toward the L1D / bypass).
#include <algorithm>

#include "functional/launch.h"
#include "models/sm/sm.h"

namespace simtlm::models {

using functional::ExecClass;
using sched::StallKind;

namespace {

size_t earliest(const std::vector<uint64_t>& v) {
  return static_cast<size_t>(std::min_element(v.begin(), v.end()) - v.begin());
}

// Generic-window base for shared/local lanes of generic accesses.
constexpr uint64_t kLocalSmStride = 1ull << 36;

}  // namespace

uint64_t& Sm::slot_counter(uint8_t reason) {
  switch (reason) {
    case kIssued: return stats_.slot_issued;
    case kFetch: return stats_.slot_fetch;
    case kBarrier: return stats_.slot_barrier;
    case kScoreboard: return stats_.slot_scoreboard;
    case kPipeline: return stats_.slot_pipeline;
    case kMemory: return stats_.slot_memory;
    case kThrottled: return stats_.slot_throttled;
    default: return stats_.slot_idle;
  }
}

// Which stall a slot reports when several warps stall: the most advanced one
// (the first of equals in the policy's order).
int Sm::reason_priority(uint8_t reason) {
  // kIssued, kIdle, kFetch, kBarrier, kScoreboard, kPipeline, kMemory, kThrottled, kParkedDead
  static constexpr uint8_t kPriority[kReasons + 1] = {1, 1, 2, 3, 4, 5, 5, 5, 1};
  return kPriority[reason];
}

void Sm::issue_stage(uint64_t c) {
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    uint8_t best = kIdle;
    bool issued = false;
    ScanMemo& memo = scan_memo_[s];
    if (sched_live_[s] > 0 && memo_holds(memo, c)) {
      // Same result as the last scan (see ScanMemo), without walking the warps.
      if (memo.until != kNever) structural_wake_ = std::min(structural_wake_, memo.until);
      ++slot_counter(last_reason_[s]);
      continue;
    }
    bool all_parked = true;
    bool needs_backlog = false;
    uint64_t memo_until = kNever;  // earliest structural deadline of the warps left parked
    uint32_t waiting_reasons = 0;  // bit per reason of the warps skipped by the fast path
    if (sched_live_[s] > 0) {
      // Only an issue (after which the scan stops) changes the backlog.
      const bool backlog_busy = backlog_head_ < backlog_.size();
      // Without stall events for the policy, a warp parked until an event
      // (see kWaitsForEvent) only contributes its reason to the slot's stall.
      const uint32_t skip_mask = policy_wants_stalls_ ? 0u : kWaitsForEvent;
      for (uint32_t slot : policy_->order(s, c)) {
        if (slot >= max_warps_) continue;
        const uint8_t parked = parked_[slot];
        if (parked != kIssued) {
          if ((skip_mask >> parked) & 1u) {
            waiting_reasons |= 1u << parked;
            continue;
          }
          if (parked == kParkedDead) continue;
          const uint64_t until = parked_until_[slot];
          // A warp parked behind the LD/ST backlog stays parked while the
          // backlog is not empty (it would only find it busy again).
          if (until == kNever ? (parked != kMemory || backlog_busy) : c < until) {
            // Nothing it waits for has happened: same stall as when parked.
            note_parked(slot, memo_until, needs_backlog);
            if (policy_wants_stalls_) policy_->on_stall(slot, warps_[slot].last_stall, c);
            if (reason_priority(parked) > reason_priority(best)) best = parked;
            continue;
          }
          parked_[slot] = kIssued;  // a structural park ran out: examine again
        }
        StallKind stall = StallKind::Fetch;
        const Reason r = check_ready(slot, c, stall);
        if (r == kIssued) {
          if (!issue(slot, c)) return;  // device fault
          issued = true;
          for (uint32_t extra = 1; extra < p_.max_issue_per_warp && warps_[slot].live; ++extra) {
            if (check_ready(slot, c, stall) != kIssued) break;
            if (!issue(slot, c)) return;
          }
          break;
        }
        warps_[slot].last_stall = stall;
        if (policy_wants_stalls_) policy_->on_stall(slot, stall, c);
        if (reason_priority(r) > reason_priority(best)) best = r;
        if (parked_[slot] == kIssued) {
          all_parked = false;  // a stall that does not park (e.g. barrier release delay)
        } else {
          note_parked(slot, memo_until, needs_backlog);
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
    const uint32_t skipped = waiting_reasons & kEventReasons;
    if (skipped != 0) {
      const uint8_t r = static_cast<uint8_t>(31 - __builtin_clz(skipped));
      if (reason_priority(r) > reason_priority(best)) best = r;
    }
    const uint8_t reason = issued ? static_cast<uint8_t>(kIssued) : best;
    memo.valid = scan_memo_usable_ && sched_live_[s] > 0 && !issued && all_parked;
    memo.until = memo_until;
    memo.needs_backlog = needs_backlog;
    last_reason_[s] = reason;
    ++slot_counter(reason);
  }
}

Sm::Reason Sm::check_ready(uint32_t slot, uint64_t c, StallKind& stall) {
  WarpState& w = warps_[slot];
  if (w.sb_blocked) {
    stall = w.sb_kind;
    park(slot, kScoreboard);
    return kScoreboard;
  }
  w.blocking_reg = kNone;
  if (w.waiting) {
    stall = StallKind::Barrier;
    park(slot, kBarrier);
    return kBarrier;
  }
  if (c < w.eligible_from) {
    stall = StallKind::Barrier;
    return kBarrier;
  }
  if (w.ib_count == 0) {
    stall = StallKind::Fetch;
    park(slot, kFetch);
    return kFetch;
  }
  if (w.ib_pc != w.pc) {
    // The warp went elsewhere (taken/divergent branch, reconvergence).
    flush_ibuffer(w);
    want_fetch(slot);
    stall = StallKind::Fetch;
    park(slot, kFetch);
    return kFetch;
  }
  const InstTiming& info = w.timing->at(w.ib_pc);
  // No register in flight among the operands (the common case) is one mask
  // test; otherwise the walk finds the first blocking one in operand order.
  const bool surely_free = info.operand_mask_complete &&
                           ((w.pending[0] & info.operand_mask[0]) | (w.pending[1] & info.operand_mask[1])) == 0;
  for (unsigned i = 0; !surely_free && i < info.num_src + info.num_dst; ++i) {
    const uint32_t r = i < info.num_src ? info.src[i] : info.dst[i - info.num_src];
    if (reg_set(w.pending, r)) {
      w.blocking_reg = r;
      stall = reg_set(w.pending_long, r) ? StallKind::LongLatency : StallKind::Scoreboard;
      w.sb_blocked = true;
      w.sb_kind = stall;
      park(slot, kScoreboard);
      return kScoreboard;
    }
  }
  bool blocked = policy_vetoes_ && !policy_->allows(slot, info.cls);
  if (!blocked && allocators_gate_) {
    const CtaState& cs = ctas_[w.cta_slot];
    IssueQuery q;
    q.warp_slot = slot;
    q.cta_slot = w.cta_slot;
    q.cta_id = cs.linear_id;
    q.warp_in_cta = w.warp_in_cta;
    q.pc = w.ib_pc;
    q.inst = cs.ctx->decoded(w.ib_pc).inst;
    blocked = regs_->may_issue(q) == IssueCheck::Blocked || smem_alloc_->may_issue(q) == IssueCheck::Blocked;
  }
  if (blocked) {
    throttled_this_cycle_ = true;
    stall = StallKind::Throttled;
    return kThrottled;
  }
  const bool mem = info.is_memory();
  const std::vector<uint64_t>& cus = cu_free_[static_cast<unsigned>(info.collector)];
  const uint64_t cu = cus[earliest(cus)];
  if (cu > c) {
    structural_wake_ = std::min(structural_wake_, cu);
    stall = mem ? StallKind::Memory : StallKind::Pipeline;
    if (no_issue_veto_) park_until(slot, mem ? kMemory : kPipeline, cu);
    return mem ? kMemory : kPipeline;
  }
  const std::vector<uint64_t>& units = unit_free_[static_cast<unsigned>(info.unit)];
  const uint64_t unit = units[earliest(units)];
  if (unit > c + 1) {
    structural_wake_ = std::min(structural_wake_, unit - 1);
    stall = mem ? StallKind::Memory : StallKind::Pipeline;
    if (no_issue_veto_) park_until(slot, mem ? kMemory : kPipeline, unit - 1);
    return mem ? kMemory : kPipeline;
  }
  if (mem && backlog_head_ < backlog_.size()) {
    stall = StallKind::Memory;
    if (no_issue_veto_) park(slot, kMemory);
    return kMemory;
  }
  return kIssued;
}

bool Sm::issue(uint32_t slot, uint64_t c) {
  WarpState& w = warps_[slot];
  CtaState& cs = ctas_[w.cta_slot];
  functional::Warp& fw = *w.warp;
  const uint32_t pc = w.ib_pc;
  const InstTiming& info = w.timing->at(pc);
  const uint64_t before_i = fw.instructions();
  const uint64_t before_t = fw.thread_instructions();
  const functional::ExecRecord* rec = nullptr;
  try {
    rec = &functional::execute(fw, *cs.cta, *cs.ctx);
  } catch (...) {
    raise_fault(std::current_exception());
    return false;
  }
  ++w.ib_pc;
  --w.ib_count;
  if (!fw.finished()) w.pc = fw.pc();
  w.waiting = fw.waiting();
  stats_.warp_instructions += fw.instructions() - before_i;
  stats_.thread_instructions += fw.thread_instructions() - before_t;
  ++stats_.class_instructions[static_cast<unsigned>(rec->cls) % SmStats::kExecClasses];
  last_issue_cycle_ = c;
  issued_this_cycle_ = true;

  // Operand collection: a collector unit reads the sources from the banks.
  const uint64_t operands = banks_.read(info.src, info.num_src, slot, c);
  std::vector<uint64_t>& cus = cu_free_[static_cast<unsigned>(info.collector)];
  std::vector<uint64_t>& units = unit_free_[static_cast<unsigned>(info.unit)];
  const size_t u = earliest(units);
  const uint64_t exec = std::max(operands, units[u]);
  cus[earliest(cus)] = exec;  // the collector unit dispatches at `exec`

  if (!info.is_memory()) {
    units[u] = exec + info.interval;
    if (info.num_dst != 0) {
      set_pending(w, info, false);
      ++w.outstanding;
      ++cs.outstanding;
      events_.push({exec + info.latency, event_seq_++, slot, 0, &info});
    }
  } else {
    issue_memory(slot, w, cs, *rec, info, exec, units[u]);
  }

  // Policy first (it may still see the warp), then control-flow effects.
  policy_->on_issue(slot, w.scheduler, rec->cls, c);
  if (issue_obs_) {
    IssueRecord r;
    r.cycle = c;
    r.scheduler = w.scheduler;
    r.warp_slot = slot;
    r.cta_id = cs.linear_id;
    r.warp_in_cta = w.warp_in_cta;
    r.pc = pc;
    r.cls = rec->cls;
    issue_obs_(r);
  }
  if (rec->waiting) {
    w.at_barrier = true;
    policy_->on_barrier(slot, sched::BarrierEvent::Arrive, c);
  }
  if (rec->released || rec->finished) {
    // A release (or an exit that completes a barrier) lets parked warps go.
    for (uint32_t ws : cs.warp_slots) unpark(ws, kBarrier);
  }
  if (rec->released) {
    for (uint32_t ws : cs.warp_slots) {
      WarpState& o = warps_[ws];
      if (o.warp == nullptr) continue;
      o.waiting = o.warp->waiting();
      if (o.at_barrier && !o.waiting) {
        o.at_barrier = false;
        o.eligible_from = c + 1;
        policy_->on_barrier(ws, sched::BarrierEvent::Release, c);
      }
    }
  }
  if (rec->finished) {
    park(slot, kParkedDead);
    w.live = false;
    w.ib_count = 0;
    --sched_live_[w.scheduler];
    --resident_warps_;
    --cs.warps_left;
    policy_->warp_removed(slot);
    if (cs.warps_left == 0 && cs.outstanding == 0) cta_check_.push_back(w.cta_slot);
    return true;
  }
  if (w.ib_count > 0 && w.ib_pc != w.pc) flush_ibuffer(w);
  if (w.ib_count == 0) want_fetch(slot);
  return true;
}

uint64_t Sm::local_address(uint32_t slot, unsigned lane, uint64_t offset) const {
  // Local memory is interleaved word by word across the SM's thread slots so
  // that the same local variable of consecutive lanes is contiguous (as the
  // hardware lays it out); each SM has its own region.
  const uint64_t threads = uint64_t(max_warps_) * p_.warp_size;
  const uint64_t thread = uint64_t(slot) * p_.warp_size + lane;
  return functional::kLocalWindowBase + uint64_t(p_.id) * kLocalSmStride +
         ((offset / 4) * threads + thread) * 4 + (offset % 4);
}

void Sm::issue_memory(uint32_t slot, WarpState& w, CtaState& cs, const functional::ExecRecord& rec,
                      const InstTiming& info, uint64_t exec, uint64_t& unit_free) {
  const uint64_t start = exec + (p_.ldst.latency - 1);  // first cycle of the access
  const uint64_t exec_mask = rec.exec_mask;
  const bool load = rec.cls == ExecClass::Load;
  const bool store = rec.cls == ExecClass::Store;
  const bool atomic = rec.cls == ExecClass::Atomic || rec.cls == ExecClass::Reduction;
  uint64_t shared = 0, local = 0, global = 0, cnst = 0;
  bool param = false, call_param = false;
  uint64_t shared_base = 0, local_base = 0;
  switch (info.path) {
    case MemPath::Shared: shared = exec_mask; break;
    case MemPath::Const: cnst = exec_mask; break;
    case MemPath::Param: param = exec_mask != 0; break;
    case MemPath::CallParam: call_param = exec_mask != 0; break;
    case MemPath::Local: local = exec_mask; break;
    case MemPath::Generic:
      shared = exec_mask & rec.shared_lanes;
      local = exec_mask & rec.local_lanes;
      global = exec_mask & ~(shared | local);
      shared_base = functional::kSharedWindowBase;
      local_base = functional::kLocalWindowBase;
      break;
    default: global = exec_mask; break;
  }

  uint32_t passes = 1;
  bool has_fixed = false;
  uint64_t fixed_done = start + 1;
  if (exec_mask == 0) has_fixed = true;  // every lane guarded off: nothing to access
  if (shared != 0) {
    const uint32_t d = smem_banks_.degree(rec.addresses, shared, rec.access_bytes, shared_base);
    passes = std::max(passes, d);
    has_fixed = true;
    fixed_done = std::max(fixed_done, start + p_.smem_latency + d - 1);
    ++stats_.smem_instructions;
    stats_.smem_passes += d;
    stats_.smem_bank_conflicts += d - 1;
  }
  if (cnst != 0) {
    // The constant cache delivers one word per pass (broadcast to every lane
    // reading it); each distinct word is looked up in its pass.
    const_words_.clear();
    const uint32_t bytes = rec.access_bytes == 0 ? 4 : rec.access_bytes;
    for (uint64_t m = cnst; m; m &= m - 1) {
      const uint64_t a = rec.addresses[__builtin_ctzll(m)];
      for (uint64_t word = a / 4; word <= (a + bytes - 1) / 4; ++word) const_words_.push_back(word);
    }
    std::sort(const_words_.begin(), const_words_.end());
    const_words_.erase(std::unique(const_words_.begin(), const_words_.end()), const_words_.end());
    const uint32_t n = static_cast<uint32_t>(const_words_.size());
    for (uint32_t i = 0; i < n; ++i) {
      fixed_done = std::max(fixed_done, const_cache_.access(const_words_[i] * 4, start + i));
    }
    passes = std::max(passes, n);
    has_fixed = true;
    ++stats_.const_instructions;
    stats_.const_passes += n;
  }
  if (param) {
    has_fixed = true;
    fixed_done = std::max(fixed_done, start + p_.param_latency);
    ++stats_.param_instructions;
  }
  if (call_param) {
    has_fixed = true;
    fixed_done = std::max(fixed_done, start + p_.sp.latency);
  }

  // Global and local lanes: one transaction per line touched.
  const size_t first_txn = backlog_.size();
  const AccessKind kind = atomic ? AccessKind::Atomic : store ? AccessKind::Store : AccessKind::Load;
  const bool bypass = !l1d_ || atomic || (load && (!p_.l1d_cache_global || info.global_skips_l1d));
  auto emit = [&](StateSpace space, bool bypass_l1, bool evict_first) {
    for (const LineRequest& lr : coalescer_.lines()) {
      Txn t;
      t.addr = lr.line;
      t.sectors = lr.sectors;
      t.slot = slot;
      t.pc = rec.pc;
      t.cta_id = cs.linear_id;
      t.ready = start;
      t.kind = kind;
      t.space = space;
      t.bypass = bypass_l1;
      t.evict_first = evict_first;
      backlog_.push_back(t);
    }
  };
  const uint32_t bytes = rec.access_bytes == 0 ? 1 : rec.access_bytes;
  if (global != 0) {
    coalescer_.clear();
    for (uint64_t m = global; m; m &= m - 1) coalescer_.add(rec.addresses[__builtin_ctzll(m)], bytes);
    emit(StateSpace::Global, bypass, info.evict_first);
    if (load) ++stats_.global_load_instructions;
    if (store) ++stats_.global_store_instructions;
    if (atomic) ++stats_.atomic_instructions;
  }
  if (local != 0) {
    coalescer_.clear();
    for (uint64_t m = local; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
      const uint64_t off = rec.addresses[lane] - local_base;
      for (uint64_t b = 0; b < bytes; b += 4) {
        coalescer_.add(local_address(slot, lane, off + b), std::min<uint32_t>(4, static_cast<uint32_t>(bytes - b)));
      }
    }
    emit(StateSpace::Local, !l1d_ || atomic, false);
    if (load) ++stats_.local_load_instructions;
    if (store) ++stats_.local_store_instructions;
  }
  const uint32_t txns = static_cast<uint32_t>(backlog_.size() - first_txn);
  if (txns == 0 && !has_fixed) has_fixed = true;

  const uint32_t op = new_memop();
  MemOp& m = memops_[op];
  m.slot = slot;
  m.info = &info;
  m.transactions = txns;
  m.remaining = txns + (has_fixed ? 1 : 0);
  for (size_t i = first_txn; i < backlog_.size(); ++i) backlog_[i].op = op;

  unit_free = exec + std::max(passes, p_.ldst.initiation_interval);
  if (info.num_dst != 0) set_pending(w, info, txns != 0);
  ++w.outstanding;
  ++cs.outstanding;
  if (has_fixed) events_.push({fixed_done, event_seq_++, kNone, op, &info});
}

void Sm::send_transactions(uint64_t c) {
  if (backlog_head_ >= backlog_.size()) return;
  const Txn& t = backlog_[backlog_head_];
  if (t.ready > c) return;
  AtInitiatorPort& port = (t.bypass || !l1d_port_) ? *bypass_port_ : *l1d_port_;
  if (!port.request_ready()) {
    if (blocked_since_ == kNever) blocked_since_ = c;
    return;
  }
  if (blocked_since_ != kNever) {
    stats_.ldst_blocked_cycles += c - blocked_since_;
    blocked_since_ = kNever;
  }
  tlm::tlm_generic_payload* tr = pool_.allocate();
  tr->acquire();
  tr->set_command(t.kind == AccessKind::Store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tr->set_address(t.addr);
  tr->set_data_ptr(nullptr);
  tr->set_data_length(p_.coalesce_line_bytes);
  tr->set_streaming_width(p_.coalesce_line_bytes);
  tr->set_byte_enable_ptr(nullptr);
  tr->set_byte_enable_length(0);
  tr->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  MemExtension& ext = mem_ext(*tr, name());
  ext.reset();
  ext.sm_id = static_cast<int32_t>(p_.id);
  ext.warp_id = static_cast<int32_t>(t.slot);
  ext.cta_id = static_cast<int32_t>(t.cta_id);
  ext.pc = t.pc;
  ext.space = t.space;
  ext.kind = t.kind;
  ext.sector_mask = t.sectors;
  ext.sector_bytes = static_cast<uint16_t>(p_.coalesce_sector_bytes);
  ext.request_id = t.op;
  ext.issue_time = sim_time();
  ext.evict_first = t.evict_first;
  switch (t.kind) {
    case AccessKind::Store: ++stats_.store_transactions; break;
    case AccessKind::Atomic: ++stats_.atomic_transactions; break;
    default: ++stats_.load_transactions; break;
  }
  if (t.space == StateSpace::Local) ++stats_.local_transactions;
  stats_.transaction_sectors += popcount32(t.sectors);
  ++backlog_head_;
  if (backlog_head_ == backlog_.size()) {
    backlog_.clear();
    backlog_head_ = 0;
  }
  port.send_request(*tr);
}

}  // namespace simtlm::models
