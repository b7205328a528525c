#include "models/finereg/finereg_allocator.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>

#include "functional/cta.h"
#include "functional/executor.h"
#include "models/finereg/cta_integrals.h"
#include "models/finereg/cta_stall.h"
#include "models/sm/cta_table.h"
#include "models/sm/extension_timing.h"
#include "models/sm/ldst_unit.h"
#include "models/sm/warp_table.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {

namespace {

constexpr uint64_t kNoTimer = ~0ull;
constexpr uint32_t kNone = ~0u;

// Where a kernel's live vectors sit in the reserved area (8 B per static
// instruction, loaded at launch): one 64 KB area per kernel, chosen by a
// hash of its name so that every SM reads the same lines (the L2 shares
// them) and the address does not depend on the host (FNV-1a).
uint64_t vector_area(const std::string& kernel) {
  uint64_t h = 1469598103934665603ull;
  for (const char ch : kernel) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return LdstUnit::kVectorAreaBase + (h % (1u << 20)) * (1u << 16);
}

regfile::AllocatorParams acrf_params(const regfile::AllocatorParams& p) {
  regfile::AllocatorParams a = p;
  a.policy = "baseline";
  a.registers = static_cast<uint32_t>(p.finereg.acrf_bytes / 4);
  return a;
}

uint32_t bits(uint64_t v) { return static_cast<uint32_t>(__builtin_popcountll(v)); }

std::vector<functional::Warp*> warps_of(functional::Cta& cta) {
  std::vector<functional::Warp*> w;
  for (size_t i = 0; i < cta.num_warps(); ++i) w.push_back(&cta.warp(i));
  return w;
}

}  // namespace

// Per resident-CTA slot: its shape, where a switch in progress ends, and the
// live-vector table of its kernel.
struct FineRegAllocator::Slot {
  CtaShape shape;
  bool occupied = false;
  enum class Timer : uint8_t { None, Out, In } timer = Timer::None;
  uint64_t due = kNoTimer;
  bool out_for_launch = false;
  bool context_only = false;  // the switch-out running leaves the registers in the ACRF
  // A switch waiting for something before its timer runs: a switch-out for
  // its vector fetches (memory reads in flight), a swap's switch-in for its
  // partner's switch-out (`after`); then it takes `cycles` more.
  uint32_t fetches = 0;
  uint64_t fetch_start = 0;
  uint32_t after = kNone;
  uint64_t cycles = 0;
  std::shared_ptr<const LiveVectorTable> table;
  uint64_t table_id = 0;
  uint64_t vector_area = 0;  // the kernel's live vectors in the reserved global-memory area
};

FineRegAllocator::FineRegAllocator(const regfile::AllocatorParams& params)
    : p_(params),
      acrf_(acrf_params(params)),
      pcrf_(static_cast<uint32_t>(params.finereg.pcrf_bytes / kPcrfEntryBytes), params.max_ctas),
      monitor_(params.max_ctas),
      vcache_(params.finereg.vector_cache_entries),
      check_(params.max_ctas),
      slots_(params.max_ctas) {
  // The seed's §V-F storage, from the configuration: status monitor, vector
  // cache, PCRF pointer table and tags, the RMU's 128-byte staging buffer,
  // and Virtual Thread's CTA switching logic FineReg adopts (the paper's
  // 2.4 KB, kVtLogicBits). Its leakage is charged by the energy model.
  n_.storage_bits = monitor_.storage_bits() + vcache_.storage_bytes() * 8 + pcrf_.pointer_table_bits() +
                    uint64_t(pcrf_.tag_bits()) * pcrf_.capacity() + kPcrfEntryBytes * 8 + kVtLogicBits;
}

FineRegAllocator::~FineRegAllocator() = default;

SmCycleHook* FineRegAllocator::bind_sm(const SmInternals& sm) {
  sm_ = std::make_unique<SmInternals>(sm);
  return this;
}

// ---------------------------------------------------------------- allocator

bool FineRegAllocator::can_admit(const CtaShape& shape) const {
  if (probing_) return true;  // room_after_out: the resident limits only
  return admission(shape) != Admission::None;
}

// How a new CTA would enter: active (the ACRF and the active limits have
// room), pending in PEND_ACRF (launch_beyond_limit: the ACRF has room but the
// active limits are full, or a ready pending CTA takes the next active slot),
// or not at all. The CTA table has checked the resident limits.
FineRegAllocator::Admission FineRegAllocator::admission(const CtaShape& shape) const {
  if (p_.finereg.restore_first && sm_ && !launching_ && ready_waiting()) {
    refused_ = true;  // a ready pending CTA goes first; offered again after on_cycle
    // It needs an active slot, not ACRF space, unless its registers are in
    // the PCRF: then the new CTA would take the space it needs.
    return !ready_in_pcrf_waiting() && pending_launch_fits(shape) ? Admission::Pending : Admission::None;
  }
  if (sm_ && backup_bytes_ > 0 && !backup_fits(shape.shared_bytes)) return Admission::None;
  if (acrf_.can_admit(shape) && active_ctas_ < p_.active_ctas && active_warps_ + shape.warps <= p_.active_warps &&
      active_threads_ + shape.padded_threads() <= p_.active_threads) {
    return Admission::Active;
  }
  return pending_launch_fits(shape) ? Admission::Pending : Admission::None;
}

// A pending launch holds its full ACRF allocation, its shared memory and,
// beside them, its initial context's backup.
bool FineRegAllocator::pending_launch_fits(const CtaShape& shape) const {
  return p_.finereg.launch_beyond_limit && sm_ && acrf_.can_admit(shape) &&
         backup_fits(shape.shared_bytes + uint64_t(shape.warps) * p_.vt.context_bytes_per_warp);
}

void FineRegAllocator::admit(uint32_t slot, const CtaShape& shape) {
  const Admission how = admission(shape);
  if (how == Admission::None) {
    throw Error(ErrorKind::Internal, "FineReg: admission of a CTA into slot " + std::to_string(slot) +
                                         " that does not fit (can_admit was false)");
  }
  acrf_.admit(slot, shape);
  Slot& s = slots_.at(slot);
  s = Slot{};
  s.shape = shape;
  s.occupied = true;
  if (how == Admission::Pending) {
    // Its initial context is written to shared memory by the dispatcher (as
    // a baseline launch writes it into the pipeline: not charged); the
    // switch-in restores it.
    monitor_.launch_pending(slot);
    backup_bytes_ += ctx_bytes(slot);
    ++n_.launches_pending;
    return;
  }
  monitor_.launch(slot);
  ++active_ctas_;
  active_warps_ += shape.warps;
  active_threads_ += shape.padded_threads();
}

bool FineRegAllocator::starts_suspended(uint32_t slot) const {
  return monitor_.state(slot) == CtaSwitchState::PendAcrf;
}

void FineRegAllocator::release(uint32_t slot) {
  // A CTA completes only while active (its warps must run to their exits).
  monitor_.finish(slot);
  acrf_.release(slot);
  Slot& s = slots_.at(slot);
  --active_ctas_;
  active_warps_ -= s.shape.warps;
  active_threads_ -= s.shape.padded_threads();
  s = Slot{};
}

// The CTA table tells of every suspension and resumption; FineReg itself
// asked for them and keeps its counts when it does.
void FineRegAllocator::suspend(uint32_t slot) {
  if (monitor_.state(slot) != CtaSwitchState::PendAcrf) {
    throw Error(ErrorKind::Internal, "FineReg: CTA slot " + std::to_string(slot) + " suspended outside a switch");
  }
}

void FineRegAllocator::resume(uint32_t slot) {
  if (!monitor_.active(slot)) {
    throw Error(ErrorKind::Internal, "FineReg: CTA slot " + std::to_string(slot) + " resumed in " +
                                         to_string(monitor_.state(slot)) + " (only ACTIVE(2,2) CTAs issue)");
  }
}

// ---------------------------------------------------------------- switching

const LiveVectorTable& FineRegAllocator::table_for(uint32_t slot) {
  Slot& s = slots_[slot];
  if (!s.table) {
    const functional::LaunchContext* ctx = sm_->ctas[slot].ctx;
    // One table per launch: share it with another slot of the same launch.
    for (const Slot& o : slots_) {
      if (o.table && sm_->ctas[static_cast<uint32_t>(&o - slots_.data())].ctx == ctx) {
        s.table = o.table;
        s.table_id = o.table_id;
        s.vector_area = o.vector_area;
        break;
      }
    }
    if (!s.table) {
      s.table = std::make_shared<const LiveVectorTable>(ctx->kernel());
      s.table_id = ++table_ids_;
    }
    s.vector_area = vector_area(ctx->kernel().name);
  }
  return *s.table;
}

bool FineRegAllocator::stalled(uint32_t slot) const { return cta_fully_stalled(*sm_, slot); }

// A pending CTA is ready once everything it had in flight has returned.
bool FineRegAllocator::ready(uint32_t slot) const {
  const CtaSwitchState st = monitor_.state(slot);
  if (st != CtaSwitchState::PendAcrf && st != CtaSwitchState::PendPcrf) return false;
  if (slots_[slot].timer != Slot::Timer::None) return false;
  return cta_drained(*sm_, slot);
}

bool FineRegAllocator::can_activate(uint32_t slot) const {
  const CtaShape& sh = slots_[slot].shape;
  if (active_ctas_ >= p_.active_ctas || active_warps_ + sh.warps > p_.active_warps ||
      active_threads_ + sh.padded_threads() > p_.active_threads) {
    return false;
  }
  return monitor_.state(slot) == CtaSwitchState::PendAcrf || acrf_.can_admit(sh);
}

uint32_t FineRegAllocator::live_count(uint32_t slot) {
  const LiveVectorTable& t = table_for(slot);
  functional::Cta& cta = *sm_->ctas[slot].cta;
  uint32_t n = 0;
  for (size_t i = 0; i < cta.num_warps(); ++i) {
    const functional::Warp& w = cta.warp(i);
    if (!w.finished()) n += bits(t.of_stack(w.stack()));
  }
  return n;
}

// The pipeline context of a pending CTA, backed up in shared memory as
// Virtual Thread does (§IV-C; vt.context_bytes_per_warp per warp, moved at
// vt.context_bytes_per_cycle).
uint64_t FineRegAllocator::ctx_bytes(uint32_t slot) const {
  return uint64_t(slots_[slot].shape.warps) * p_.vt.context_bytes_per_warp;
}
uint64_t FineRegAllocator::ctx_cycles(uint32_t slot) const {
  return (ctx_bytes(slot) + p_.vt.context_bytes_per_cycle - 1) / p_.vt.context_bytes_per_cycle;
}
void FineRegAllocator::move_context(uint32_t slot) {
  n_.context_bytes += ctx_bytes(slot);
  n_.context_passes += (ctx_bytes(slot) + 127) / 128;  // 32 banks x 4 B per pass
}
// Shared memory holds the CTAs' allocations and the pending CTAs' backups.
bool FineRegAllocator::backup_fits(uint64_t extra) const {
  const smem::Allocator& smem = sm_->ctas.shared_allocator();
  return smem.in_use() + backup_bytes_ + extra <= smem.capacity();
}

// The switch's time once it may start: the context goes to (or comes from)
// shared memory while the RMU moves the registers (different paths: they
// overlap [assumption]).
void FineRegAllocator::start_timer(uint32_t slot, uint64_t c) {
  Slot& s = slots_[slot];
  s.due = c + std::max<uint64_t>(s.cycles, 1);
  s.cycles = 0;
  // A swap's switch-in waits for its partner's switch-out.
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].after == slot) {
      slots_[i].after = kNone;
      start_timer(i, s.due);
    }
  }
}

void FineRegAllocator::switch_out(uint32_t slot, uint64_t c, bool for_launch) {
  Slot& s = slots_[slot];
  const LiveVectorTable& t = table_for(slot);
  CtaState& cs = sm_->ctas[slot];
  functional::Cta& cta = *cs.cta;
  const ir::Function& kernel = cs.ctx->kernel();
  // The RMU looks up each warp's vectors (one per PC its lanes resume at); a
  // miss reads the 8-byte vector from the reserved global-memory area
  // through the L1D, and the registers move once every read has returned.
  std::vector<PcrfItem> items;
  s.fetches = 0;
  for (size_t i = 0; i < cta.num_warps(); ++i) {
    const functional::Warp& w = cta.warp(i);
    if (w.finished()) continue;
    for (const auto& [pc, lanes] : LiveVectorTable::effective_pcs(w.stack())) {
      if (vcache_.access(s.table_id, pc)) {
        ++n_.vector_hits;
      } else {
        ++n_.vector_misses;
        n_.vector_bytes += sizeof(LiveVector);
        const uint32_t ticket = sm_->services.mechanism_access(*this, s.vector_area + uint64_t(pc) * sizeof(LiveVector),
                                                               sizeof(LiveVector), false, true);
        if (ticket >= fetch_slot_.size()) fetch_slot_.resize(ticket + 1, kNone);
        fetch_slot_[ticket] = slot;
        ++s.fetches;
      }
    }
    std::vector<PcrfItem> wi = live_items(kernel, t, w, static_cast<uint32_t>(i), p_.finereg.check);
    std::move(wi.begin(), wi.end(), std::back_inserter(items));
  }
  const uint32_t live = static_cast<uint32_t>(items.size());
  leave_pipeline(slot);
  if (p_.finereg.check) check_.switch_out(slot, kernel, t, warps_of(cta));
  pcrf_.store(slot, std::move(items), s.shape.warps, kVectorBits);
  monitor_.regs_out(slot);
  // A swap hands the ACRF space over at once (the RMU interleaves both
  // directions); for a new CTA it is free once the registers have left.
  if (!for_launch) acrf_.release(slot);
  const uint64_t move = p_.finereg.pcrf_latency + uint64_t(live) * p_.finereg.cycles_per_register;
  n_.registers_out += live;
  n_.move_cycles += move;
  ++n_.switches_out;
  n_.max_pcrf_entries = std::max<uint64_t>(n_.max_pcrf_entries, pcrf_.used());
  s.timer = Slot::Timer::Out;
  s.cycles = std::max(move, ctx_cycles(slot));
  s.due = kNoTimer;
  s.fetch_start = c;
  if (s.fetches == 0) start_timer(slot, c);
  s.out_for_launch = for_launch;
  if (for_launch) ++n_.outs_for_launch;
}

// Both kinds of switch-out start here: the context leaves the pipeline for
// its shared-memory backup and the CTA stops counting against the active
// limits. (A swap's partner leaves its backup next: max_backup_bytes in
// on_cycle.)
void FineRegAllocator::leave_pipeline(uint32_t slot) {
  const Slot& s = slots_[slot];
  monitor_.context_out(slot);
  sm_->services.suspend_cta(slot);
  backup_bytes_ += ctx_bytes(slot);
  move_context(slot);
  --active_ctas_;
  active_warps_ -= s.shape.warps;
  active_threads_ -= s.shape.padded_threads();
}

// A switch of the context only (2,2) -> (1,2): the registers stay in the
// ACRF, no vector lookup, no register movement; the context's save to shared
// memory is the switch's time. Its active slot is free at once; for a new
// CTA the room is offered once the save is done.
void FineRegAllocator::context_out(uint32_t slot, uint64_t c, bool for_launch) {
  Slot& s = slots_[slot];
  leave_pipeline(slot);
  ++n_.switches_out;
  ++n_.context_only_outs;
  s.timer = Slot::Timer::Out;
  s.cycles = ctx_cycles(slot);
  s.due = kNoTimer;
  s.fetches = 0;
  s.fetch_start = c;
  s.context_only = true;
  s.out_for_launch = for_launch;
  if (for_launch) ++n_.outs_for_launch;
  start_timer(slot, c);
}

void FineRegAllocator::on_access_done(uint32_t ticket, uint64_t c) {
  const uint32_t slot = fetch_slot_.at(ticket);
  fetch_slot_[ticket] = kNone;
  Slot& s = slots_.at(slot);
  if (s.fetches == 0) throw Error(ErrorKind::Internal, "FineReg: a vector fetch returned for no switch-out");
  if (--s.fetches == 0) {
    n_.vector_fetch_cycles += c - s.fetch_start;
    start_timer(slot, c);
  }
}

// Registers back into the ACRF (the PCRF entries `items` were taken out by
// the caller) and the context back from shared memory; the warps are
// offered to the schedulers once both have moved, after the switch-out of
// `after` (a swap's partner; kNone: now).
void FineRegAllocator::switch_in(uint32_t slot, uint64_t c, uint32_t after, const std::vector<PcrfItem>& items) {
  Slot& s = slots_[slot];
  uint64_t move = 0;
  if (monitor_.state(slot) == CtaSwitchState::PendPcrf) {
    acrf_.admit(slot, s.shape);
    n_.registers_in += items.size();
    move = p_.finereg.pcrf_latency + uint64_t(items.size()) * p_.finereg.cycles_per_register;
    n_.move_cycles += move;
    if (p_.finereg.check) {
      CtaState& cs = sm_->ctas[slot];
      check_.switch_in(slot, cs.linear_id, cs.ctx->kernel(), warps_of(*cs.cta), items);
      n_.checked_registers = check_.registers_checked();
    }
    monitor_.regs_in(slot);
  }
  backup_bytes_ -= ctx_bytes(slot);
  move_context(slot);
  ++active_ctas_;
  active_warps_ += s.shape.warps;
  active_threads_ += s.shape.padded_threads();
  ++n_.switches_in;
  s.timer = Slot::Timer::In;
  s.cycles = std::max(move, ctx_cycles(slot));
  s.due = kNoTimer;
  if (after != kNone && slots_[after].due == kNoTimer) {
    s.after = after;  // started when the partner's fetches return
  } else {
    start_timer(slot, after != kNone ? slots_[after].due : c);
  }
}

std::vector<PcrfItem> FineRegAllocator::take_out(uint32_t slot) {
  if (monitor_.state(slot) != CtaSwitchState::PendPcrf) return {};
  return pcrf_.restore(slot);
}

bool FineRegAllocator::finish_timers(uint64_t c) {
  bool room = false;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& s = slots_[slot];
    if (s.timer == Slot::Timer::None || s.due > c) continue;
    if (s.timer == Slot::Timer::Out) {
      if (s.out_for_launch) {
        if (!s.context_only) acrf_.release(slot);  // the live registers have left the ACRF
        room = true;
      }
      s.context_only = false;
    } else {
      monitor_.context_in(slot);
      sm_->services.resume_cta(slot);
    }
    s.timer = Slot::Timer::None;
    s.due = kNoTimer;
  }
  return room;
}

bool FineRegAllocator::swap_fits(uint32_t out, uint32_t in, uint32_t live) const {
  const Slot& o = slots_[out];
  const Slot& i = slots_[in];
  const bool in_pcrf = monitor_.state(in) == CtaSwitchState::PendPcrf;
  if (pcrf_.free_entries() + (in_pcrf ? pcrf_.count(in) : 0) < live) return false;
  // in's backup leaves shared memory as out's arrives.
  if (ctx_bytes(out) > ctx_bytes(in) && !backup_fits(ctx_bytes(out) - ctx_bytes(in))) return false;
  if (in_pcrf) {
    const uint64_t free_acrf = acrf_.capacity() - acrf_.in_use() + acrf_.units(o.shape);
    if (acrf_.units(i.shape) > free_acrf) return false;
  }
  return active_warps_ - o.shape.warps + i.shape.warps <= p_.active_warps &&
         active_threads_ - o.shape.padded_threads() + i.shape.padded_threads() <= p_.active_threads;
}

// A context-only swap: the stalled CTA `out` keeps its registers in the
// ACRF; `in` needs no ACRF space (PEND_ACRF) or finds it free beside them.
bool FineRegAllocator::context_swap_fits(uint32_t out, uint32_t in) const {
  const Slot& o = slots_[out];
  const Slot& i = slots_[in];
  if (monitor_.state(in) == CtaSwitchState::PendPcrf && !acrf_.can_admit(i.shape)) return false;
  if (ctx_bytes(out) > ctx_bytes(in) && !backup_fits(ctx_bytes(out) - ctx_bytes(in))) return false;
  return active_warps_ - o.shape.warps + i.shape.warps <= p_.active_warps &&
         active_threads_ - o.shape.padded_threads() + i.shape.padded_threads() <= p_.active_threads;
}

bool FineRegAllocator::ready_in_pcrf_waiting() const {
  return monitor_.select_ready([&](uint32_t s) {
           return monitor_.state(s) == CtaSwitchState::PendPcrf && ready(s);
         }) != kNoCta;
}

// Would the SM take another CTA of this shape once this one left? (the
// resident limits and shared memory; the ACRF and the active limits are
// what the switch-out frees).
bool FineRegAllocator::room_after_out(uint32_t slot) const {
  probing_ = true;
  const bool ok = sm_->ctas.can_admit(slots_[slot].shape);
  probing_ = false;
  return ok;
}

void FineRegAllocator::switch_in_ready(uint64_t c) {
  for (;;) {
    const uint32_t p = monitor_.select_ready([&](uint32_t s) { return ready(s) && can_activate(s); });
    if (p == kNoCta) break;
    switch_in(p, c, kNone, take_out(p));
  }
}

void FineRegAllocator::decide_stalled(uint64_t c) {
  depleted_ = false;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    if (!monitor_.active(slot) || slots_[slot].timer != Slot::Timer::None || !stalled(slot)) continue;
    if (p_.finereg.context_only_switch) {
      // Registers move only when the partner needs their space: a ready
      // pending CTA (PEND_ACRF first) that fits beside them swaps contexts.
      const uint32_t p = monitor_.select_ready([&](uint32_t s) { return ready(s) && context_swap_fits(slot, s); });
      if (p != kNoCta) {
        std::vector<PcrfItem> back = take_out(p);
        context_out(slot, c, false);
        switch_in(p, c, slot, back);
        ++n_.swaps;
        continue;
      }
      // A new CTA of the same shape fits in the ACRF beside it.
      if (sm_->services.ctas_waiting() && acrf_.can_admit(slots_[slot].shape) && room_after_out(slot) &&
          backup_fits(ctx_bytes(slot) + slots_[slot].shape.shared_bytes)) {
        context_out(slot, c, true);
        continue;
      }
    }
    if (!table_for(slot).fits()) {
      ++n_.wide_kernel_stalls;  // more than 64 registers: the CTA stays in the ACRF
      continue;
    }
    const uint32_t live = live_count(slot);
    const uint32_t p = monitor_.select_ready([&](uint32_t s) { return ready(s) && swap_fits(slot, s, live); });
    if (p != kNoCta) {
      std::vector<PcrfItem> back = take_out(p);  // frees its PCRF entries first
      switch_out(slot, c, false);
      switch_in(p, c, slot, back);
      ++n_.swaps;
      continue;
    }
    const bool waiting = sm_->services.ctas_waiting();
    if (waiting && pcrf_.free_entries() >= live && room_after_out(slot)) {
      // Shared memory must take this CTA's context backup and a new CTA's
      // allocation of the same shape.
      if (backup_fits(ctx_bytes(slot) + slots_[slot].shape.shared_bytes)) {
        switch_out(slot, c, true);
        continue;
      }
      ++n_.backup_refusals;
    }
    // Fully stalled and nothing can take its place although CTAs wait: the
    // register file is what limits (the seed's register-depletion stall).
    if (waiting || monitor_.select_ready([&](uint32_t s) { return ready(s); }) != kNoCta) depleted_ = true;
  }
}

// Integrals over the cycles up to c (cta_integrals.h).
void FineRegAllocator::account(uint64_t c) {
  const uint64_t d = integral_step(c, last_cycle_, empty_);
  if (d == 0) return;
  n_.active_cta_cycles += d * active_ctas_;
  n_.pending_cta_cycles += d * pending_ctas(sm_->ctas.busy_ctas(), active_ctas_);
  n_.pcrf_entry_cycles += d * pcrf_.used();
  if (depleted_) n_.depletion_stall_cycles += d;
}

void FineRegAllocator::on_cycle(uint64_t c) {
  account(c + 1);
  // Room a switch-out made for a new CTA goes to a new CTA whatever the
  // order (otherwise the CTA just switched out could take it back as soon as
  // its loads return, and the switch would be a pure loss).
  const bool room = finish_timers(c);
  if (room) {
    launching_ = true;
    sm_->services.cta_room_freed();
    launching_ = false;
  }
  switch_in_ready(c);
  decide_stalled(c);
  const uint64_t resident = sm_->ctas.busy_ctas();
  n_.max_resident = std::max(n_.max_resident, resident);
  n_.max_pending = std::max(n_.max_pending, pending_ctas(resident, active_ctas_));
  n_.max_pcrf_entries = std::max<uint64_t>(n_.max_pcrf_entries, pcrf_.used());
  n_.max_backup_bytes = std::max(n_.max_backup_bytes, backup_bytes_);
  if (p_.finereg.check) check_invariants();
  // New CTAs that restore_first held back (or room this cycle freed) may go
  // now, unless a ready pending CTA still waits for room.
  if (refused_ && (!p_.finereg.restore_first || !ready_waiting())) {
    refused_ = false;
    sm_->services.cta_room_freed();
  }
  empty_ = sm_->ctas.busy_ctas() == 0;
}

bool FineRegAllocator::ready_waiting() const {
  return monitor_.select_ready([&](uint32_t s) { return ready(s); }) != kNoCta;
}

uint64_t FineRegAllocator::next_cycle() const {
  uint64_t n = kNoTimer;
  for (const Slot& s : slots_) n = std::min(n, s.due);
  return n;
}

// ---------------------------------------------------------------- checks, statistics

void FineRegAllocator::check_invariants() const {
  pcrf_.check();  // invariants 4-6
  auto fail = [](const std::string& what) { throw Error(ErrorKind::Internal, "FineReg invariant: " + what); };
  if (acrf_.in_use() > acrf_.capacity()) fail("ACRF over capacity");  // 7
  if (active_ctas_ > p_.active_ctas || active_warps_ > p_.active_warps) fail("active CTAs/warps over the limits");
  uint32_t active = 0;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    const CtaSwitchState st = monitor_.state(slot);  // throws on (2,1): invariant 9
    const CtaState& cs = sm_->ctas[slot];
    const std::string at = "CTA slot " + std::to_string(slot) + " in " + to_string(st);
    if ((st == CtaSwitchState::Free) != (cs.status == CtaState::Status::Free)) fail(at + ": CTA table disagrees");
    if (st == CtaSwitchState::PendPcrf && !pcrf_.holds(slot)) fail(at + ": no PCRF list");
    if (st != CtaSwitchState::PendPcrf && pcrf_.holds(slot)) fail(at + ": has a PCRF list");
    if (slots_[slot].timer == Slot::Timer::In) ++active;  // counted from the start of its switch-in
    if (st == CtaSwitchState::Active) {
      ++active;
      if (cs.suspended && slots_[slot].timer != Slot::Timer::In) fail(at + ": suspended");
    } else if (st != CtaSwitchState::Free && !cs.suspended) {
      fail(at + ": its warps are offered to the schedulers");
    }
  }
  if (active != active_ctas_) fail("active count " + std::to_string(active_ctas_) + " vs " + std::to_string(active));
  uint64_t backups = 0;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    const CtaSwitchState st = monitor_.state(slot);
    const bool pending = st == CtaSwitchState::PendAcrf || st == CtaSwitchState::PendPcrf;
    if (pending && slots_[slot].timer != Slot::Timer::In) backups += ctx_bytes(slot);  // restored at switch-in
  }
  if (backups != backup_bytes_) fail("context backup bytes");
  if (!backup_fits(0)) fail("shared memory and context backups over capacity");  // 8
}

void FineRegAllocator::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("finereg");
  g.counter("switches_out", &n_.switches_out, "CTAs", "CTAs switched out (context out, live registers to the PCRF)");
  g.counter("switches_in", &n_.switches_in, "CTAs", "CTAs switched in (registers back to the ACRF, context in)");
  g.counter("swaps", &n_.swaps, "switches", "switch-outs paired with the switch-in of a ready pending CTA");
  g.counter("outs_for_launch", &n_.outs_for_launch, "switches",
            "switch-outs that freed ACRF space for a new CTA (the PCRF had room and CTAs were waiting)");
  g.counter("context_only_outs", &n_.context_only_outs, "switches",
            "switch-outs of the context only: the registers stayed in the ACRF (PEND_ACRF), their partner or a "
            "new CTA fitting beside them (finereg.context_only_switch)");
  g.counter("launches_pending", &n_.launches_pending, "CTAs",
            "CTAs admitted beyond the active limits into free ACRF space as PEND_ACRF, switched in later by a "
            "context restore (finereg.launch_beyond_limit)");
  g.counter("registers_out", &n_.registers_out, "warp-registers", "live warp-registers moved ACRF -> PCRF");
  g.counter("registers_in", &n_.registers_in, "warp-registers", "warp-registers moved PCRF -> ACRF");
  g.counter("move_cycles", &n_.move_cycles, "cycles", "cycles of register movement (pcrf_latency + per register)");
  g.counter("depletion_stall_cycles", &n_.depletion_stall_cycles, "cycles",
            "cycles with a fully stalled active CTA that could not be switched out for lack of ACRF/PCRF room "
            "while CTAs were waiting (the seed's register-depletion stalls, Figure 14)");
  g.counter("active_cta_cycles", &n_.active_cta_cycles, "CTA-cycles", "sum over cycles of active CTAs");
  g.counter("pending_cta_cycles", &n_.pending_cta_cycles, "CTA-cycles", "sum over cycles of pending CTAs");
  g.counter("pcrf_entry_cycles", &n_.pcrf_entry_cycles, "entry-cycles", "sum over cycles of occupied PCRF entries");
  g.level("max_resident_ctas", &n_.max_resident, "CTAs", "most resident (active + pending) CTAs");
  g.level("max_pending_ctas", &n_.max_pending, "CTAs", "most pending CTAs");
  g.level("max_pcrf_entries", &n_.max_pcrf_entries, "entries", "most occupied PCRF entries");
  g.counter("vector_hits", &n_.vector_hits, "lookups", "live-register vector cache hits");
  g.counter("vector_misses", &n_.vector_misses, "lookups", "live-register vector cache misses");
  g.formula("vector_hit_rate", "@vector_hits / (@vector_hits + @vector_misses)", "ratio",
            "live-register vector cache hit rate (null without lookups)");
  g.counter("vector_bytes", &n_.vector_bytes, "bytes",
            "vector bytes read from the reserved global-memory area (each miss is an 8-byte load through the L1D)");
  g.counter("vector_fetch_cycles", &n_.vector_fetch_cycles, "cycles",
            "sum over switch-outs with vector-cache misses of the cycles until their last vector read returned");
  g.counter("context_bytes", &n_.context_bytes, "bytes",
            "pipeline contexts saved to and restored from shared memory (vt.context_bytes_per_warp per warp)");
  g.counter("context_passes", &n_.context_passes, "passes", "shared-memory passes (128 B) of those contexts");
  g.counter("backup_refusals", &n_.backup_refusals, "checks",
            "stalled CTAs kept in the ACRF because shared memory had no room for their context backup beside "
            "a new CTA's allocation");
  g.level("max_backup_bytes", &n_.max_backup_bytes, "bytes", "most shared memory held by context backups");
  g.counter("wide_kernel_stalls", &n_.wide_kernel_stalls, "checks",
            "fully stalled CTAs not switched because their kernel's registers exceed the 64-bit live vector "
            "(counted at every SM tick they are found stalled)");
  g.level("storage_bits", &n_.storage_bits, "bits",
          "FineReg's added storage per SM: CTA status monitor, vector cache, PCRF pointer table and tags, staging "
          "buffer, and Virtual Thread's switching logic (2.4 KB; seed §V-F); its leakage is in the energy model");
  g.counter("checked_registers", &n_.checked_registers, "registers",
            "live registers compared at switch-in by the checking mode (gpu.sm.regfile.finereg.check)");
}

}  // namespace simtlm::models::finereg
