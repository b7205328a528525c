// The baseline GPU top level (Accellera TLM example style: the platform owns
// every child module and binds every socket in one place, the constructor).
//
//   sm[i] (with its L1D) ──▶ noc (request network) ──▶ l2[s] ──▶ dram_mux[c] ──▶ dram[c]
//   sm[i] ◀── noc (reply network) ◀── l2[s] ◀── dram_mux[c] ◀── dram[c]
//
// Built from the configuration tree (gpu.*): gpu.num_sms SMs, one crossbar
// (request and reply networks), channels x sub_partitions_per_channel L2
// slices (address -> slice by gpu.l2.slice_hash over gpu.l2.interleave_bytes;
// slice s belongs to channel s / sub_partitions_per_channel), one DramChannel
// per channel behind a MemMux joining its sub-partitions. With gpu.l2.enabled
// = false the crossbar's memory ports are the DRAM channels themselves.
// Clock domains: SMs on core_mhz, crossbar on noc_mhz, L2 on l2_mhz, DRAM on
// dram_mhz. Timing payloads carry no data: the functional model reads and
// writes the device's GlobalMemory at issue.
//
// run() executes one launch: the CTA dispatcher places CTAs on SMs
// round-robin as their allocators admit them (Sm::can_admit), the simulation
// runs until the last CTA completes, and the per-kernel statistics window is
// recorded. Called from sc_main (or any code outside the simulation), run()
// drives the simulation itself: sc_start() until the launch pauses it
// (sc_pause). Called from a SystemC thread process of a running simulation (a
// CPU model of a virtual platform), run() waits on the launch's completion
// event instead, so the rest of the platform runs on meanwhile and simulated
// time passes for the caller; an SC_METHOD cannot wait and gets Error(Usage).
// A monitor process wakes every few thousand core cycles while a kernel
// runs: it implements the watchdog (sim.watchdog_cycles without an issued
// instruction or a completed CTA -> Error(Deadlock) with every SM's stall
// report), sim.max_cycles / sim.max_instructions and the progress callback. Several launches run one after the other on the same
// platform (SystemC elaborates once per process).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "functional/executor.h"
#include "models/cache/cache.h"
#include "models/common/clock_domain.h"
#include "models/dram/dram_channel.h"
#include "models/noc/crossbar.h"
#include "models/sm/mem_mux.h"
#include "models/sm/sm.h"
#include "simtlm/config.h"
#include "simtlm/stats.h"

namespace simtlm::platforms {

class TraceWriter;

// What the monitor reports to a progress display.
struct RunProgress {
  std::string kernel;
  uint64_t cycles = 0;             // core cycles since the launch started
  uint64_t warp_instructions = 0;  // since the launch started
  uint64_t ctas_done = 0;
  uint64_t ctas_total = 0;
};

struct LaunchFigures {
  uint64_t cycles = 0;
  uint64_t ctas = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  // Makes this launch's statistics window as JSON text (values only); holds
  // the window's values and the registry, so it can run at any later time.
  std::function<std::string()> stats_json;
};

class GpuPlatform : public sc_core::sc_module {
 public:
  using ProgressCallback = std::function<void(const RunProgress&)>;

  // Throws Error(Config) for a configuration the platform cannot build.
  GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg);
  ~GpuPlatform() override;

  // Runs every CTA of `ctx` to completion. Throws the device fault raised by
  // an SM, Error(Deadlock) from the watchdog, Error(Launch) when a CTA can
  // never fit on an SM or a sim.max_* limit stops the launch.
  LaunchFigures run(functional::LaunchContext& ctx);

  void set_progress_callback(ProgressCallback cb, uint64_t every_cycles = 20000) {
    progress_cb_ = std::move(cb);
    progress_every_ = every_cycles;
  }

  const Config& config() const { return cfg_; }
  unsigned num_sms() const { return static_cast<unsigned>(sms_.size()); }
  models::Sm& sm(unsigned i) { return *sms_.at(i); }
  models::Cache& l2_slice(unsigned s) { return *l2_.at(s); }
  unsigned num_l2_slices() const { return static_cast<unsigned>(l2_.size()); }
  models::DramChannel& dram(unsigned c) { return *dram_.at(c); }
  unsigned num_dram_channels() const { return static_cast<unsigned>(dram_.size()); }
  models::Crossbar& noc() { return *noc_; }
  // Memory-side port (L2 slice, or DRAM channel without an L2) of an address.
  unsigned memory_port_of(uint64_t addr) const { return slice_map_(addr); }
  const models::Clock& core_clock() const { return core_clock_; }

  // Statistics: every module's counters and the derived figures; per-launch
  // windows and the run total.
  stats::Registry& registry() { return *registry_; }
  const stats::KernelRecorder& recorder() const { return *recorder_; }
  // Keep the statistics windows of the last `n` launches only (0: all).
  void keep_kernel_windows(size_t n) { recorder_->keep_last(n); }
  // Brings time-dependent counters up to the current simulation time.
  void refresh_stats();
  // {"format", "meta", "kernels": [...], "total": {...}} (deterministic).
  std::string stats_json() const;
  // Readable summary of a window (the key figures, not every counter).
  std::string summary(const stats::Values& values) const;
  std::string total_summary() const;
  // Writes the trace files named by sim.trace.* (no-op when none).
  void finish_traces();

 private:
  SC_HAS_PROCESS(GpuPlatform);

  void build_memory_side();
  void bind_all();
  void register_stats();
  void start_method();
  void monitor_method();
  void dispatch();
  void cta_done(models::Sm& sm, uint64_t cta);
  uint64_t warp_instructions_now() const;
  // Ends the current launch at the end of this delta cycle: pauses the
  // simulation run() started, or wakes the thread that waits in run().
  void stop_launch();
  // Whether the monitor has anything to check (otherwise it is not armed, so
  // that a launch in which nothing can move ends by starvation).
  bool monitor_needed() const {
    return watchdog_cycles_ != 0 || max_cycles_ != 0 || max_instructions_ != 0 || progress_cb_ != nullptr;
  }
  std::string deadlock_report(uint64_t now, uint64_t idle_for) const;

  Config cfg_;
  models::Clock core_clock_;
  std::vector<std::unique_ptr<models::Sm>> sms_;
  std::unique_ptr<models::Crossbar> noc_;
  std::vector<std::unique_ptr<models::Cache>> l2_;
  std::vector<std::unique_ptr<models::MemMux>> dram_mux_;
  std::vector<std::unique_ptr<models::DramChannel>> dram_;
  models::AddressMap slice_map_;
  unsigned sub_partitions_ = 1;
  bool l2_enabled_ = true;

  std::shared_ptr<stats::Registry> registry_;  // shared with launches' deferred JSON (LaunchFigures)
  std::unique_ptr<stats::KernelRecorder> recorder_;
  uint64_t cycles_ = 0;                    // gpu.cycles (core cycles simulated in launches)
  uint64_t launches_ = 0;                  // gpu.launches
  uint64_t ctas_ = 0;                      // gpu.ctas
  std::vector<uint64_t> launch_max_ctas_;  // per SM, current launch (level)
  std::vector<uint64_t> launch_max_warps_;
  std::unique_ptr<TraceWriter> traces_;

  // Current launch.
  functional::LaunchContext* ctx_ = nullptr;
  models::CtaShape shape_;
  std::string kernel_name_;
  uint64_t total_ctas_ = 0;
  uint64_t next_cta_ = 0;
  uint64_t done_ctas_ = 0;
  unsigned rr_ = 0;
  bool running_ = false;
  bool waited_ = false;  // run() waits on launch_done_ev_ (called from a thread process)
  uint64_t start_cycle_ = 0;
  uint64_t end_cycle_ = 0;
  uint64_t start_instructions_ = 0;
  uint64_t last_progress_cycle_ = 0;
  uint64_t last_progress_count_ = 0;
  uint64_t last_report_cycle_ = 0;
  std::exception_ptr error_;
  bool broken_ = false;

  uint64_t watchdog_cycles_ = 0;
  uint64_t max_cycles_ = 0;
  uint64_t max_instructions_ = 0;
  uint64_t monitor_every_ = 0;
  ProgressCallback progress_cb_;
  uint64_t progress_every_ = 20000;

  sc_core::sc_event start_ev_;
  sc_core::sc_event monitor_ev_;
  sc_core::sc_event launch_done_ev_;
};

}  // namespace simtlm::platforms
