// Sm: construction, the per-cycle order of its parts, completions and the
// services it offers to mechanisms. Stall reports are in sm_describe.cpp.
#include "models/sm/sm.h"

#include <algorithm>

#include "models/sm/builtin_gates.h"
#include "models/sm/l1d_locality.h"
#include "models/sm/occupancy.h"
#include "models/regfile/power_states.h"
#include "models/sm/sharing_issue_counter.h"
#include "simtlm/error.h"

namespace simtlm::models {

namespace {

const SmParams& checked(const SmParams& p) {
  p.validate();
  return p;
}

sched::PolicyParams policy_params(const SmParams& p) {
  sched::PolicyParams pp = p.policy;
  pp.schedulers = p.schedulers;
  pp.max_warps = p.resident_warps();
  pp.warp_size = p.warp_size;
  // The L1D the policy observes (none: no lines to size footprints by).
  pp.l1d_lines = p.l1d_enabled ? uint64_t{p.l1d.sets} * p.l1d.ways : 0;
  if (p.l1d_enabled) pp.line_bytes = p.l1d.line_bytes;
  return pp;
}

}  // namespace

Sm::Sm(const sc_core::sc_module_name& name, const SmParams& params)
    : ClockedModule(name, checked(params).clock_period),
      p_(params),
      warps_(params.resident_warps(), params.schedulers),
      policy_(sched::make_policy(policy_params(params))),
      front_(p_, warps_, stats_),
      scoreboard_(warps_),
      collector_(p_),
      units_(p_),
      ldst_(p_, params.resident_warps(), stats_, static_cast<AtInitiatorPort::Listener&>(*this), this->name()),
      ctas_(p_, params.resident_warps(), CtaTable::Parts{warps_, front_, *policy_, stats_, bus_},
            regfile::make_allocator(register_allocator_params(p_, p_.resident_ctas())),
            smem::make_allocator(shared_allocator_params(p_, p_.resident_ctas()))),
      issue_(p_, IssueStage::Parts{warps_, front_, scoreboard_, collector_, units_, writebacks_, ldst_, ctas_,
                                   *policy_, stats_, bus_, static_cast<SmServices&>(*this)}) {
  stats_.active_lanes.assign(p_.warp_size + 1, 0);
  if (p_.fetches_per_cycle > 1) stats_.scheduler_fetches.assign(p_.schedulers, 0);
  for (auto& h : stats_.load_latency_histogram) h.assign(SmStats::kLatencyBuckets, 0);
  ctas_.set_complete_fn(
      [this](const functional::LaunchContext& ctx, uint64_t id) { cta_completed(ctx, id); });
  add_builtin_gates();
  // OWF orders warps by the sharing allocator's owner/non-owner classes
  // (the register allocator's when both share); with both sharing, each
  // allocator's lock rule also sees the other's locks.
  const sched::SharingClassifier* reg_classes = register_allocator().sharing_classifier();
  const sched::SharingClassifier* smem_classes = shared_allocator().sharing_classifier();
  if (reg_classes != nullptr && smem_classes != nullptr) {
    register_allocator().set_other_sharing(smem_classes);
    shared_allocator().set_other_sharing(reg_classes);
  }
  if (const sched::SharingClassifier* classes = reg_classes ? reg_classes : smem_classes) {
    policy_->set_sharing_classifier(classes);
    sharing_issues_ = std::make_unique<SharingIssueCounter>(*classes, p_.resident_warps());
    subscribe(*sharing_issues_);
  }
  add_register_power_states();
  policy_->set_wait_probe(&wait_probe_);
  if (SmCycleHook* hook = register_allocator().bind_sm(SmInternals{ctas_, warps_, *this})) add_cycle_hook(*hook);
  if (l1d() && policy_->wants_cache_events()) {
    // The L1D is private to this SM: every event concerns its warps.
    l1d()->add_observer([this](const CacheEvent& e) { policy_->on_cache_event(e); });
  }
  if (l1d() && p_.l1d_locality_stats) {
    locality_ = std::make_unique<L1dLocality>(p_.resident_warps(), p_.l1d.line_bytes);
    subscribe(*locality_);
    l1d()->add_observer([this](const CacheEvent& e) { locality_->on_cache_event(e); });
  }
}

Sm::~Sm() = default;

void Sm::set_warp_group_unit(const WarpGroupUnitFactory& make) {
  if (group_unit_) throw Error(ErrorKind::Internal, std::string(name()) + ": a second warp group unit");
  group_unit_ = make(*this, WarpGroupParts{warps_, front_, ctas_});
  issue_.set_group_unit(group_unit_.get());
}

void Sm::add_builtin_gates() {
  if (policy_->vetoes_issue()) builtin_gates_.push_back(std::make_unique<PolicyVetoGate>(*policy_));
  if (register_allocator().gates_issue()) {
    builtin_gates_.push_back(
        std::make_unique<AllocatorGate<regfile::Allocator>>(register_allocator(), "register allocator"));
  }
  if (shared_allocator().gates_issue()) {
    builtin_gates_.push_back(
        std::make_unique<AllocatorGate<smem::Allocator>>(shared_allocator(), "shared-memory allocator"));
  }
  for (auto& g : builtin_gates_) issue_.add_gate(*g);
}

// GREENER or Sleep-Reg (gpu.sm.regfile.power.policy): an issue gate after the
// built-in ones and an observer of operand reads and writebacks.
void Sm::add_register_power_states() {
  const regfile::PowerScheme scheme = regfile::power_scheme_from_name(p_.register_power_policy);
  if (scheme == regfile::PowerScheme::AlwaysOn) return;
  regfile::PowerParams pp;
  pp.scheme = scheme;
  pp.sleep_wakeup = p_.register_sleep_wakeup;
  pp.off_wakeup = p_.register_off_wakeup;
  pp.sleep_leakage = p_.register_sleep_leakage;
  pp.off_leakage = p_.register_off_leakage;
  pp.runtime_correction = p_.register_power_runtime_correction;
  pp.warp_size = p_.warp_size;
  pp.max_warps = p_.resident_warps();
  pp.registers = p_.registers;
  pp.alloc_granularity = p_.register_alloc_granularity;
  pp.max_regs_per_thread = p_.max_registers_per_thread;
  pp.sm_id = p_.id;
  pp.cycle_seconds = p_.clock_period.to_seconds();
  power_ = std::make_unique<regfile::RegisterPowerStates>(pp, warps_);
  issue_.add_gate(*power_);
  subscribe(*power_);
}

// ---------------------------------------------------------------- CTAs

void Sm::launch_cta(functional::LaunchContext& ctx, uint64_t linear_cta_id) {
  if (!can_admit(CtaShape::of(ctx))) {
    throw Error(ErrorKind::Internal, std::string(name()) + ": launch_cta of CTA " + std::to_string(linear_cta_id) +
                                         " that does not fit (call can_admit first)");
  }
  ctas_.admit(ctx, linear_cta_id, &now_cycle_, now_cycle_);
  wake_next();
}

void Sm::suspend_cta(uint32_t cta_slot) { ctas_.suspend(cta_slot, now_cycle_); }

void Sm::resume_cta(uint32_t cta_slot) {
  ctas_.resume(cta_slot, now_cycle_);
  wake_next();
}

void Sm::release_external_barrier(uint32_t cta_slot) {
  const uint64_t c = clock().now();
  credit_until(c);
  issue_.release_external(ctas_[cta_slot], c);
  wake_next();
}

void Sm::cta_room_freed() {
  if (room_cb_) room_cb_(*this);
}

void Sm::cta_completed(const functional::LaunchContext& ctx, uint64_t cta_id) {
  cta_done_event_.notify(sc_core::SC_ZERO_TIME);
  if (cta_done_cb_) cta_done_cb_(*this, ctx, cta_id);
  if (ctas_.busy_ctas() == 0 && idle_cb_) idle_cb_(*this);
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
  const uint32_t resident = ctas_.resident_ctas();
  if (resident == 0) return;
  stats_.active_cycles += gap;
  stats_.resident_cta_cycles += gap * resident;
  stats_.resident_warp_cycles += gap * ctas_.resident_warps();
  issue_.credit(gap);
}

uint64_t Sm::tick(uint64_t c) {
  credit_until(c);
  now_cycle_ = c;
  if (faulted_) return kSleep;
  if (ctas_.has_pending()) ctas_.activate_pending(c);
  issue_.begin_cycle();
  process_completions(c);
  front_.deliver(c);
  ldst_.send(c, sim_time());
  const uint32_t resident = ctas_.resident_ctas();
  if (resident > 0) {
    ++stats_.active_cycles;
    stats_.resident_cta_cycles += resident;
    stats_.resident_warp_cycles += ctas_.resident_warps();
    if (!issue_.run(c)) {
      raise_fault(issue_.fault());
      accounted_ = c + 1;
      return kSleep;
    }
  }
  if (group_unit_) {
    group_unit_->fetch(c, issue_.structural_wake());
  } else {
    front_.fetch(c, issue_.structural_wake());
  }
  accounted_ = c + 1;
  ctas_.finish(c);
  for (SmCycleHook* h : cycle_hooks_) h->on_cycle(c);
  return next_wake(c);
}

uint64_t Sm::next_wake(uint64_t c) const {
  if (faulted_) return kSleep;
  uint64_t n = kNeverCycle;
  auto consider = [&](uint64_t x) {
    if (x != kNeverCycle) n = std::min(n, std::max(x, c + 1));
  };
  if (ctas_.has_pending() || issue_.wants_next_cycle() || front_.any_wants_fetch()) consider(c + 1);
  consider(front_.next_arrival());
  consider(writebacks_.next());
  consider(ldst_.next_wake(c));
  consider(issue_.structural_wake_cycle());
  for (const SmCycleHook* h : cycle_hooks_) consider(h->next_cycle());
  return n == kNeverCycle ? kSleep : n;
}

SmStats& Sm::stats() {
  credit_until(clock().now());
  cycles_through_now(stats_.busy_cycles, stats_.idle_cycles);
  const FixedLatencyCache& icache = front_.icache();
  stats_.icache_hits = icache.hits + icache.merges;
  stats_.icache_misses = icache.misses;
  stats_.const_hits = ldst_.const_cache().hits + ldst_.const_cache().merges;
  stats_.const_misses = ldst_.const_cache().misses;
  stats_.regfile_reads = collector_.reads();
  stats_.regfile_bank_conflicts = collector_.conflicts();
  stats_.regfile_writes = collector_.writes();
  stats_.regfile_write_conflicts = collector_.write_conflicts();
  if (power_) power_->advance(clock().now());
  return stats_;
}

// ---------------------------------------------------------------- completions

// Both on the path of every result: kept inline.
[[gnu::always_inline]] inline bool Sm::write_registers(uint32_t slot, const InstTiming& info, uint64_t c) {
  const uint64_t done = collector_.write(info, slot, c);
  if (done == c) return true;
  writebacks_.release(done, slot, info);  // released when the delayed write is done
  return false;
}

[[gnu::always_inline]] inline void Sm::release(uint32_t slot, const InstTiming& info, uint64_t c) {
  scoreboard_.release(warps_[slot], info);
  if (!bus_.empty()) {
    const RegisterAccess a{c, slot, &info};
    bus_.publish([&](SmObserver& o) { o.on_writeback(a); });
  }
  ctas_.op_done(slot);
}

uint32_t Sm::mechanism_access(SmCycleHook& requester, uint64_t addr, uint32_t bytes, bool write, bool via_l1d) {
  const uint32_t op = ldst_.issue_mechanism(addr, bytes, write, via_l1d, now_cycle_ + 1);
  if (op >= access_owner_.size()) access_owner_.resize(op + 1, nullptr);
  access_owner_[op] = &requester;
  wake_next();
  return op;
}

void Sm::memory_piece_done(uint32_t op, uint64_t c) {
  uint32_t slot = 0;
  const InstTiming* info = nullptr;
  if (!ldst_.piece_done(op, slot, info)) return;
  if (info == nullptr) {  // a mechanism's own access
    SmCycleHook* owner = access_owner_[op];
    access_owner_[op] = nullptr;
    owner->on_access_done(op, c);
  } else if (info->num_dst == 0) {
    ctas_.op_done(slot);
  } else if (write_registers(slot, *info, c)) {
    release(slot, *info, c);
  }
}

void Sm::process_completions(uint64_t c) {
  while (writebacks_.due(c)) {
    const WritebackQueue::Event e = writebacks_.pop();
    if (e.slot == kNoSlot) {
      memory_piece_done(e.op, c);
    } else if (e.op == WritebackQueue::kWritten || write_registers(e.slot, *e.info, c)) {
      release(e.slot, *e.info, c);
    }
  }
  ldst_.deliver_responses(c, [&](uint32_t op) { memory_piece_done(op, c); });
}

bool Sm::on_response(unsigned, tlm::tlm_generic_payload& trans) {
  const uint64_t ready = clock().registration_cycle_now();
  ldst_.accept_response(trans, ready, clock());
  wake_at(ready);
  return true;
}

void Sm::on_request_accepted(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

}  // namespace simtlm::models
