#include "models/finereg/vt_allocator.h"

#include <algorithm>
#include <string>

#include "functional/cta.h"
#include "models/finereg/cta_integrals.h"
#include "models/finereg/cta_stall.h"
#include "models/sm/cta_table.h"
#include "models/sm/extension_timing.h"
#include "models/sm/ldst_unit.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {

namespace {
constexpr uint64_t kNoTimer = ~0ull;
constexpr uint32_t kNone = ~0u;

regfile::AllocatorParams rf_params(const regfile::AllocatorParams& p) {
  regfile::AllocatorParams a = p;
  a.policy = "baseline";
  return a;
}
}  // namespace

// Per resident-CTA slot: its shape, where it is, the switch in progress.
struct VtAllocator::Slot {
  CtaShape shape;
  Where where = Where::Free;
  enum class Timer : uint8_t { None, Out, In } timer = Timer::None;
  uint64_t due = kNoTimer;
  Out how = Out::Swap;
  uint64_t pending_since = 0;  // switch-out cycle: the longest pending goes first
  uint64_t move_bytes = 0;     // off-chip register bytes of the switch in progress (Reg+DRAM)
  uint64_t start = 0;          // its movement began
  uint64_t issued = 0;         // its off-chip traffic was issued
  uint32_t after = kNone;      // a swap's switch-in: waits for this partner's switch-out
};

VtAllocator::VtAllocator(const regfile::AllocatorParams& params, bool offchip)
    : p_(params), offchip_(offchip), rf_(rf_params(params)), off_(params.max_ctas), slots_(params.max_ctas) {}

VtAllocator::~VtAllocator() = default;

SmCycleHook* VtAllocator::bind_sm(const SmInternals& sm) {
  sm_ = std::make_unique<SmInternals>(sm);
  return this;
}

VtAllocator::Where VtAllocator::where(uint32_t slot) const { return slots_.at(slot).where; }

uint64_t VtAllocator::ctx_bytes(uint32_t slot) const {
  return uint64_t(slots_[slot].shape.warps) * p_.vt.context_bytes_per_warp;
}
uint64_t VtAllocator::ctx_cycles(uint32_t slot) const {
  return (ctx_bytes(slot) + p_.vt.context_bytes_per_cycle - 1) / p_.vt.context_bytes_per_cycle;
}
uint64_t VtAllocator::reg_bytes(uint32_t slot) const { return rf_.units(slots_[slot].shape) * 4; }

// A context saved or restored: its bytes and its shared-memory passes (32
// banks x 4 B = 128 B per pass).
void VtAllocator::move_context(uint32_t slot) {
  n_.context_bytes += ctx_bytes(slot);
  n_.context_passes += (ctx_bytes(slot) + 127) / 128;
}

// Shared memory holds the CTAs' allocations and the pending CTAs' backups.
bool VtAllocator::backup_fits(uint64_t extra) const {
  const smem::Allocator& smem = sm_->ctas.shared_allocator();
  return smem.in_use() + backup_bytes_ + extra <= smem.capacity();
}

std::vector<functional::Warp*> VtAllocator::warps_of(uint32_t slot) const {
  functional::Cta& cta = *sm_->ctas[slot].cta;
  std::vector<functional::Warp*> w;
  for (size_t i = 0; i < cta.num_warps(); ++i) w.push_back(&cta.warp(i));
  return w;
}

// ---------------------------------------------------------------- allocator

bool VtAllocator::can_admit(const CtaShape& shape) const {
  if (probing_) return true;  // the resident limits and shared memory only
  if (sm_ && !launching_ && select(&VtAllocator::ready_any, 0) != kNone) {
    refused_ = true;  // a ready pending CTA goes first; offered again after on_cycle
    return false;
  }
  if (sm_ && backup_bytes_ > 0 && !backup_fits(shape.shared_bytes)) return false;
  return rf_.can_admit(shape) && active_ctas_ < p_.active_ctas && active_warps_ + shape.warps <= p_.active_warps &&
         active_threads_ + shape.padded_threads() <= p_.active_threads;
}

void VtAllocator::admit(uint32_t slot, const CtaShape& shape) {
  rf_.admit(slot, shape);
  Slot& s = slots_.at(slot);
  s = Slot{};
  s.shape = shape;
  s.where = Where::Active;
  ++active_ctas_;
  active_warps_ += shape.warps;
  active_threads_ += shape.padded_threads();
}

void VtAllocator::release(uint32_t slot) {
  Slot& s = slots_.at(slot);
  if (s.where != Where::Active) {
    throw Error(ErrorKind::Internal, "VT: CTA slot " + std::to_string(slot) + " completed while not active");
  }
  rf_.release(slot);
  --active_ctas_;
  active_warps_ -= s.shape.warps;
  active_threads_ -= s.shape.padded_threads();
  s = Slot{};
}

void VtAllocator::suspend(uint32_t slot) {
  if (slots_.at(slot).where == Where::Active) {
    throw Error(ErrorKind::Internal, "VT: CTA slot " + std::to_string(slot) + " suspended outside a switch");
  }
}

void VtAllocator::resume(uint32_t slot) {
  if (slots_.at(slot).where != Where::Active) {
    throw Error(ErrorKind::Internal, "VT: CTA slot " + std::to_string(slot) + " resumed while pending");
  }
}

// ---------------------------------------------------------------- switching

bool VtAllocator::ready(uint32_t slot) const {
  const Slot& s = slots_[slot];
  return (s.where == Where::PendRf || s.where == Where::PendOff) && s.timer == Slot::Timer::None &&
         cta_drained(*sm_, slot);
}

bool VtAllocator::ready_any(uint32_t slot, uint32_t) const { return ready(slot); }

// Active warps and threads once `in` replaces `out` (kNone: nothing leaves).
bool VtAllocator::active_fit(uint32_t out, uint32_t in) const {
  const CtaShape& i = slots_[in].shape;
  uint32_t ctas = active_ctas_ + 1, warps = active_warps_ + i.warps, threads = active_threads_ + i.padded_threads();
  if (out != kNone) {
    const CtaShape& o = slots_[out].shape;
    --ctas;
    warps -= o.warps;
    threads -= o.padded_threads();
  }
  return ctas <= p_.active_ctas && warps <= p_.active_warps && threads <= p_.active_threads;
}

bool VtAllocator::can_activate(uint32_t slot, uint32_t) const {
  if (!ready(slot) || !active_fit(kNone, slot)) return false;
  return slots_[slot].where == Where::PendRf || rf_.can_admit(slots_[slot].shape);
}

// Can ready `in` take stalled `out`'s place? On-chip: the context swap needs
// backup room for out's context once in's is restored. Off-chip: in's
// registers need room in the register file, made by sending out's off chip
// if need be.
bool VtAllocator::swap_fits(uint32_t out, uint32_t in) const {
  if (!ready(in) || !active_fit(out, in)) return false;
  // in's backup leaves shared memory as out's arrives.
  if (ctx_bytes(out) > ctx_bytes(in) && !backup_fits(ctx_bytes(out) - ctx_bytes(in))) return false;
  if (slots_[in].where == Where::PendRf) return true;
  const uint64_t need = rf_.units(slots_[in].shape), free = rf_.capacity() - rf_.in_use();
  return need <= free || need <= free + rf_.units(slots_[out].shape);  // out goes off chip in its place
}

// The ready pending CTA `ok` accepts, on-chip registers first, then the
// longest pending.
uint32_t VtAllocator::select(bool (VtAllocator::*ok)(uint32_t, uint32_t) const, uint32_t arg) const {
  uint32_t best = kNone;
  for (uint32_t s = 0; s < slots_.size(); ++s) {
    if (!(this->*ok)(s, arg)) continue;
    if (best == kNone) {
      best = s;
      continue;
    }
    const Slot& a = slots_[s];
    const Slot& b = slots_[best];
    const bool a_rf = a.where == Where::PendRf, b_rf = b.where == Where::PendRf;
    if (a_rf != b_rf ? a_rf : a.pending_since < b.pending_since) best = s;
  }
  return best;
}

// `how`: Swap hands the active slot over at once (the incoming CTA's warps
// issue after both movements); Launch and Offchip free it once the context
// (and for Offchip the registers) has left. `offchip`: the registers go off
// chip too (Offchip, or a swap that needs their room).
void VtAllocator::switch_out(uint32_t slot, uint64_t c, Out how, bool offchip) {
  Slot& s = slots_[slot];
  s.where = offchip ? Where::PendOff : Where::PendRf;
  sm_->services.suspend_cta(slot);  // the context leaves the pipeline
  s.pending_since = c;
  backup_bytes_ += ctx_bytes(slot);
  n_.max_backup_bytes = std::max(n_.max_backup_bytes, backup_bytes_);
  move_context(slot);
  s.move_bytes = 0;
  if (offchip) {
    ++offchip_ctas_;
    s.move_bytes = reg_bytes(slot);
    n_.offchip_bytes_out += reg_bytes(slot);
    n_.offchip_regs_out += reg_bytes(slot) / 128;
    ++n_.offchip_out;
    if (p_.finereg.check) off_.save(slot, warps_of(slot));
  }
  if (how == Out::Swap) {
    --active_ctas_;
    active_warps_ -= s.shape.warps;
    active_threads_ -= s.shape.padded_threads();
    if (offchip) rf_.release(slot);
  } else {
    ++n_.outs_for_launch;
  }
  ++n_.switches_out;
  s.timer = Slot::Timer::Out;
  s.how = how;
  begin_move(slot, c);
}

void VtAllocator::switch_in(uint32_t slot, uint64_t c, uint32_t after) {
  Slot& s = slots_[slot];
  backup_bytes_ -= ctx_bytes(slot);
  move_context(slot);
  s.move_bytes = 0;
  if (s.where == Where::PendOff) {
    rf_.admit(slot, s.shape);
    --offchip_ctas_;
    s.move_bytes = reg_bytes(slot);
    n_.offchip_bytes_in += reg_bytes(slot);
    n_.offchip_regs_in += reg_bytes(slot) / 128;
    ++n_.offchip_in;
    if (p_.finereg.check) {
      off_.restore(slot, sm_->ctas[slot].linear_id, warps_of(slot));
      n_.checked_registers = off_.registers_checked();
    }
  }
  s.where = Where::Active;
  ++active_ctas_;
  active_warps_ += s.shape.warps;
  active_threads_ += s.shape.padded_threads();
  ++n_.switches_in;
  s.timer = Slot::Timer::In;
  s.due = kNoTimer;
  if (after != kNone && slots_[after].due == kNoTimer) {
    s.after = after;  // begins when the partner's switch-out has moved its registers
  } else {
    begin_move(slot, after != kNone ? std::max(c, slots_[after].due) : c);
  }
}

// A switch's movement begins at `c`: the context through shared memory
// (ctx_cycles) and, for Reg+DRAM, the register context to or from its
// off-chip area as real memory traffic (stores or loads of move_bytes
// around the L1D, through the L2 and DRAM); both overlap [assumption]. The
// timer runs once the traffic has completed.
void VtAllocator::begin_move(uint32_t slot, uint64_t c) {
  Slot& s = slots_[slot];
  s.start = c;
  s.due = kNoTimer;
  if (s.move_bytes == 0) {
    end_move(slot, c);
    return;
  }
  const uint64_t addr = LdstUnit::kContextAreaBase + (uint64_t(sm_->services.sm_id()) << 30) + (uint64_t(slot) << 20);
  const uint32_t ticket = sm_->services.mechanism_access(*this, addr, static_cast<uint32_t>(s.move_bytes),
                                                         s.timer == Slot::Timer::Out, false);
  if (ticket >= access_slot_.size()) access_slot_.resize(ticket + 1, kNone);
  access_slot_[ticket] = slot;
  s.issued = sm_->services.cycle();
}

void VtAllocator::on_access_done(uint32_t ticket, uint64_t c) {
  const uint32_t slot = access_slot_.at(ticket);
  access_slot_[ticket] = kNone;
  Slot& s = slots_.at(slot);
  n_.offchip_transfer_cycles += c - s.issued;
  end_move(slot, c);
}

void VtAllocator::end_move(uint32_t slot, uint64_t c) {
  Slot& s = slots_[slot];
  s.due = std::max<uint64_t>({c, s.start + ctx_cycles(slot), s.start + 1});
  n_.switch_cycles += s.due - s.start;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].after == slot) {
      slots_[i].after = kNone;
      begin_move(i, std::max(c, s.due));
    }
  }
}

// Timers that end this cycle; true when a switch-out made room for a new CTA.
bool VtAllocator::finish_timers(uint64_t c) {
  bool room = false;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& s = slots_[slot];
    if (s.timer == Slot::Timer::None || s.due > c) continue;
    if (s.timer == Slot::Timer::Out) {
      if (s.how != Out::Swap) {
        --active_ctas_;
        active_warps_ -= s.shape.warps;
        active_threads_ -= s.shape.padded_threads();
        if (s.how == Out::Offchip) rf_.release(slot);
        room = true;
      }
    } else {
      sm_->services.resume_cta(slot);
    }
    s.timer = Slot::Timer::None;
    s.due = kNoTimer;
  }
  return room;
}

void VtAllocator::switch_in_ready(uint64_t c) {
  for (;;) {
    const uint32_t p = select(&VtAllocator::can_activate, 0);
    if (p == kNone) break;
    switch_in(p, c, kNone);
  }
}

void VtAllocator::decide_stalled(uint64_t c) {
  depleted_ = false;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& s = slots_[slot];
    if (s.where != Where::Active || s.timer != Slot::Timer::None || !cta_fully_stalled(*sm_, slot)) continue;
    const uint32_t p = select(&VtAllocator::swap_fits, slot);
    if (p != kNone) {
      // An off-chip CTA whose registers do not fit sends this one's off chip
      // in their place.
      const bool make_room = slots_[p].where == Where::PendOff && !rf_.can_admit(slots_[p].shape);
      switch_out(slot, c, Out::Swap, make_room);
      switch_in(p, c, slot);
      ++n_.swaps;
      continue;
    }
    const bool waiting = sm_->services.ctas_waiting();
    if (waiting) {
      // Would the SM take one more CTA of this shape (resident limits, shared
      // memory with this CTA's backup) once this one left the pipeline?
      probing_ = true;
      const bool resident_room = sm_->ctas.can_admit(s.shape);
      probing_ = false;
      const bool backup_room = backup_fits(ctx_bytes(slot) + s.shape.shared_bytes);
      if (resident_room && backup_room) {
        if (rf_.can_admit(s.shape)) {
          switch_out(slot, c, Out::Launch, false);
          continue;
        }
        if (offchip_ && offchip_ctas_ < p_.vt.max_offchip_ctas) {
          switch_out(slot, c, Out::Offchip, true);
          continue;
        }
      }
      if (resident_room && !backup_room) ++n_.backup_refusals;
    }
    // Fully stalled, nothing can take its place although CTAs wait: the
    // register file (or the backup space) is what limits.
    if (waiting || select(&VtAllocator::ready_any, 0) != kNone) depleted_ = true;
  }
}

// Integrals over the cycles up to c (cta_integrals.h).
void VtAllocator::account(uint64_t c) {
  const uint64_t d = integral_step(c, last_cycle_, empty_);
  if (d == 0) return;
  n_.active_cta_cycles += d * active_ctas_;
  n_.pending_cta_cycles += d * pending_ctas(sm_->ctas.busy_ctas(), active_ctas_);
  n_.offchip_cta_cycles += d * offchip_ctas_;
  if (depleted_) n_.depletion_stall_cycles += d;
}

void VtAllocator::on_cycle(uint64_t c) {
  account(c + 1);
  if (finish_timers(c)) {
    launching_ = true;
    sm_->services.cta_room_freed();
    launching_ = false;
  }
  switch_in_ready(c);
  decide_stalled(c);
  const uint64_t resident = sm_->ctas.busy_ctas();
  n_.max_resident = std::max(n_.max_resident, resident);
  n_.max_pending = std::max(n_.max_pending, pending_ctas(resident, active_ctas_));
  if (p_.finereg.check) check_invariants();
  if (refused_ && select(&VtAllocator::ready_any, 0) == kNone) {
    refused_ = false;
    sm_->services.cta_room_freed();
  }
  empty_ = sm_->ctas.busy_ctas() == 0;
}

uint64_t VtAllocator::next_cycle() const {
  uint64_t n = kNoTimer;
  for (const Slot& s : slots_) n = std::min(n, s.due);
  return n;
}

// ---------------------------------------------------------------- checks, statistics

void VtAllocator::check_invariants() const {
  auto fail = [&](const std::string& what) { throw Error(ErrorKind::Internal, std::string(name()) + " invariant: " + what); };
  if (rf_.in_use() > rf_.capacity()) fail("register file over capacity");
  if (active_ctas_ > p_.active_ctas || active_warps_ > p_.active_warps || active_threads_ > p_.active_threads) {
    fail("active CTAs/warps/threads over the scheduling limits");
  }
  if (!backup_fits(0)) fail("shared memory and context backups over capacity");
  if (offchip_ctas_ > p_.vt.max_offchip_ctas) fail("off-chip contexts over regdram.max_offchip_ctas");
  uint32_t active = 0, off = 0;
  uint64_t backups = 0;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    const Slot& s = slots_[slot];
    const CtaState& cs = sm_->ctas[slot];
    const std::string at = "CTA slot " + std::to_string(slot);
    if ((s.where == Where::Free) != (cs.status == CtaState::Status::Free)) fail(at + ": CTA table disagrees");
    if (s.where == Where::Active || (s.timer == Slot::Timer::Out && s.how != Out::Swap)) ++active;
    if (s.where == Where::PendOff) ++off;
    if (s.where == Where::PendRf || s.where == Where::PendOff) {
      backups += ctx_bytes(slot);
      if (!cs.suspended) fail(at + ": pending but its warps are offered to the schedulers");
    }
    if (s.where == Where::Active && cs.suspended && s.timer != Slot::Timer::In) fail(at + ": active but suspended");
  }
  if (active != active_ctas_) fail("active count " + std::to_string(active_ctas_) + " vs " + std::to_string(active));
  if (off != offchip_ctas_) fail("off-chip count");
  if (backups != backup_bytes_) fail("backup bytes");
}

void VtAllocator::register_stats(const stats::Group& group) {
  const stats::Group g = group.child(name());
  g.counter("switches_out", &n_.switches_out, "CTAs", "CTA contexts switched out of the pipeline");
  g.counter("switches_in", &n_.switches_in, "CTAs", "CTA contexts switched back into the pipeline");
  g.counter("swaps", &n_.swaps, "switches", "switch-outs paired with the switch-in of a ready pending CTA");
  g.counter("outs_for_launch", &n_.outs_for_launch, "switches", "switch-outs that made room for a new CTA");
  g.counter("context_bytes", &n_.context_bytes, "bytes",
            "pipeline contexts saved to and restored from shared memory (vt.context_bytes_per_warp per warp)");
  g.counter("context_passes", &n_.context_passes, "passes", "shared-memory passes (128 B) of those contexts");
  g.counter("switch_cycles", &n_.switch_cycles, "cycles", "cycles of context (and off-chip register) movement");
  g.counter("depletion_stall_cycles", &n_.depletion_stall_cycles, "cycles",
            "cycles with a fully stalled active CTA that nothing could replace while CTAs were waiting (register "
            "file, backup space or off-chip limit full; the seed's register-depletion stalls)");
  g.counter("backup_refusals", &n_.backup_refusals, "checks",
            "stalled CTAs kept in the pipeline because shared memory had no room for their context backup");
  g.counter("active_cta_cycles", &n_.active_cta_cycles, "CTA-cycles", "sum over cycles of active CTAs");
  g.counter("pending_cta_cycles", &n_.pending_cta_cycles, "CTA-cycles", "sum over cycles of pending CTAs");
  g.level("max_resident_ctas", &n_.max_resident, "CTAs", "most resident (active + pending) CTAs");
  g.level("max_pending_ctas", &n_.max_pending, "CTAs", "most pending CTAs");
  g.level("max_backup_bytes", &n_.max_backup_bytes, "bytes", "most shared memory held by context backups");
  g.level("storage_bits", &n_.storage_bits, "bits",
          "added storage per SM: Virtual Thread's CTA switching logic, 2.4 KB (Oh et al. §V-F); its leakage is "
          "in the energy model");
  if (!offchip_) return;
  g.counter("offchip_out", &n_.offchip_out, "CTAs", "register contexts sent off chip");
  g.counter("offchip_in", &n_.offchip_in, "CTAs", "register contexts brought back from off chip");
  g.counter("offchip_bytes_out", &n_.offchip_bytes_out, "bytes",
            "register contexts written off chip (stores around the L1D to the SM's reserved area)");
  g.counter("offchip_bytes_in", &n_.offchip_bytes_in, "bytes", "register contexts read back from off chip");
  g.formula("offchip_bytes", "@offchip_bytes_out + @offchip_bytes_in", "bytes",
            "off-chip traffic of register contexts, both ways");
  g.counter("offchip_regs_out", &n_.offchip_regs_out, "warp-registers",
            "warp-registers read from the register file to go off chip");
  g.counter("offchip_regs_in", &n_.offchip_regs_in, "warp-registers", "warp-registers written back from off chip");
  g.counter("offchip_transfer_cycles", &n_.offchip_transfer_cycles, "cycles",
            "sum over off-chip context transfers of the cycles from their issue to their last response");
  g.counter("offchip_cta_cycles", &n_.offchip_cta_cycles, "CTA-cycles", "sum over cycles of off-chip CTAs");
  g.counter("checked_registers", &n_.checked_registers, "registers",
            "registers restored from off chip under the checking mode (gpu.sm.regfile.finereg.check)");
}

}  // namespace simtlm::models::finereg
