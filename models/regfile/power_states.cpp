// Register power states: GREENER and Sleep-Reg (see power_states.h).
#include "models/regfile/power_states.h"

#include <algorithm>
#include <cmath>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/regalloc.h"
#include "models/sm/inst_timing.h"
#include "simtlm/error.h"

namespace simtlm::models::regfile {

using frontend::passes::PowerAnnotation;
using frontend::passes::PowerState;

PowerScheme power_scheme_from_name(const std::string& name) {
  if (name == "always_on") return PowerScheme::AlwaysOn;
  if (name == "sleep_reg") return PowerScheme::SleepReg;
  if (name == "greener") return PowerScheme::Greener;
  throw Error(ErrorKind::Config, "gpu.sm.regfile.power.policy: unknown scheme '" + name +
                                     "' (always_on, sleep_reg, greener)");
}

uint64_t RegisterPowerStates::lookup_table_bits(uint32_t max_warps, uint32_t entries, uint32_t regs_per_thread) {
  uint32_t log2r = 0;
  while ((1u << log2r) < regs_per_thread) ++log2r;
  return uint64_t(max_warps) * entries * (32 + uint64_t(log2r) * 8);
}

RegisterPowerStates::RegisterPowerStates(const PowerParams& params, const WarpTable& warps)
    : p_(params), warps_(warps), capacity_(params.registers / std::max(1u, params.warp_size)),
      residency_(params.off_leakage) {
  if (!(p_.off_leakage < 1.0 && p_.sleep_leakage >= p_.off_leakage && p_.sleep_leakage <= 1.0)) {
    throw Error(ErrorKind::Config, "gpu.sm.regfile.power.sleep_leakage_ratio and off_leakage_ratio: need "
                                   "off < 1 and off <= sleep <= 1");
  }
  const size_t n = static_cast<size_t>(p_.max_warps) * kStride;
  state_.assign(n, static_cast<uint8_t>(PowerState::Off));
  valid_.assign(n, 0);
  ready_at_.assign(n, 0);
  reserved_until_.assign(n, 0);
  slots_.resize(p_.max_warps);
  if (p_.scheme == PowerScheme::Greener && p_.runtime_correction) {
    c_.lookup_table_bits = lookup_table_bits(p_.max_warps, kLookupEntriesPerWarp, p_.max_regs_per_thread + 1);
  }
  update_fraction();
}

// ---------------------------------------------------------------- accounting

void RegisterPowerStates::tick_to(uint64_t cycle) {
  if (cycle <= last_cycle_) return;
  const uint64_t dt = cycle - last_cycle_;
  for (unsigned s = 0; s < 3; ++s) c_.residency[s] += count_[s] * dt;
  const uint64_t unalloc = capacity_ > allocated_ ? capacity_ - allocated_ : 0;
  c_.residency[static_cast<unsigned>(PowerState::Off)] += unalloc * dt;
  c_.residency_unallocated += unalloc * dt;
  last_cycle_ = cycle;
}

void RegisterPowerStates::update_fraction() {
  if (capacity_ == 0) return;
  const uint64_t unalloc = capacity_ > allocated_ ? capacity_ - allocated_ : 0;
  const double off = static_cast<double>(count_[static_cast<unsigned>(PowerState::Off)] + unalloc);
  const double sleep = static_cast<double>(count_[static_cast<unsigned>(PowerState::Sleep)]);
  const double f = (off + sleep * (1.0 - p_.sleep_leakage) / (1.0 - p_.off_leakage)) /
                   std::max<double>(capacity_, static_cast<double>(allocated_));
  residency_.set_fraction(std::min(1.0, f), static_cast<double>(last_cycle_) * p_.cycle_seconds);
}

void RegisterPowerStates::advance(uint64_t cycle) {
  tick_to(cycle);
  residency_.advance(static_cast<double>(last_cycle_) * p_.cycle_seconds);
}

void RegisterPowerStates::set_state(uint32_t slot, uint32_t reg, PowerState s, uint64_t cycle) {
  const size_t i = at(slot, reg);
  const PowerState old = static_cast<PowerState>(state_[i]);
  if (s == PowerState::Off) valid_[i] = 0;
  if (old == s) return;
  tick_to(cycle);
  --count_[static_cast<unsigned>(old)];
  ++count_[static_cast<unsigned>(s)];
  state_[i] = static_cast<uint8_t>(s);
  update_fraction();
}

// ---------------------------------------------------------------- warps

void RegisterPowerStates::on_warp_launch(const WarpEvent& e) {
  const WarpState& w = warps_[e.warp_slot];
  const ir::Function& fn = w.timing->ctx().kernel();
  Slot& s = slots_[e.warp_slot];
  s = Slot{};
  s.allocated = true;
  s.cta_slot = e.cta_slot;
  const uint32_t g = std::max(1u, p_.alloc_granularity);
  const uint32_t alloc = (fn.analysis.regs_per_thread + g - 1) / g * g;
  s.regs = std::min(kStride, std::max(alloc, fn.analysis.phys_regs32));
  std::vector<char> entry_live(kStride, 0);
  if (p_.scheme == PowerScheme::Greener) {
    s.ann = fn.annotations.find<PowerAnnotation>(frontend::passes::kPowerStatesColumn);
    if (s.ann == nullptr) {
      throw Error(ErrorKind::Config, "gpu.sm.regfile.power.policy = greener: kernel '" + fn.name +
                                         "' has no power-state annotation (the front-end pass power_states "
                                         "did not run)");
    }
    if (fn.analysis.analyses) {
      const auto& a = *fn.analysis.analyses;
      for (uint32_t r : frontend::analysis::live_physical_regs(fn, a.registers, a.liveness.live_at_entry())) {
        if (r < kStride) entry_live[r] = 1;
      }
    }
  }
  tick_to(e.cycle);
  allocated_ += s.regs;
  for (uint32_t r = 0; r < s.regs; ++r) {
    const size_t i = at(e.warp_slot, r);
    // Sleep-Reg: allocated registers sleep; GREENER: nothing is live yet
    // except registers read before written (the launch zeroes them).
    const bool keep = p_.scheme == PowerScheme::SleepReg || entry_live[r];
    const PowerState st = keep ? PowerState::Sleep : PowerState::Off;
    state_[i] = static_cast<uint8_t>(st);
    valid_[i] = keep ? 1 : 0;
    ready_at_[i] = 0;
    reserved_until_[i] = 0;
    ++count_[static_cast<unsigned>(st)];
  }
  update_fraction();
}

void RegisterPowerStates::on_cta_exit(const CtaEvent& e) {
  tick_to(e.cycle);
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& s = slots_[slot];
    if (!s.allocated || s.cta_slot != e.cta_slot) continue;
    for (uint32_t r = 0; r < s.regs; ++r) --count_[state_[at(slot, r)]];
    allocated_ -= s.regs;
    s = Slot{};
  }
  update_fraction();
}

// ---------------------------------------------------------------- issue

void RegisterPowerStates::data_lost(const GateQuery& q, uint32_t reg) const {
  const std::string kernel = q.kernel ? q.kernel->name : "?";
  std::string line;
  if (q.inst != nullptr) line = " (line " + std::to_string(q.inst->loc.line) + ": `" + q.inst->text + "`)";
  throw Error(ErrorKind::Internal, "register power states: kernel '" + kernel + "' pc " + std::to_string(q.pc) + line +
                                       ", warp slot " + std::to_string(q.warp_slot) + " (CTA " +
                                       std::to_string(q.cta_id) + ", warp " + std::to_string(q.warp_in_cta) +
                                       ") reads physical register " + std::to_string(reg) +
                                       ", whose data was lost (OFF since its last write)");
}

bool RegisterPowerStates::allows(const GateQuery& q, sched::StallKind& stall) {
  const InstTiming& t = *q.timing;
  const uint32_t slot = q.warp_slot;
  const uint64_t now = q.cycle;
  tick_to(now);
  const uint16_t* lists[2] = {t.rf_reads, t.rf_writes};
  const unsigned counts[2] = {t.num_rf_reads, t.num_rf_writes};
  // A physical register with a write in flight from an older instruction of
  // the warp: the SM's scoreboard tracks virtual registers, and two virtual
  // registers may share a physical one (the allocation reuses it once the
  // first is dead), so a late write of a dead value (a load or atomic into a
  // register nobody reads) could land after a younger write and gate it.
  // Hardware scoreboards physical registers; so does this model.
  for (uint32_t other : slots_[slot].in_flight) {
    const InstTiming& o = warps_[slot].timing->at(other);
    for (unsigned j = 0; j < o.num_rf_writes; ++j) {
      for (unsigned l = 0; l < 2; ++l) {
        for (unsigned k = 0; k < counts[l]; ++k) {
          if (lists[l][k] == o.rf_writes[j]) {
            ++c_.physical_hazard_stalls;
            stall = sched::StallKind::Scoreboard;
            return false;
          }
        }
      }
    }
  }
  // The RAR/WAR reservation: a state change of an earlier instruction is pending.
  for (unsigned l = 0; l < 2; ++l) {
    for (unsigned k = 0; k < counts[l]; ++k) {
      if (reserved_until_[at(slot, lists[l][k])] > now) {
        ++c_.reservation_stalls;
        stall = sched::StallKind::Scoreboard;
        return false;
      }
    }
  }
  for (unsigned k = 0; k < t.num_rf_reads; ++k) {
    if (!valid_[at(slot, t.rf_reads[k])]) data_lost(q, t.rf_reads[k]);
  }
  uint64_t ready = now;
  for (unsigned l = 0; l < 2; ++l) {
    for (unsigned k = 0; k < counts[l]; ++k) {
      const uint32_t r = lists[l][k];
      const size_t i = at(slot, r);
      const PowerState st = static_cast<PowerState>(state_[i]);
      if (st != PowerState::On) {
        // Wake-up signal: the register is powered from now on and readable
        // after the wake-up latency.
        const bool from_off = st == PowerState::Off;
        ++(from_off ? c_.wakeups_from_off : c_.wakeups_from_sleep);
        ready_at_[i] = now + (from_off ? p_.off_wakeup : p_.sleep_wakeup);
        set_state(slot, r, PowerState::On, now);
      }
      ready = std::max(ready, ready_at_[i]);
    }
  }
  Slot& s = slots_[slot];
  if (ready <= now) {
    s.stall_counted = false;
    return true;
  }
  if (!s.stall_counted) {
    c_.wakeup_stall_cycles += ready - now;
    s.stall_counted = true;
  }
  stall = sched::StallKind::WakeUp;
  return false;
}

// ---------------------------------------------------------------- state changes

uint32_t RegisterPowerStates::pc_of(uint32_t slot, const InstTiming* inst) const {
  const KernelTiming* kt = warps_[slot].timing;
  return static_cast<uint32_t>(inst - &kt->at(0));
}

bool RegisterPowerStates::another_pc_uses(uint32_t slot, uint32_t pc, uint32_t reg) {
  const WarpState& w = warps_[slot];
  const Slot& s = slots_[slot];
  const uint64_t entries = w.ib_count + s.in_flight.size();
  ++c_.lookups;
  c_.lookup_entries += entries;
  c_.lookup_entries_max = std::max(c_.lookup_entries_max, entries);
  auto uses = [&](uint32_t other) {
    if (other == pc) return false;
    const InstTiming& t = w.timing->at(other);
    for (unsigned k = 0; k < t.num_rf_reads; ++k)
      if (t.rf_reads[k] == reg) return true;
    for (unsigned k = 0; k < t.num_rf_writes; ++k)
      if (t.rf_writes[k] == reg) return true;
    return false;
  };
  for (uint32_t k = 0; k < w.ib_count; ++k)
    if (uses(w.ib_pc + k)) return true;
  for (uint32_t other : s.in_flight)
    if (uses(other)) return true;
  return false;
}

PowerState RegisterPowerStates::after_access(uint32_t slot, uint32_t pc, uint32_t reg) {
  if (p_.scheme == PowerScheme::SleepReg) return PowerState::Sleep;
  PowerState st = PowerState::Sleep;  // registers the encoding does not carry
  const Slot& s = slots_[slot];
  if (s.ann != nullptr && pc < s.ann->size()) {
    for (const PowerAnnotation::Reg& r : (*s.ann)[pc].regs) {
      if (r.reg == reg) {
        st = r.state;
        break;
      }
    }
  }
  if (st != PowerState::On && p_.runtime_correction && another_pc_uses(slot, pc, reg)) {
    ++c_.kept_on;
    return PowerState::On;
  }
  return st;
}

void RegisterPowerStates::on_operand_read(const RegisterAccess& a) {
  Slot& s = slots_[a.warp_slot];
  s.read_inst = a.inst;
  s.read_cycle = a.cycle;
}

void RegisterPowerStates::on_warp_issue(const IssueRecord& r) {
  Slot& s = slots_[r.warp_slot];
  const InstTiming* t = s.read_inst;
  if (t == nullptr) return;
  s.read_inst = nullptr;
  // Sources change state after their read; a register the instruction also
  // writes changes once, after the writeback.
  for (unsigned k = 0; k < t->num_rf_reads; ++k) {
    const uint32_t reg = t->rf_reads[k];
    bool written = false;
    for (unsigned j = 0; j < t->num_rf_writes; ++j) written = written || t->rf_writes[j] == reg;
    if (written) continue;
    set_state(r.warp_slot, reg, after_access(r.warp_slot, r.pc, reg), s.read_cycle);
    reserved_until_[at(r.warp_slot, reg)] = s.read_cycle + 1;  // the read ends in the next cycle
  }
  if (t->num_rf_writes != 0) s.in_flight.push_back(r.pc);
}

void RegisterPowerStates::on_writeback(const RegisterAccess& a) {
  const uint32_t slot = a.warp_slot;
  Slot& s = slots_[slot];
  if (!s.allocated || a.inst->num_rf_writes == 0) return;
  const uint32_t pc = pc_of(slot, a.inst);
  auto it = std::find(s.in_flight.begin(), s.in_flight.end(), pc);
  if (it != s.in_flight.end()) s.in_flight.erase(it);
  for (unsigned k = 0; k < a.inst->num_rf_writes; ++k) {
    const uint32_t reg = a.inst->rf_writes[k];
    valid_[at(slot, reg)] = 1;
    set_state(slot, reg, after_access(slot, pc, reg), a.cycle);
  }
}

// ---------------------------------------------------------------- statistics

void RegisterPowerStates::register_stats(const stats::Group& g) {
  const stats::Group pg = g.child("power");
  pg.counter("residency_on", &c_.residency[0], "register cycles", "warp-wide registers ON, integrated over cycles");
  pg.counter("residency_sleep", &c_.residency[1], "register cycles", "warp-wide registers in SLEEP (drowsy)");
  pg.counter("residency_off", &c_.residency[2], "register cycles",
             "warp-wide registers OFF (gated), unallocated ones included");
  pg.counter("residency_unallocated", &c_.residency_unallocated, "register cycles",
             "warp-wide registers not allocated to a resident warp (OFF)");
  pg.counter("wakeups_from_sleep", &c_.wakeups_from_sleep, "wake-ups", "registers woken from SLEEP");
  pg.counter("wakeups_from_off", &c_.wakeups_from_off, "wake-ups", "registers woken from OFF");
  pg.counter("wakeup_stall_cycles", &c_.wakeup_stall_cycles, "warp cycles",
             "cycles instructions waited for their registers to wake up");
  pg.counter("reservation_stalls", &c_.reservation_stalls, "refusals",
             "issue refusals for a source whose state change is pending (RAR/WAR)");
  pg.counter("physical_hazard_stalls", &c_.physical_hazard_stalls, "refusals",
             "issue refusals for a physical register written by an older in-flight instruction (another virtual "
             "register)");
  pg.counter("lookups", &c_.lookups, "searches", "run-time correction searches of the lookup table");
  pg.counter("kept_on", &c_.kept_on, "searches", "searches that kept a register ON");
  pg.counter("lookup_entries", &c_.lookup_entries, "entries", "lookup-table entries of the warp, summed over searches");
  pg.level("lookup_entries_max", &c_.lookup_entries_max, "entries", "most lookup-table entries one warp had");
  pg.level("lookup_table_bits", &c_.lookup_table_bits, "bits",
           "lookup-table storage: max warps x 2 entries x (32-bit pc + 8 x log2(registers per thread)); 0 without it");
  residency_.register_stats(g.registry(), "gpu", "regfile", p_.sm_id);
}

}  // namespace simtlm::models::regfile
