// Register-file power states per warp and physical register: GREENER
// (Jatala thesis Ch. 4, seed note 000 §2.12) and the Sleep-Reg comparison
// scheme (Abdel-Majeed & Annavaram, HPCA'13, as the thesis describes it),
// chosen by gpu.sm.regfile.power.policy (docs/greener.md).
//
// Each warp-wide physical register (32 lanes x 32 bits) of each warp slot is
// ON, SLEEP (drowsy: keeps its data, leaks less) or OFF (gated: loses its
// data, leaks least). The model is one object per SM that is both
//
//  - an IssueGate: a warp is ready only when every register its instruction
//    reads or writes is ON. A register found in SLEEP or OFF starts waking
//    (SLEEP->ON gpu.sm.regfile.power.sleep_wakeup_cycles, OFF->ON
//    off_wakeup_cycles) and the slot is charged StallKind::WakeUp. The gate
//    also holds an instruction that touches a register whose state change by
//    an earlier instruction of the warp is still pending (the RAR/WAR
//    reservation of the scoreboard, §2.12 item 2), or a physical register
//    an older in-flight instruction writes (the SM's scoreboard is over
//    virtual registers; see allows());
//  - an SmObserver: after an instruction's operand read its sources, and
//    after its writeback its destinations, enter the state the scheme says
//    (GREENER: the `power_states` pass's annotation; Sleep-Reg: SLEEP).
//
// GREENER's run-time correction (§4.2.3, Fig. 4.4): before a register goes to
// SLEEP or OFF, the warp's decoded-not-retired instructions (its I-buffer and
// its issued instructions whose writeback is pending) are searched for
// another pc that accesses it; if one does, it stays ON.
//
// Unallocated registers (beyond the resident warps' allocations) are OFF in
// both schemes (decision, docs/greener.md). A warp's registers are allocated
// from its launch until its CTA exits; at launch GREENER's are OFF except
// those live at the kernel's entry (SLEEP), Sleep-Reg's are SLEEP.
//
// Data safety (§7 item 20): a register whose data was lost (OFF since its
// last write) must not be read. A read of one is a model error naming the
// kernel, pc, warp and register.
//
// Leakage: residency per state (register-cycles) and the reduced-leakage
// fraction reported through power::LeakageResidency as regfile[sm]. One
// residency with the OFF ratio r_o and fraction f_off + f_sleep x (1 - r_s) /
// (1 - r_o) charges exactly P x (T - (1 - r_s) x R_sleep - (1 - r_o) x R_off).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/power_states_pass.h"
#include "models/power/leakage_residency.h"
#include "models/sm/issue_gate.h"
#include "models/sm/sm_events.h"
#include "models/sm/warp_table.h"
#include "simtlm/stats.h"

namespace simtlm::models::regfile {

enum class PowerScheme : uint8_t { AlwaysOn, SleepReg, Greener };
// Error(Config) naming gpu.sm.regfile.power.policy for an unknown name.
PowerScheme power_scheme_from_name(const std::string& name);

struct PowerParams {
  PowerScheme scheme = PowerScheme::AlwaysOn;
  uint32_t sleep_wakeup = 1;      // core cycles SLEEP -> ON
  uint32_t off_wakeup = 2;        // core cycles OFF -> ON
  double sleep_leakage = 0.25;    // leakage of a SLEEP register relative to ON
  double off_leakage = 0.05;      // leakage of an OFF register relative to ON
  bool runtime_correction = true; // GREENER's lookup table
  uint32_t warp_size = 32;
  uint32_t max_warps = 48;
  uint32_t registers = 32768;     // 32-bit registers of the SM
  uint32_t alloc_granularity = 4;
  uint32_t max_regs_per_thread = 63;  // for the lookup table's register field
  uint32_t sm_id = 0;
  double cycle_seconds = 1e-9;
};

class RegisterPowerStates : public IssueGate, public SmObserver {
 public:
  RegisterPowerStates(const PowerParams& params, const WarpTable& warps);

  // IssueGate.
  const char* name() const override { return "register power states"; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override;

  // SmObserver.
  void on_warp_launch(const WarpEvent& e) override;
  void on_operand_read(const RegisterAccess& a) override;
  void on_warp_issue(const IssueRecord& r) override;
  void on_writeback(const RegisterAccess& a) override;
  void on_cta_exit(const CtaEvent& e) override;

  // Brings the residency integrals up to `cycle` (before statistics are read).
  void advance(uint64_t cycle);
  // gpu.sm[i].regfile.power.* and gpu.power.residency.regfile[i].*.
  void register_stats(const stats::Group& g);

  // Hardware cost of the lookup table (§2.12): max_warps x entries x
  // (32-bit pc + log2(registers per thread) x 8 operands) bits.
  static uint64_t lookup_table_bits(uint32_t max_warps, uint32_t entries, uint32_t regs_per_thread);

  struct Counters {
    uint64_t residency[3] = {};       // register-cycles ON / SLEEP / OFF (unallocated included in OFF)
    uint64_t residency_unallocated = 0;
    uint64_t wakeups_from_sleep = 0;
    uint64_t wakeups_from_off = 0;
    uint64_t wakeup_stall_cycles = 0;  // warp-cycles an issuable instruction waited for wake-ups
    uint64_t reservation_stalls = 0;   // gate refusals for a pending state change (RAR/WAR)
    uint64_t physical_hazard_stalls = 0;  // ... for a physical register an older instruction writes
    uint64_t lookups = 0;              // run-time correction searches
    uint64_t kept_on = 0;              // ... that kept a register ON
    uint64_t lookup_entries = 0;       // entries seen by the searches (sum)
    uint64_t lookup_entries_max = 0;
    uint64_t lookup_table_bits = 0;    // hardware size for the thesis's 2 entries per warp
  };
  static constexpr uint32_t kLookupEntriesPerWarp = 2;  // §2.12: average occupancy < 2
  const Counters& counters() const { return c_; }

 private:
  using PowerState = frontend::passes::PowerState;
  static constexpr uint32_t kStride = 256;  // registers per warp slot (physical numbers are < 256)

  size_t at(uint32_t slot, uint32_t reg) const { return static_cast<size_t>(slot) * kStride + reg; }
  void set_state(uint32_t slot, uint32_t reg, PowerState s, uint64_t cycle);
  void tick_to(uint64_t cycle);
  void update_fraction();
  // The state register `reg` enters after instruction `pc` of `slot` accessed it.
  PowerState after_access(uint32_t slot, uint32_t pc, uint32_t reg);
  bool another_pc_uses(uint32_t slot, uint32_t pc, uint32_t reg);
  uint32_t pc_of(uint32_t slot, const InstTiming* inst) const;
  [[noreturn]] void data_lost(const GateQuery& q, uint32_t reg) const;

  PowerParams p_;
  const WarpTable& warps_;
  uint32_t capacity_;  // warp-wide registers of the SM (registers / warp_size)
  std::vector<uint8_t> state_;           // per slot x register
  std::vector<uint8_t> valid_;           // data present (written, not OFF since)
  std::vector<uint64_t> ready_at_;       // cycle a waking register is ON
  std::vector<uint64_t> reserved_until_; // pending state change of a source read
  struct Slot {
    bool allocated = false;
    uint32_t cta_slot = 0;
    uint32_t regs = 0;  // registers of the slot counted as allocated
    const std::vector<frontend::passes::PowerAnnotation>* ann = nullptr;
    const InstTiming* read_inst = nullptr;  // last operand read (its pc comes with the issue event)
    uint64_t read_cycle = 0;
    std::vector<uint32_t> in_flight;        // issued pcs whose writeback is pending
    bool stall_counted = false;             // wake-up stall of the current instruction counted
  };
  std::vector<Slot> slots_;
  uint64_t count_[3] = {};   // allocated registers per state
  uint64_t allocated_ = 0;
  uint64_t last_cycle_ = 0;
  Counters c_;
  power::LeakageResidency residency_;
};

}  // namespace simtlm::models::regfile
