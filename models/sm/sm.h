// Streaming multiprocessor timing model: one SC_METHOD (ClockedModule) per SM
// that ticks on the core clock while the SM has work; warps are data. The
// Sm is a thin module that owns its parts and runs them in order each cycle:
//
//   CtaTable      admission, activation, suspend/resume, completion (cta_table.h)
//   FrontEnd      fetch, I-cache, I-buffers (front_end.h)
//   IssueStage    scheduler policy + issue gates + structural checks, issue
//                 with functional execution (issue_stage.h, issue_gate.h)
//   Scoreboard    pending registers per warp (scoreboard.h)
//   OperandCollector / register banks, ExecUnits, WritebackQueue
//                 (operand_collector.h, exec_units.h)
//   LdstUnit      coalescer, shared memory, constant cache, L1D, ports,
//                 extra memory spaces (ldst_unit.h)
//   WarpTable     warp slots, parking, scan memo (warp_table.h)
// Life events of warps and CTAs go to any number of SmObservers
// (sm_events.h); mechanisms plug in as scheduler policies, allocators,
// issue gates, observers and extension-instruction timings
// (docs/architecture.md, "Adding a mechanism").
//
// Memory side: the SM owns its L1D (a models::Cache, when gpu.l1d.enabled)
// and a MemMux that merges the L1D's downstream traffic with the LD/ST unit's
// L1-bypass port. The platform binds mem_socket() to its interconnect, and
// memory_space_socket(name) of every extra memory space to its target.
//
// Platform protocol:
//   Sm sm("sm0", sm_params_from_config(cfg, 0));
//   sm.mem_socket().bind(xbar.target_socket(0));
//   sm.set_cta_done_callback([&](Sm& s, const LaunchContext& ctx, uint64_t cta) {...});
//   if (sm.can_admit(CtaShape::of(ctx))) sm.launch_cta(ctx, cta_id);
// launch_cta() reserves the CTA's resources at once; the CTA starts at the
// SM's next clock edge. The CTA-done callback runs inside the SM's tick once
// all warps of the CTA finished and all their memory operations returned
// (it may call launch_cta()). A device fault raised by the functional model
// stops the SM; the fault callback (default: sc_stop()) is called and
// fault() returns the exception for the platform to rethrow.
// Timing rules and decisions: docs/sm-model.md.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "functional/executor.h"
#include "models/cache/cache.h"
#include "models/common/at_initiator_port.h"
#include "models/common/clock_domain.h"
#include "models/regfile/allocator.h"
#include "models/sched/policy.h"
#include "models/sm/cta_table.h"
#include "models/sm/cycle_hook.h"
#include "models/sm/exec_units.h"
#include "models/sm/extension_timing.h"
#include "models/sm/front_end.h"
#include "models/sm/issue_gate.h"
#include "models/sm/issue_stage.h"
#include "models/sm/ldst_unit.h"
#include "models/sm/operand_collector.h"
#include "models/sm/resources.h"
#include "models/sm/scoreboard.h"
#include "models/sm/sm_events.h"
#include "models/sm/sm_params.h"
#include "models/sm/sm_stats.h"
#include "models/sm/warp_group_unit.h"
#include "models/sm/warp_table.h"
#include "models/sm/warp_wait_probe.h"
#include "models/smem/allocator.h"

namespace simtlm::models {

class SharingIssueCounter;  // models/sm/sharing_issue_counter.h
class L1dLocality;          // models/sm/l1d_locality.h
namespace regfile {
class RegisterPowerStates;  // models/regfile/power_states.h
}

class Sm : public ClockedModule, private AtInitiatorPort::Listener, private SmServices {
 public:
  using CtaDoneCallback = std::function<void(Sm&, const functional::LaunchContext&, uint64_t cta_id)>;
  using IdleCallback = std::function<void(Sm&)>;
  using FaultCallback = std::function<void(Sm&, std::exception_ptr)>;
  using RoomCallback = std::function<void(Sm&)>;
  using WaitingQuery = std::function<bool(const Sm&)>;

  Sm(const sc_core::sc_module_name& name, const SmParams& params);
  ~Sm() override;

  // ---- memory side ----------------------------------------------------------
  // The SM's memory socket (L1D misses, writes, atomics, bypassed loads).
  AtInitiatorPort::socket_type& mem_socket() { return ldst_.mem_socket(); }
  // The socket of extra memory space `space` (SmParams::memory_spaces).
  AtInitiatorPort::socket_type& memory_space_socket(const std::string& space) { return ldst_.space_socket(space); }
  Cache* l1d() { return ldst_.l1d(); }

  // ---- CTA admission --------------------------------------------------------
  // CTAs of this shape that fit in an empty SM (0: never fits).
  uint32_t max_resident_ctas(const CtaShape& shape) const { return ctas_.max_resident_ctas(shape); }
  // One more CTA of this shape fits now (CTA slot, warps, threads, registers,
  // shared memory).
  // A device fault stops admission.
  bool can_admit(const CtaShape& shape) const { return !faulted_ && ctas_.can_admit(shape); }
  // Places CTA `linear_cta_id` of the launch on this SM (requires can_admit).
  // `ctx` must outlive the CTA. Throws Error(Internal) if it does not fit.
  void launch_cta(functional::LaunchContext& ctx, uint64_t linear_cta_id);

  // ---- hooks ----------------------------------------------------------------
  // Life events of warps and CTAs (not owned; must outlive the SM or unsubscribe).
  void subscribe(SmObserver& observer) { bus_.subscribe(observer); }
  void unsubscribe(SmObserver& observer) { bus_.unsubscribe(observer); }
  // Appends an issue gate (not owned), asked after the built-in ones.
  void add_issue_gate(IssueGate& gate) { issue_.add_gate(gate); }
  const std::vector<IssueGate*>& issue_gates() const { return issue_.gates(); }
  // Per-(warp, physical register) state of a mechanism (GREENER, FineReg):
  // reads wait until it says a register is readable; it hears every write.
  void set_register_state_model(regfile::RegisterStateModel* model) { collector_.set_state_model(model); }
  // Stops offering the warps of the CTA in `cta_slot` to the schedulers, or
  // offers them again (FineReg-style CTA switching). Operations in flight
  // complete normally; a suspended CTA completes only after its resumption.
  void suspend_cta(uint32_t cta_slot) override;
  void resume_cta(uint32_t cta_slot) override;
  // Per-cycle mechanism work (not owned), run at the end of every tick; the
  // register allocator's own hook (CtaAllocator::bind_sm) is added at
  // construction.
  void add_cycle_hook(SmCycleHook& hook) { cycle_hooks_.push_back(&hook); }
  // A rendezvous outside the SM (the spu platform's bar.blocksync; it sees a
  // CTA's warps all waiting through on_warp_barrier / on_warp_finish) has
  // cleared the functional wait of the CTA in `cta_slot`: its warps parked at
  // the barrier become eligible at the next cycle. Call at a clock edge of the
  // SM's clock (e.g. from another ClockedModule's tick).
  void release_external_barrier(uint32_t cta_slot);

  // A unit that fetches and issues groups of warps ahead of the front end
  // and the schedulers (models/sm/warp_group_unit.h; the vws platform's
  // warp ganging unit), made by `make` from the SM's parts and owned by the
  // SM. At most one, installed by the platform builder before the first
  // launch and before the statistics are registered.
  using WarpGroupUnitFactory = std::function<std::unique_ptr<WarpGroupUnit>(Sm&, const WarpGroupParts&)>;
  void set_warp_group_unit(const WarpGroupUnitFactory& make);

  // ---- notifications --------------------------------------------------------
  void set_cta_done_callback(CtaDoneCallback cb) { cta_done_cb_ = std::move(cb); }
  void set_idle_callback(IdleCallback cb) { idle_cb_ = std::move(cb); }
  void set_fault_callback(FaultCallback cb) { fault_cb_ = std::move(cb); }
  // CTA switching (FineReg) freed room without a completion: the platform may
  // place CTAs; and whether it has CTAs left to place (SmServices).
  void set_room_callback(RoomCallback cb) { room_cb_ = std::move(cb); }
  void set_waiting_query(WaitingQuery q) { waiting_q_ = std::move(q); }
  // Notified (delta) whenever a CTA completes.
  const sc_core::sc_event& cta_done_event() const { return cta_done_event_; }

  // ---- state ------------------------------------------------------------------
  uint32_t id() const { return p_.id; }
  uint32_t sm_id() const override { return p_.id; }
  uint64_t cycle() const override { return now_cycle_; }
  const SmParams& params() const { return p_; }
  uint32_t resident_ctas() const { return ctas_.resident_ctas(); }
  uint32_t resident_warps() const { return ctas_.resident_warps(); }
  // CTAs placed and not completed (including those waiting for the next edge).
  uint32_t busy_ctas() const { return ctas_.busy_ctas(); }
  bool busy() const { return ctas_.busy_ctas() != 0; }
  const CtaTable& cta_table() const { return ctas_; }
  // Watchdog: warp instructions issued so far, and the cycle of the last issue.
  uint64_t progress() const { return stats_.warp_instructions; }
  // Instructions with an effect outside the SM (global stores, atomics): the
  // platform's livelock hint watches for them.
  uint64_t visible_effects() const { return stats_.global_store_instructions + stats_.atomic_instructions; }
  uint64_t last_issue_cycle() const { return issue_.last_issue_cycle(); }
  // One line per resident warp saying what it waits on (barrier, register,
  // memory, pipeline, fetch), plus LD/ST and policy state.
  std::string describe_stall() const;
  // Counters, with the cycle-dependent ones brought up to the current time.
  SmStats& stats();
  // Registers the SM's counters and formulas, and its L1D's, under `g`
  // (gpu.sm[i]); defined in sm_stats_registration.cpp.
  void register_stats(const stats::Group& g);
  std::exception_ptr fault() const { return fault_; }

  regfile::Allocator& register_allocator() override { return ctas_.register_allocator(); }
  smem::Allocator& shared_allocator() override { return ctas_.shared_allocator(); }
  sched::Policy& policy() { return *policy_; }
  void cta_room_freed() override;
  bool ctas_waiting() const override { return waiting_q_ && waiting_q_(*this); }
  uint32_t mechanism_access(SmCycleHook& requester, uint64_t addr, uint32_t bytes, bool write,
                            bool via_l1d) override;

 private:
  // ClockedModule / TLM.
  uint64_t tick(uint64_t cycle) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;

  void credit_until(uint64_t cycle);
  void process_completions(uint64_t c);
  // Writes the destinations of warp `slot`'s instruction to the register
  // banks; false when a port conflict delays the write (a release is queued).
  bool write_registers(uint32_t slot, const InstTiming& info, uint64_t c);
  // The destinations are written: scoreboard release, writeback event, the
  // operation is done.
  void release(uint32_t slot, const InstTiming& info, uint64_t c);
  void memory_piece_done(uint32_t op, uint64_t c);
  uint64_t next_wake(uint64_t c) const;
  void raise_fault(std::exception_ptr e);
  void cta_completed(const functional::LaunchContext& ctx, uint64_t cta_id);
  std::string describe_warp(uint32_t slot) const;
  void add_builtin_gates();
  void add_register_power_states();

  SmParams p_;
  // Read on every tick.
  bool faulted_ = false;
  uint64_t accounted_ = 0;   // first cycle not yet accounted
  uint64_t now_cycle_ = 0;
  SmStats stats_;
  WarpTable warps_;
  SmEventBus bus_;
  std::unique_ptr<sched::Policy> policy_;
  FrontEnd front_;
  Scoreboard scoreboard_;
  OperandCollector collector_;
  ExecUnits units_;
  WritebackQueue writebacks_;
  LdstUnit ldst_;
  CtaTable ctas_;
  IssueStage issue_;
  std::vector<std::unique_ptr<IssueGate>> builtin_gates_;
  std::unique_ptr<SharingIssueCounter> sharing_issues_;  // with a sharing allocator only
  std::unique_ptr<regfile::RegisterPowerStates> power_;   // register power states, unless always_on
  std::unique_ptr<L1dLocality> locality_;                // with gpu.l1d.locality_stats only
  WarpWaitProbe wait_probe_{warps_};                      // what the policy may ask of unexamined warps
  std::vector<SmCycleHook*> cycle_hooks_;                // empty unless a mechanism needs one
  std::vector<SmCycleHook*> access_owner_;               // by LD/ST operation id: a mechanism's own access
  std::unique_ptr<WarpGroupUnit> group_unit_;             // vws mixed mode only

  // Notifications.
  CtaDoneCallback cta_done_cb_;
  IdleCallback idle_cb_;
  FaultCallback fault_cb_;
  RoomCallback room_cb_;
  WaitingQuery waiting_q_;
  sc_core::sc_event cta_done_event_;
  std::exception_ptr fault_;
};

}  // namespace simtlm::models
