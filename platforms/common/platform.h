// Platform: the launch machinery every top level shares, whatever its
// topology. A builder (GpuPlatform, a test platform, later SPU or VWS) derives
// from it, creates its SMs and memory side, binds them, hands the SMs over
// with add_sm() and calls finish_construction(); everything below is then
// common:
//
//   - dispatch: CTAs go to SMs through a pluggable CtaPlacement
//     (gpu.cta_placement, cta_placement.h), each SM's allocators admitting them;
//   - launch driving: run() called from sc_main (or any code outside the
//     simulation) drives it with sc_start() until the launch pauses it
//     (sc_pause); called from an SC_THREAD of a running simulation (a CPU model
//     of a virtual platform) it waits on the launch's completion event, so the
//     rest of the platform runs on meanwhile; an SC_METHOD cannot wait and gets
//     Error(Usage);
//   - the monitor: wakes every few thousand core cycles while a kernel runs for
//     the watchdog (sim.watchdog_cycles without an issued instruction or a
//     completed CTA -> Error(Deadlock) with every busy SM's stall report),
//     sim.max_cycles / sim.max_instructions and the progress callback;
//   - statistics: <name>.cycles/launches/ctas, every SM's own statistics
//     (Sm::register_stats), the SM-wide figures (IPC, issue slots, occupancy,
//     L1D totals) and the per-launch windows (KernelRecorder); the builder adds
//     its memory side's with register_topology_stats();
//   - traces (sim.trace.*);
//   - energy (gpu.power.*, models/power): the energy account turns every
//     statistics window into per-component energy (stats_tree()'s "energy",
//     the summary's energy lines) and samples the power trace.
//
// Several launches run one after the other on the same platform (SystemC
// elaborates once per process).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "functional/executor.h"
#include "models/common/clock_domain.h"
#include "models/sm/sm.h"
#include "platforms/common/cta_placement.h"
#include "simtlm/config.h"
#include "simtlm/stats.h"

namespace simtlm::power {
class EnergyAccount;
}

namespace simtlm::platforms {

class TraceWriter;
class L1dTrace;
class PowerTrace;

// What the monitor reports to a progress display.
struct RunProgress {
  std::string kernel;
  uint64_t cycles = 0;             // core cycles since the launch started
  uint64_t warp_instructions = 0;  // since the launch started
  uint64_t ctas_done = 0;
  uint64_t ctas_total = 0;
  std::string hint;                // "possible livelock: ..." (sim.livelock_hint_cycles) or ""
};

struct LaunchFigures {
  uint64_t cycles = 0;
  uint64_t ctas = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t offchip_accesses = 0;  // LaunchStats::offchip_accesses
  uint32_t spu_passes = 0;        // LaunchStats::spu_passes, viu_spills, viu_restores
  std::vector<uint64_t> viu_spills, viu_restores;
  // Makes this launch's statistics window as JSON text (values only); holds
  // the window's values and the registry, so it can run at any later time.
  std::function<std::string()> stats_json;
};

// Writes one aligned line of a readable summary.
using SummaryLine = std::function<void(const std::string& label, const std::string& text)>;

class Platform : public sc_core::sc_module {
 public:
  using ProgressCallback = std::function<void(const RunProgress&)>;

  ~Platform() override;

  // Runs every CTA of `ctx` to completion. Throws the device fault raised by
  // an SM, Error(Deadlock) from the watchdog, Error(Launch) when a CTA can
  // never fit on an SM or a sim.max_* limit stops the launch.
  LaunchFigures run(functional::LaunchContext& ctx);

  void set_progress_callback(ProgressCallback cb, uint64_t every_cycles = 20000) {
    progress_cb_ = std::move(cb);
    limits_.progress_every = every_cycles;
  }
  // Replaces the CTA placement policy gpu.cta_placement chose (between
  // launches; Error(Usage) during one), e.g. with a test's own policy.
  void set_cta_placement(std::unique_ptr<CtaPlacement> placement);

  const Config& config() const { return cfg_; }
  unsigned num_sms() const { return static_cast<unsigned>(sms_.size()); }
  models::Sm& sm(unsigned i) { return *sms_.at(i); }
  const models::Clock& core_clock() const { return core_clock_; }

  // Statistics: every module's counters and the derived figures; per-launch
  // windows and the run total.
  stats::Registry& registry() { return *registry_; }
  const stats::Registry& registry() const { return *registry_; }
  const stats::KernelRecorder& recorder() const { return *recorder_; }
  // Keep the statistics windows of the last `n` launches only (0: all).
  void keep_kernel_windows(size_t n) { recorder_->keep_last(n); }
  // Brings time-dependent counters up to the current simulation time.
  void refresh_stats();
  // {"format", "kernels": [...], "total": {...}, "meta": {...}[, "energy":
  // {...}]} (deterministic): the recorder's windows, and with gpu.power.enabled
  // their energy (power::EnergyAccount::report_json).
  nlohmann::ordered_json stats_tree() const;
  std::string stats_json() const;
  // The energy account (nullptr when gpu.power.enabled is false).
  const power::EnergyAccount* energy_account() const { return energy_.get(); }
  // Readable summary of a window (the key figures, not every counter):
  // `whole_run` when `values` is the run total (the occupancy maximum is then
  // the run-wide one; otherwise that of the window's launches).
  std::string summary(const stats::Values& values, bool whole_run = false) const;
  std::string total_summary() const;
  // One line per kernel name (its launches taken together), or per launch,
  // over the kept launch windows: launches, cycles, time, instructions, IPC,
  // occupancy, SIMD efficiency, read hit rates, DRAM bandwidth; then the
  // demangled signature of every mangled name. "" before the first launch.
  std::string kernel_table(bool per_launch) const;
  // The summary's load-latency lines: the average per supplying level and
  // its distribution in power-of-two latency ranges.
  void summarize_load_latency(const stats::Values& values, const SummaryLine& line) const;
  // The energy lines of the readable summary: the run's total and one line
  // per kernel name ("" when the energy model is off). platform_energy.cpp.
  std::string energy_summary() const;
  // Writes the trace files named by sim.trace.* and the DAWS profile of
  // gpu.sm.scheduler.daws.profile_out (no-op when none).
  void finish_traces();

 protected:
  // `cfg` must be validated; the core clock is gpu.clocks.core_mhz.
  Platform(const sc_core::sc_module_name& name, const Config& cfg);

  // Builder steps: add the SMs (all alike; sm[i] is SM i), then, once every
  // socket is bound, finish_construction() (from the builder's constructor).
  models::Sm& add_sm(std::unique_ptr<models::Sm> sm);
  void finish_construction();

  // The builder's memory side: its statistics under `top` (e.g. gpu.noc,
  // gpu.l2[s]) and platform-wide figures over them; refreshed by
  // refresh_topology_stats(); summary lines after the SM lines. `line(label,
  // text)` writes one aligned summary line.
  virtual void register_topology_stats(const stats::Group& top) = 0;
  virtual void refresh_topology_stats() = 0;
  virtual void summarize_topology(const stats::Values& values, const SummaryLine& line) const = 0;
  // The builder's clock domains besides the core's, for the summary: (name, MHz).
  virtual std::vector<std::pair<std::string, double>> clock_domains() const { return {}; }

  // Launch hooks of a builder with units besides its SMs' CTAs (the spu
  // platform's interface units); the defaults do nothing. launch_begins()
  // runs in run() before the first CTA is placed (it may replace the CTA
  // placement). claim_cta_done() is asked first at every CTA completion: true
  // when the CTA was the builder's own, not one of the launch's. The launch
  // ends once every CTA of the launch completed and launch_work_pending() is
  // false; the builder calls launch_work_done() when its work finishes.
  // extra_warp_instructions() / extra_thread_instructions() / extra_offchip_accesses() /
  // extra_last_issue_cycle() count units outside sm(i) in the launch figures and the watchdog, and
  // extra_issue_per_cycle() their most warp instructions per cycle (for
  // sim.max_instructions);
  // describe_extra_stall() is appended to a deadlock report.
  virtual void launch_begins(functional::LaunchContext& ctx) { (void)ctx; }
  virtual bool claim_cta_done(models::Sm& sm, uint64_t cta) {
    (void)sm, (void)cta;
    return false;
  }
  virtual bool launch_work_pending() const { return false; }
  virtual uint64_t extra_warp_instructions() const { return 0; }
  virtual uint64_t extra_thread_instructions() const { return 0; }
  virtual uint64_t extra_offchip_accesses() const { return 0; }
  virtual uint64_t extra_last_issue_cycle() const { return 0; }
  virtual uint64_t extra_issue_per_cycle() const { return 0; }
  virtual std::string describe_extra_stall() const { return ""; }
  // extra_offchip_accesses() above includes the SPU's virtual IUs' spill and
  // restore words; complete_figures() adds the builder's own launch figures
  // (the SPU's passes and VIU faces).
  virtual void complete_figures(LaunchFigures& f) const { (void)f; }
  // The n-th CTA the placement dispatches (default: CTA n; the SPU runs a
  // multi-pass grid pass by pass). Placement policies see it as next_cta().
  virtual uint64_t cta_in_dispatch_order(uint64_t n) const { return n; }
  // Offers the waiting CTAs to the placement again (a builder whose own work
  // made room, e.g. the SPU starting its next pass).
  void redispatch();
  void launch_work_done();
  // Ends the launch in progress with `e` (run() rethrows it).
  void fail(std::exception_ptr e);
  bool launch_running() const { return running_; }

 private:
  SC_HAS_PROCESS(Platform);
  class Dispatch;

  // The launch in progress.
  struct Launch {
    functional::LaunchContext* ctx = nullptr;
    models::CtaShape shape;
    std::string kernel;
    uint64_t total_ctas = 0;
    uint64_t next_cta = 0;
    uint64_t done_ctas = 0;
    uint64_t start_cycle = 0;
    uint64_t end_cycle = 0;
    uint64_t start_instructions = 0;
    uint64_t last_progress_cycle = 0;
    uint64_t last_report_cycle = 0;
    // Livelock hint: global stores + atomics + completed CTAs at the monitor's
    // last look, and the cycle that count last changed.
    uint64_t effects = 0;
    uint64_t last_effect_cycle = 0;
  };
  // sim.* limits and the monitor's period.
  struct Limits {
    uint64_t watchdog_cycles = 0;
    uint64_t max_cycles = 0;
    uint64_t max_instructions = 0;
    uint64_t issue_per_cycle = 1;  // most warp instructions the GPU issues in one cycle (set per launch)
    uint64_t monitor_every = 4096;
    uint64_t progress_every = 20000;
    uint64_t livelock_hint_cycles = 0;
  };
  // <name>.cycles / .launches / .ctas.
  struct Totals {
    uint64_t cycles = 0;
    uint64_t launches = 0;
    uint64_t ctas = 0;
  };

  void register_stats();
  void register_sharing_totals(const stats::Group& gpu);
  void register_locality_totals(const stats::Group& gpu);
  void start_method();
  void monitor_method();
  void power_method();
  // Dynamic Warp Execution (platform_dyn.cpp): gates built at construction
  // when gpu.sm.regfile.sharing_dyn.enabled, restarted per launch, and the
  // controller's window update.
  void build_dyn_warp_execution();
  void begin_dyn_launch();
  void dyn_method();
  void dispatch();
  void place(unsigned sm);
  void cta_done(models::Sm& sm, uint64_t cta);
  uint64_t warp_instructions_now() const;
  uint64_t thread_instructions_now() const;
  uint64_t offchip_accesses_now() const;
  // Ends the current launch at the end of this delta cycle: pauses the
  // simulation run() started, or wakes the thread that waits in run().
  void stop_launch();
  // Whether the monitor has anything to check (otherwise it is not armed, so
  // that a launch in which nothing can move ends by starvation).
  bool monitor_needed() const {
    return limits_.watchdog_cycles != 0 || limits_.max_cycles != 0 || limits_.max_instructions != 0 ||
           progress_cb_ != nullptr;
  }
  std::string deadlock_report(uint64_t now, uint64_t idle_for) const;
  // Core cycles from `now` to the monitor's next look: its period, shortened
  // so that the watchdog and sim.max_cycles act at their exact cycle and
  // sim.max_instructions within one cycle's issue of its bound.
  uint64_t cycles_to_next_check(uint64_t now, uint64_t progress, uint64_t instructions) const;
  std::string limit_message(const char* key, uint64_t limit, const char* what, const std::string& hint) const;
  // Warps issue but nothing visible happens (no global store, atomic or CTA
  // completion) for sim.livelock_hint_cycles: the text saying so, else "".
  // Updates the launch's effect count first.
  std::string livelock_hint(uint64_t now, uint64_t progress);
  uint64_t visible_effects_now() const;

  Config cfg_;
  models::Clock core_clock_;
  std::vector<std::unique_ptr<models::Sm>> sms_;
  std::unique_ptr<CtaPlacement> placement_;
  std::shared_ptr<stats::Registry> registry_;  // shared with launches' deferred JSON (LaunchFigures)
  std::unique_ptr<stats::KernelRecorder> recorder_;
  Totals totals_;
  std::vector<uint64_t> launch_max_ctas_;  // per SM, current launch (level)
  std::vector<uint64_t> launch_max_warps_;
  std::unique_ptr<TraceWriter> traces_;
  std::unique_ptr<power::EnergyAccount> energy_;
  std::unique_ptr<L1dTrace> l1d_trace_;      // sim.trace.l1d_file
  std::unique_ptr<PowerTrace> power_trace_;  // when a power trace or timeline is written
  struct DynWarp;                             // Dynamic Warp Execution, when configured
  std::unique_ptr<DynWarp> dyn_;
  Launch launch_;
  Limits limits_;
  ProgressCallback progress_cb_;
  std::exception_ptr error_;
  bool running_ = false;
  bool waited_ = false;  // run() waits on launch_done_ev_ (called from a thread process)
  bool broken_ = false;
  sc_core::sc_event start_ev_;
  sc_core::sc_event monitor_ev_;
  sc_core::sc_event power_ev_;
  sc_core::sc_event dyn_ev_;
  sc_core::sc_event launch_done_ev_;
};

// Totals over cache instances: <g>.accesses ... writebacks as sums over
// `source` (e.g. "gpu.sm[*].l1d.") and their read hit rate; `level` names them
// in descriptions ("l1d", "l2").
void register_cache_totals(const stats::Group& g, const std::string& level, const std::string& source);
// The summary line of such totals under `prefix` ("gpu.l2_total."), if present.
void summarize_cache_totals(const stats::Registry& r, const stats::Values& v, const std::string& prefix,
                            const std::string& label, const SummaryLine& line);

}  // namespace simtlm::platforms
