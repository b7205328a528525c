// Sm: construction, CTA admission and life cycle, the per-cycle tick, fetch
// and completion handling. Issue and the LD/ST unit are in sm_issue.cpp,
// stall reports in sm_describe.cpp.
#include "models/sm/sm.h"

#include <algorithm>

#include "models/sm/occupancy.h"
#include "simtlm/error.h"

namespace simtlm::models {

namespace {

const SmParams& checked(const SmParams& p) {
  p.validate();
  return p;
}

FixedLatencyCacheParams icache_params(const SmParams& p) {
  FixedLatencyCacheParams c;
  c.sets = p.icache_sets;
  c.ways = p.icache_ways;
  c.line_bytes = p.icache_line_bytes;
  c.mshrs = p.icache_mshrs;
  c.hit_latency = p.icache_hit_latency;
  c.miss_latency = p.icache_miss_latency;
  c.perfect = p.icache_perfect;
  return c;
}

FixedLatencyCacheParams const_params(const SmParams& p) {
  FixedLatencyCacheParams c;
  c.sets = p.const_sets;
  c.ways = p.const_ways;
  c.line_bytes = p.const_line_bytes;
  c.mshrs = 0;
  c.hit_latency = p.const_hit_latency;
  c.miss_latency = p.const_miss_latency;
  return c;
}

}  // namespace

Sm::Sm(const sc_core::sc_module_name& name, const SmParams& params)
    : ClockedModule(name, checked(params).clock_period),
      p_(params),
      max_warps_(params.max_warps()),
      banks_(params.regfile_banks, params.regfile_ports_per_bank),
      smem_banks_(params.smem_banks, params.smem_bank_width_bytes),
      coalescer_(params.coalesce_line_bytes, params.coalesce_sector_bytes),
      icache_(icache_params(params)),
      const_cache_(const_params(params)) {
  AtInitiatorPort::Listener& self = *this;
  if (p_.l1d_enabled) {
    CacheParams c = p_.l1d;
    c.clock_period = p_.clock_period;
    l1d_ = std::make_unique<Cache>("l1d", c);
    mux_ = std::make_unique<MemMux>("mem_mux", 2);
    l1d_port_ = std::make_unique<AtInitiatorPort>("l1d_port", self, 0);
    l1d_port_->socket.bind(l1d_->target_socket);
    l1d_->initiator_socket.bind(mux_->target_socket(0));
  }
  bypass_port_ = std::make_unique<AtInitiatorPort>("mem_port", self, 1);
  if (mux_) bypass_port_->socket.bind(mux_->target_socket(1));

  regs_ = regfile::make_allocator(register_allocator_params(p_, p_.max_ctas));
  smem_alloc_ = smem::make_allocator(shared_allocator_params(p_, p_.max_ctas));
  sched::PolicyParams pp = p_.policy;
  pp.schedulers = p_.schedulers;
  pp.max_warps = max_warps_;
  policy_ = sched::make_policy(pp);
  policy_wants_stalls_ = policy_->wants_stall_events();
  policy_vetoes_ = policy_->vetoes_issue();
  allocators_gate_ = regs_->gates_issue() || smem_alloc_->gates_issue();
  no_issue_veto_ = !policy_vetoes_ && !allocators_gate_;
  scan_memo_usable_ = no_issue_veto_ && !policy_wants_stalls_ && policy_->order_changes_only_on_events();
  scan_memo_.assign(p_.schedulers, ScanMemo{});
  if (l1d_ && policy_->wants_cache_events()) {
    // The L1D is private to this SM: every event concerns its warps.
    l1d_->add_observer([this](const CacheEvent& e) { policy_->on_cache_event(e); });
  }

  warps_.resize(max_warps_);
  parked_.assign(max_warps_, kParkedDead);
  parked_until_.assign(max_warps_, kNever);
  fetch_mask_.assign((max_warps_ + 63) / 64, 0);
  ctas_.resize(p_.max_ctas);
  sched_live_.assign(p_.schedulers, 0);
  last_reason_.assign(p_.schedulers, kIdle);
  unit_free_.resize(kNumExecUnits);
  unit_free_[static_cast<unsigned>(ExecUnit::Sp)].assign(p_.sp.count, 0);
  unit_free_[static_cast<unsigned>(ExecUnit::Sfu)].assign(p_.sfu.count, 0);
  unit_free_[static_cast<unsigned>(ExecUnit::Dp)].assign(p_.dp.count, 0);
  unit_free_[static_cast<unsigned>(ExecUnit::Int)].assign(p_.int_unit.count, 0);
  unit_free_[static_cast<unsigned>(ExecUnit::Ldst)].assign(p_.ldst.count, 0);
  cu_free_.resize(kNumCollectorSets);
  cu_free_[static_cast<unsigned>(CollectorSet::Alu)].assign(p_.collector_units, 0);
  cu_free_[static_cast<unsigned>(CollectorSet::Sfu)].assign(p_.collector_units_sfu, 0);
  cu_free_[static_cast<unsigned>(CollectorSet::Mem)].assign(p_.collector_units_mem, 0);
  memops_.reserve(256);
  free_memops_.reserve(256);
  backlog_.reserve(256);
  responses_.reserve(256);
  fetching_.reserve(max_warps_);
  cta_check_.reserve(p_.max_ctas * 2);
  const_words_.reserve(256);
}

Sm::~Sm() = default;

AtInitiatorPort::socket_type& Sm::mem_socket() { return mux_ ? mux_->initiator_socket() : bypass_port_->socket; }

// ---------------------------------------------------------------- admission

uint32_t Sm::max_resident_ctas(const CtaShape& shape) const {
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

bool Sm::can_admit(const CtaShape& shape) const {
  if (faulted_ || shape.warps == 0 || shape.warp_size != p_.warp_size) return false;
  if (busy_ctas_ >= p_.max_ctas) return false;
  if (reserved_warps_ + shape.warps > max_warps_) return false;
  if (reserved_threads_ + shape.padded_threads() > p_.max_threads) return false;
  return regs_->can_admit(shape) && smem_alloc_->can_admit(shape);
}

std::shared_ptr<const KernelTiming> Sm::timing_for(const functional::LaunchContext& ctx) {
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

void Sm::launch_cta(functional::LaunchContext& ctx, uint64_t linear_cta_id) {
  const CtaShape shape = CtaShape::of(ctx);
  if (!can_admit(shape)) {
    throw Error(ErrorKind::Internal, std::string(name()) + ": launch_cta of CTA " + std::to_string(linear_cta_id) +
                                         " that does not fit (call can_admit first)");
  }
  uint32_t slot = 0;
  while (ctas_[slot].status != CtaState::Status::Free) ++slot;
  CtaState& cs = ctas_[slot];
  cs.cta = std::make_unique<functional::Cta>(ctx, linear_cta_id);
  cs.cta->set_sm_id(p_.id);                // %smid
  cs.cta->set_cycle_counter(&now_cycle_);  // %clock/%clock64: this SM's core cycle at issue
  cs.ctx = &ctx;
  cs.timing = timing_for(ctx);
  cs.shape = shape;
  cs.linear_id = linear_cta_id;
  cs.status = CtaState::Status::Pending;
  regs_->admit(slot, shape);
  smem_alloc_->admit(slot, shape);
  ++busy_ctas_;
  reserved_warps_ += shape.warps;
  reserved_threads_ += shape.padded_threads();
  pending_ctas_.push_back(slot);
  wake_next();
}

void Sm::activate_pending(uint64_t c) {
  if (pending_ctas_.empty()) return;
  for (uint32_t cslot : pending_ctas_) {
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
    for (size_t i = 0; i < n; ++i) {
      while (warps_[next_free].resident) ++next_free;
      const uint32_t ws = next_free;
      WarpState& w = warps_[ws];
      w.resident = true;
      w.live = true;
      w.warp = &cs.cta->warp(i);
      w.timing = cs.timing.get();
      w.cta_slot = cslot;
      w.warp_in_cta = static_cast<uint32_t>(i);
      w.scheduler = ws % p_.schedulers;
      w.age = age_counter_++;
      w.ib_pc = w.warp->pc();
      w.ib_count = 0;
      w.fetch_inflight = false;
      set_wants_fetch(ws, false);
      w.scoreboard.assign(2 * words, 0);
      w.pending = w.scoreboard.data();
      w.pending_long = w.pending + words;
      w.pc = w.warp->pc();
      w.waiting = w.warp->waiting();
      w.outstanding = 0;
      w.at_barrier = false;
      w.eligible_from = 0;
      w.sb_blocked = false;
      park(ws, kIssued);
      w.last_stall = sched::StallKind::Fetch;
      w.blocking_reg = kNone;
      cs.warp_slots.push_back(ws);
      ++sched_live_[w.scheduler];
      sched::WarpInfo info;
      info.slot = ws;
      info.scheduler = w.scheduler;
      info.age = w.age;
      info.cta_slot = cslot;
      info.cta_id = cs.linear_id;
      info.warp_in_cta = w.warp_in_cta;
      policy_->warp_added(info);
      want_fetch(ws);
    }
    ++resident_ctas_;
    resident_warps_ += static_cast<uint32_t>(n);
    ++stats_.ctas_launched;
    stats_.warps_launched += n;
    stats_.max_resident_ctas = std::max<uint64_t>(stats_.max_resident_ctas, resident_ctas_);
    stats_.max_resident_warps = std::max<uint64_t>(stats_.max_resident_warps, resident_warps_);
    policy_->on_cta_launch(cslot, cs.linear_id, c);
  }
  pending_ctas_.clear();
}

void Sm::complete_cta(uint32_t cslot, uint64_t c) {
  CtaState& cs = ctas_[cslot];
  for (uint32_t ws : cs.warp_slots) {
    WarpState& w = warps_[ws];
    set_wants_fetch(ws, false);
    w.resident = false;
    w.live = false;
    park(ws, kParkedDead);
    w.warp = nullptr;
    w.timing = nullptr;
    w.ib_count = 0;
    w.fetch_inflight = false;
  }
  regs_->release(cslot);
  smem_alloc_->release(cslot);
  policy_->on_cta_exit(cslot, cs.linear_id, c);
  --resident_ctas_;
  --busy_ctas_;
  reserved_warps_ -= cs.shape.warps;
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
  cs.status = CtaState::Status::Free;
  cta_done_event_.notify(sc_core::SC_ZERO_TIME);
  if (cta_done_cb_) cta_done_cb_(*this, ctx, id);
  if (busy_ctas_ == 0 && idle_cb_) idle_cb_(*this);
}

void Sm::finish_ctas(uint64_t c) {
  for (size_t i = 0; i < cta_check_.size(); ++i) {
    const uint32_t cslot = cta_check_[i];
    const CtaState& cs = ctas_[cslot];
    if (cs.status == CtaState::Status::Active && cs.warps_left == 0 && cs.outstanding == 0) complete_cta(cslot, c);
  }
  cta_check_.clear();
}

void Sm::raise_fault(std::exception_ptr e) {
  fault_ = e;
  faulted_ = true;
  if (fault_cb_) {
    fault_cb_(*this, e);
  } else {
    sc_core::sc_stop();
  }
}

// ---------------------------------------------------------------- clock

void Sm::credit_until(uint64_t c) {
  if (c <= accounted_) return;
  const uint64_t gap = c - accounted_;
  accounted_ = c;
  if (resident_ctas_ == 0) return;
  stats_.active_cycles += gap;
  stats_.resident_cta_cycles += gap * resident_ctas_;
  stats_.resident_warp_cycles += gap * resident_warps_;
  for (uint8_t r : last_reason_) slot_counter(r) += gap;
}

uint64_t Sm::tick(uint64_t c) {
  credit_until(c);
  now_cycle_ = c;
  if (faulted_) return kSleep;
  activate_pending(c);
  issued_this_cycle_ = false;
  throttled_this_cycle_ = false;
  structural_wake_ = kNever;
  process_completions(c);
  process_fetch_arrivals(c);
  send_transactions(c);
  if (resident_ctas_ > 0) {
    ++stats_.active_cycles;
    stats_.resident_cta_cycles += resident_ctas_;
    stats_.resident_warp_cycles += resident_warps_;
    issue_stage(c);
    if (faulted_) {
      accounted_ = c + 1;
      return kSleep;
    }
  }
  fetch_stage(c);
  accounted_ = c + 1;
  finish_ctas(c);
  return next_wake(c);
}

uint64_t Sm::next_wake(uint64_t c) const {
  if (faulted_) return kSleep;
  uint64_t n = kNever;
  auto consider = [&](uint64_t x) { n = std::min(n, std::max(x, c + 1)); };
  if (!pending_ctas_.empty() || issued_this_cycle_ || throttled_this_cycle_ || any_wants_fetch()) consider(c + 1);
  for (uint32_t slot : fetching_) consider(warps_[slot].fetch_ready);
  if (!events_.empty()) consider(events_.top().cycle);
  if (backlog_head_ < backlog_.size()) {
    const Txn& t = backlog_[backlog_head_];
    const AtInitiatorPort& port = (t.bypass || !l1d_port_) ? *bypass_port_ : *l1d_port_;
    if (t.ready > c) {
      consider(t.ready);
    } else if (port.request_ready()) {
      consider(c + 1);
    }  // else: on_request_accepted() wakes us
  }
  if (responses_head_ < responses_.size()) consider(responses_[responses_head_].ready);
  if (structural_wake_ != kNever) consider(structural_wake_);
  return n == kNever ? kSleep : n;
}

SmStats& Sm::stats() {
  credit_until(clock().now());
  cycles_through_now(stats_.busy_cycles, stats_.idle_cycles);
  stats_.icache_hits = icache_.hits + icache_.merges;
  stats_.icache_misses = icache_.misses;
  stats_.const_hits = const_cache_.hits + const_cache_.merges;
  stats_.const_misses = const_cache_.misses;
  stats_.regfile_reads = banks_.reads();
  stats_.regfile_bank_conflicts = banks_.conflicts();
  return stats_;
}

// ---------------------------------------------------------------- completions

void Sm::set_pending(WarpState& w, const InstTiming& info, bool long_latency) {
  for (unsigned i = 0; i < info.num_dst; ++i) {
    const uint32_t r = info.dst[i];
    w.pending[r >> 6] |= 1ull << (r & 63);
    if (long_latency) w.pending_long[r >> 6] |= 1ull << (r & 63);
  }
}

void Sm::clear_pending(WarpState& w, const InstTiming& info) {
  w.sb_blocked = false;
  unpark(slot_of(w), kScoreboard);
  for (unsigned i = 0; i < info.num_dst; ++i) {
    const uint32_t r = info.dst[i];
    w.pending[r >> 6] &= ~(1ull << (r & 63));
    w.pending_long[r >> 6] &= ~(1ull << (r & 63));
  }
}

void Sm::op_done(uint32_t slot) {
  WarpState& w = warps_[slot];
  --w.outstanding;
  CtaState& cs = ctas_[w.cta_slot];
  --cs.outstanding;
  if (cs.warps_left == 0 && cs.outstanding == 0) cta_check_.push_back(w.cta_slot);
}

uint32_t Sm::new_memop() {
  uint32_t id;
  if (!free_memops_.empty()) {
    id = free_memops_.back();
    free_memops_.pop_back();
  } else {
    id = static_cast<uint32_t>(memops_.size());
    memops_.emplace_back();
  }
  memops_[id] = MemOp();
  memops_[id].in_use = true;
  return id;
}

void Sm::memop_piece_done(uint32_t op) {
  MemOp& m = memops_[op];
  if (--m.remaining != 0) return;
  WarpState& w = warps_[m.slot];
  if (m.info->num_dst != 0) clear_pending(w, *m.info);
  m.in_use = false;
  free_memops_.push_back(op);
  op_done(m.slot);
}

void Sm::process_completions(uint64_t c) {
  while (!events_.empty() && events_.top().cycle <= c) {
    const Event e = events_.top();
    events_.pop();
    if (e.slot != kNone) {
      clear_pending(warps_[e.slot], *e.info);
      op_done(e.slot);
    } else {
      memop_piece_done(e.op);
    }
  }
  while (responses_head_ < responses_.size() && responses_[responses_head_].ready <= c) {
    memop_piece_done(responses_[responses_head_].op);
    ++responses_head_;
  }
  if (responses_head_ == responses_.size()) {
    responses_.clear();
    responses_head_ = 0;
  }
}

bool Sm::on_response(unsigned, tlm::tlm_generic_payload& trans) {
  const MemExtension& ext = mem_ext(trans, name());
  const uint64_t ready = clock().registration_cycle_now();
  responses_.push_back({static_cast<uint32_t>(ext.request_id), ready});
  ++stats_.responses;
  trans.release();  // our reference from send_transactions(); the port keeps its own until END_RESP
  wake_at(ready);
  return true;
}

void Sm::on_request_accepted(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

// ---------------------------------------------------------------- fetch

void Sm::want_fetch(uint32_t slot) {
  WarpState& w = warps_[slot];
  if (wants_fetch(slot) || w.fetch_inflight || !w.live) return;
  set_wants_fetch(slot, true);
}

void Sm::set_wants_fetch(uint32_t slot, bool on) {
  const uint64_t bit = uint64_t(1) << (slot & 63);
  if (on) {
    fetch_mask_[slot >> 6] |= bit;
  } else {
    fetch_mask_[slot >> 6] &= ~bit;
  }
}

uint32_t Sm::next_wanting_fetch(uint32_t from) const {
  for (uint32_t word = from >> 6; word < fetch_mask_.size(); ++word) {
    uint64_t bits = fetch_mask_[word];
    if (word == from >> 6) bits &= ~uint64_t(0) << (from & 63);
    if (bits != 0) return word * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
  }
  return max_warps_;
}

void Sm::flush_ibuffer(WarpState& w) {
  if (w.ib_count == 0) return;
  w.ib_count = 0;
  ++stats_.ibuffer_flushes;
}

void Sm::process_fetch_arrivals(uint64_t c) {
  if (fetching_.empty()) return;
  size_t kept = 0;
  for (size_t i = 0; i < fetching_.size(); ++i) {
    const uint32_t slot = fetching_[i];
    WarpState& w = warps_[slot];
    if (w.fetch_ready > c) {
      fetching_[kept++] = slot;
      continue;
    }
    w.fetch_inflight = false;
    if (!w.live) continue;
    if (w.fetch_pc == w.pc) {
      w.ib_pc = w.fetch_pc;
      w.ib_count = w.fetch_count;
      unpark(slot, kFetch);
    } else {
      want_fetch(slot);  // redirected while the fetch was in flight
    }
  }
  fetching_.resize(kept);
}

void Sm::fetch_stage(uint64_t c) {
  if (!any_wants_fetch()) return;
  // Warps wanting a fetch in slot order from fetch_rr_, wrapping around.
  const uint32_t start = fetch_rr_ < max_warps_ ? fetch_rr_ : 0;
  uint32_t slot = next_wanting_fetch(start);
  bool wrapped = false;
  for (;; slot = next_wanting_fetch(slot + 1)) {
    if (slot >= max_warps_ && !wrapped) {
      wrapped = true;
      slot = next_wanting_fetch(0);
    }
    if (slot >= max_warps_ || (wrapped && slot >= start)) return;
    WarpState& w = warps_[slot];
    if (!w.live) {
      set_wants_fetch(slot, false);
      continue;
    }
    const KernelTiming& timing = *w.timing;
    const uint32_t pc = w.pc;
    const uint32_t left = timing.size() > pc ? timing.size() - pc : 1;
    const uint32_t n = std::min({p_.fetch_width, p_.ibuffer_entries, left});
    const uint64_t a0 = uint64_t(pc) * p_.instruction_bytes;
    const uint64_t a1 = uint64_t(pc + n - 1) * p_.instruction_bytes;
    const bool two_lines = icache_.line_of(a0) != icache_.line_of(a1);
    if (icache_.would_block(a0, c) || (two_lines && icache_.would_block(a1, c))) {
      // Every instruction-cache MSHR is busy: retry when a fill returns.
      const uint64_t f = icache_.next_fill();
      if (f != FixedLatencyCache::kBlocked) structural_wake_ = std::min(structural_wake_, f);
      return;
    }
    uint64_t ready = icache_.access(a0, c);
    uint32_t fetched = n;
    if (two_lines) {
      // Both lines were checked free on their own, but the first access may
      // have taken the last MSHR: then only the first line's instructions
      // are fetched now (the rest is fetched when the buffer drains).
      const uint64_t second = icache_.access(a1, c);
      if (second == FixedLatencyCache::kBlocked) {
        fetched = 0;
        while (fetched < n && icache_.line_of(uint64_t(pc + fetched) * p_.instruction_bytes) == icache_.line_of(a0))
          ++fetched;
      } else {
        ready = std::max(ready, second);
      }
    }
    ++stats_.fetches;
    set_wants_fetch(slot, false);
    w.fetch_inflight = true;
    w.fetch_ready = ready;
    w.fetch_pc = pc;
    w.fetch_count = fetched;
    fetching_.push_back(slot);
    fetch_rr_ = slot + 1 == max_warps_ ? 0 : slot + 1;
    return;  // one warp per cycle
  }
}

}  // namespace simtlm::models
