// Platform: CTA dispatch through the placement policy, launch driving, the
// monitor (watchdog, limits, progress) and the deadlock report. Statistics
// and the summary are in platform_stats.cpp, traces in traces.cpp.
#include "platforms/common/platform.h"
#include "platforms/common/platform_dyn.h"

#include <algorithm>
#include <sstream>

#include "models/power/energy_account.h"
#include "models/sched/daws.h"
#include "platforms/common/l1d_trace.h"
#include "platforms/common/power_trace.h"
#include "platforms/common/traces.h"
#include "simtlm/error.h"

namespace simtlm::platforms {

using models::Sm;

// The placement policy's view of the launch (PlacementTarget).
class Platform::Dispatch final : public PlacementTarget {
 public:
  explicit Dispatch(Platform& p) : p_(p) {}
  unsigned num_sms() const override { return p_.num_sms(); }
  uint64_t waiting() const override { return p_.launch_.total_ctas - p_.launch_.next_cta; }
  uint64_t next_cta() const override { return p_.launch_.next_cta; }
  bool can_admit(unsigned sm) override { return p_.sms_.at(sm)->can_admit(p_.launch_.shape); }
  void place(unsigned sm) override { p_.place(sm); }
  const models::Sm& sm(unsigned i) const override { return *p_.sms_.at(i); }

 private:
  Platform& p_;
};

Platform::Platform(const sc_core::sc_module_name& name, const Config& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      core_clock_(models::period_from_mhz(cfg.f64("gpu.clocks.core_mhz"))),
      placement_(make_cta_placement(cfg.str("gpu.cta_placement"))),
      registry_(std::make_shared<stats::Registry>()) {
  limits_.watchdog_cycles = cfg_.u64("sim.watchdog_cycles");
  limits_.max_cycles = cfg_.u64("sim.max_cycles");
  limits_.max_instructions = cfg_.u64("sim.max_instructions");
  limits_.livelock_hint_cycles = cfg_.u64("sim.livelock_hint_cycles");
}

Platform::~Platform() = default;

Sm& Platform::add_sm(std::unique_ptr<Sm> sm) {
  sms_.push_back(std::move(sm));
  return *sms_.back();
}

void Platform::finish_construction() {
  if (sms_.empty()) throw Error(ErrorKind::Internal, std::string(name()) + ": a platform without SMs");
  const unsigned n = num_sms();
  launch_max_ctas_.assign(n, 0);
  launch_max_warps_.assign(n, 0);
  for (auto& sm : sms_) {
    sm->set_cta_done_callback([this](Sm& s, const functional::LaunchContext&, uint64_t cta) { cta_done(s, cta); });
    // CTA switching (FineReg) frees room without a completion.
    sm->set_room_callback([this](Sm&) {
      if (running_) dispatch();
    });
    sm->set_waiting_query([this](const Sm&) { return running_ && launch_.next_cta < launch_.total_ctas; });
    sm->set_fault_callback([this](Sm&, std::exception_ptr e) { fail(e); });
  }
  build_dyn_warp_execution();
  register_stats();
  recorder_ = std::make_unique<stats::KernelRecorder>(*registry_);
  traces_ = std::make_unique<TraceWriter>(cfg_, n, core_clock_.period());
  if (const std::string l1d_file = cfg_.str("sim.trace.l1d_file"); !l1d_file.empty()) {
    l1d_trace_ = std::make_unique<L1dTrace>(l1d_file, sms_.front()->params().l1d, n);
    for (unsigned i = 0; i < n; ++i) {
      if (models::Cache* c = sms_[i]->l1d()) l1d_trace_->attach(*c, i);
    }
  }
  if (cfg_.boolean("gpu.power.enabled")) {
    energy_ = std::make_unique<power::EnergyAccount>(cfg_, *registry_, name(), n, cfg_.f64("gpu.clocks.core_mhz"));
    const std::string power_file = cfg_.str("sim.trace.power_file");
    if (!power_file.empty() || !cfg_.str("sim.trace.timeline_file").empty()) {
      power_trace_ = std::make_unique<PowerTrace>(*energy_, *registry_, power_file,
                                                  cfg_.u64("gpu.power.trace_interval_cycles"), *traces_);
    }
  }

  // Registered after every child module's processes (still during the
  // builder's constructor, so the platform is their parent), as before the
  // machinery was shared: the scheduler's process order stays the same.
  SC_METHOD(start_method);
  sensitive << start_ev_;
  dont_initialize();
  SC_METHOD(monitor_method);
  sensitive << monitor_ev_;
  dont_initialize();
  if (power_trace_) {
    SC_METHOD(power_method);
    sensitive << power_ev_;
    dont_initialize();
  }
  if (dyn_) {
    SC_METHOD(dyn_method);
    sensitive << dyn_ev_;
    dont_initialize();
  }
}

void Platform::set_cta_placement(std::unique_ptr<CtaPlacement> placement) {
  if (running_) throw Error(ErrorKind::Usage, "the CTA placement cannot change during a launch");
  if (!placement) throw Error(ErrorKind::Internal, "set_cta_placement(nullptr)");
  placement_ = std::move(placement);
}

// ---------------------------------------------------------------- launches

uint64_t Platform::warp_instructions_now() const {
  uint64_t sum = extra_warp_instructions();
  for (const auto& sm : sms_) sum += sm->progress();
  return sum;
}

uint64_t Platform::offchip_accesses_now() const {
  uint64_t sum = extra_offchip_accesses();
  for (const auto& sm : sms_) sum += sm->stats().offchip_accesses;
  return sum;
}

uint64_t Platform::thread_instructions_now() const {
  uint64_t sum = extra_thread_instructions();
  for (const auto& sm : sms_) sum += sm->stats().thread_instructions;
  return sum;
}

namespace {

// How run() advances the simulation for its caller: drive it (sc_main and other
// code outside the simulation), wait in it (a thread process), or neither.
enum class Caller { Outside, Thread, Method };

Caller caller_kind() {
  const sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
  if (!h.valid() || sc_core::sc_get_status() != sc_core::SC_RUNNING) return Caller::Outside;
  const sc_core::sc_curr_proc_kind kind = h.proc_kind();
  return kind == sc_core::SC_THREAD_PROC_ || kind == sc_core::SC_CTHREAD_PROC_ ? Caller::Thread : Caller::Method;
}

}  // namespace

void Platform::stop_launch() {
  if (waited_) {
    launch_done_ev_.notify(sc_core::SC_ZERO_TIME);
  } else {
    sc_core::sc_pause();
  }
}

void Platform::fail(std::exception_ptr e) {
  if (!error_) error_ = e;
  stop_launch();
}

LaunchFigures Platform::run(functional::LaunchContext& ctx) {
  const Caller caller = caller_kind();
  if (caller == Caller::Method) {
    throw Error(ErrorKind::Usage, std::string("launch of kernel '") + ctx.kernel().name + "' from the SC_METHOD '" +
                                      sc_core::sc_get_current_process_handle().name() +
                                      "': a launch waits for the kernel to finish, so call it from an SC_THREAD");
  }
  if (running_) {
    throw Error(ErrorKind::Usage, std::string("launch of kernel '") + ctx.kernel().name + "' while kernel '" +
                                      launch_.kernel + "' is still running: launches are synchronous, one at a time");
  }
  if (broken_) {
    throw Error(ErrorKind::Launch,
                "the timing device stopped at an earlier fault or deadlock; start a new process to launch again");
  }
  const models::CtaShape shape = models::CtaShape::of(ctx);
  if (sms_.front()->max_resident_ctas(shape) == 0) {
    std::ostringstream os;
    os << "kernel '" << ctx.kernel().name << "': one CTA (" << shape.threads << " threads, "
       << shape.regs_per_thread << " registers per thread, " << shape.shared_bytes
       << " bytes of shared memory) does not fit on an SM (gpu.sm.max_threads " << cfg_.u32("gpu.sm.max_threads")
       << ", gpu.sm.registers " << cfg_.u32("gpu.sm.registers") << ", gpu.sm.shared_memory_bytes "
       << cfg_.u64("gpu.sm.shared_memory_bytes") << ")";
    throw Error(ErrorKind::Launch, os.str());
  }
  launch_ = Launch();
  launch_.ctx = &ctx;
  launch_.shape = shape;
  launch_.kernel = ctx.kernel().name;
  launch_.total_ctas = ctx.num_ctas();
  launch_begins(ctx);
  placement_->begin_launch(num_sms());
  error_ = nullptr;
  std::fill(launch_max_ctas_.begin(), launch_max_ctas_.end(), 0);
  std::fill(launch_max_warps_.begin(), launch_max_warps_.end(), 0);

  launch_.start_cycle = core_clock_.now();
  launch_.end_cycle = launch_.start_cycle;
  launch_.last_progress_cycle = launch_.start_cycle;
  launch_.last_report_cycle = launch_.start_cycle;
  launch_.effects = visible_effects_now();
  launch_.last_effect_cycle = launch_.start_cycle;
  launch_.start_instructions = warp_instructions_now();
  // From the SMs as built, not gpu.sm.schedulers: a platform variant may give
  // its SMs more schedulers (vws slices) or add units (the SPU's IUs).
  limits_.issue_per_cycle = extra_issue_per_cycle();
  for (const auto& s : sms_) limits_.issue_per_cycle += uint64_t{s->params().schedulers} * s->params().max_issue_per_warp;
  const uint64_t threads_before = thread_instructions_now();
  const uint64_t offchip_before = offchip_accesses_now();

  refresh_stats();
  const std::size_t window = recorder_->begin(launch_.kernel);
  ++totals_.launches;
  traces_->kernel_begin(launch_.kernel, launch_.start_cycle);
  if (power_trace_) {
    power_trace_->begin(launch_.kernel, launch_.start_cycle);
    power_ev_.notify(core_clock_.period() * static_cast<double>(power_trace_->interval()));
  }

  if (dyn_) begin_dyn_launch();
  running_ = true;
  waited_ = caller == Caller::Thread;
  start_ev_.notify(sc_core::SC_ZERO_TIME);
  if (monitor_needed()) {
    const uint64_t first =
        cycles_to_next_check(launch_.start_cycle, launch_.start_cycle, launch_.start_instructions);
    monitor_ev_.notify(core_clock_.period() * static_cast<double>(first));
  }
  if (waited_) {
    sc_core::wait(launch_done_ev_);
  } else {
    sc_core::sc_start();
  }
  running_ = false;
  waited_ = false;
  monitor_ev_.cancel();
  power_ev_.cancel();
  dyn_ev_.cancel();

  if (!error_ && (launch_.done_ctas < launch_.total_ctas || launch_work_pending())) {
    // No event left anywhere and nothing for the monitor to check (watchdog,
    // limits and progress display all off): nothing can move.
    const uint64_t now = core_clock_.now();
    error_ = std::make_exception_ptr(
        Error(ErrorKind::Deadlock, deadlock_report(now, now - launch_.last_progress_cycle)));
  }
  if (error_) {
    broken_ = true;
    launch_.end_cycle = core_clock_.now();
  }
  totals_.cycles += launch_.end_cycle - launch_.start_cycle;
  totals_.ctas += launch_.done_ctas;
  refresh_stats();
  recorder_->end(window);
  traces_->kernel_end(launch_.kernel, launch_.end_cycle);
  if (power_trace_ && !error_) power_trace_->end(launch_.end_cycle);
  launch_.ctx = nullptr;
  if (error_) std::rethrow_exception(error_);

  LaunchFigures f;
  f.cycles = launch_.end_cycle - launch_.start_cycle;
  f.ctas = launch_.done_ctas;
  f.warp_instructions = warp_instructions_now() - launch_.start_instructions;
  f.thread_instructions = thread_instructions_now() - threads_before;
  f.offchip_accesses = offchip_accesses_now() - offchip_before;
  f.stats_json = [registry = registry_, values = recorder_->window(window).values] {
    return registry->dump_json(values, false);
  };
  return f;
}

void Platform::start_method() {
  if (running_) dispatch();
}

void Platform::dispatch() {
  // A policy's error (or an SM refusing a CTA) ends the launch like a device
  // fault: run() rethrows it to the caller instead of it escaping the SC_METHOD.
  try {
    Dispatch target(*this);
    placement_->place(target);
  } catch (...) {
    fail(std::current_exception());
  }
}

void Platform::place(unsigned i) {
  if (launch_.next_cta >= launch_.total_ctas) {
    throw Error(ErrorKind::Internal, "CTA placement placed a CTA with none waiting");
  }
  Sm& sm = *sms_.at(i);
  if (!sm.can_admit(launch_.shape)) {
    throw Error(ErrorKind::Internal,
                "CTA placement placed a CTA on " + std::string(sm.name()) + ", which cannot admit it");
  }
  const uint64_t cta = launch_.next_cta++;
  sm.launch_cta(*launch_.ctx, cta);
  const uint64_t warps = uint64_t(sm.busy_ctas()) * launch_.shape.warps;
  launch_max_ctas_[i] = std::max<uint64_t>(launch_max_ctas_[i], sm.busy_ctas());
  launch_max_warps_[i] = std::max<uint64_t>(launch_max_warps_[i], warps);
  traces_->cta_begin(i, cta, core_clock_.now() + 1, sm.busy_ctas(), warps);
}

void Platform::cta_done(Sm& sm, uint64_t cta) {
  if (!running_) return;
  if (claim_cta_done(sm, cta)) return;
  ++launch_.done_ctas;
  const uint64_t now = core_clock_.now();
  launch_.last_progress_cycle = std::max(launch_.last_progress_cycle, now);
  traces_->cta_end(sm.id(), cta, now, sm.busy_ctas(), uint64_t(sm.busy_ctas()) * launch_.shape.warps);
  if (launch_.done_ctas == launch_.total_ctas && !launch_work_pending()) {
    launch_.end_cycle = now;
    stop_launch();
    return;
  }
  dispatch();
}

void Platform::launch_work_done() {
  if (!running_ || error_ || launch_.done_ctas != launch_.total_ctas || launch_work_pending()) return;
  launch_.end_cycle = core_clock_.now();
  stop_launch();
}

std::string Platform::limit_message(const char* key, uint64_t limit, const char* what, const std::string& hint) const {
  return "kernel '" + launch_.kernel + "' stopped at " + key + " = " + std::to_string(limit) + " " + what + " (" +
         std::to_string(core_clock_.now() - launch_.start_cycle) + " core cycles and " +
         std::to_string(warp_instructions_now() - launch_.start_instructions) + " warp instructions into the launch; " +
         std::to_string(launch_.done_ctas) + " of " + std::to_string(launch_.total_ctas) + " CTAs completed)" +
         (hint.empty() ? "" : "; " + hint);
}

uint64_t Platform::visible_effects_now() const {
  uint64_t n = launch_.done_ctas;
  for (const auto& sm : sms_) n += sm->visible_effects();
  return n;
}

std::string Platform::livelock_hint(uint64_t now, uint64_t progress) {
  const uint64_t effects = visible_effects_now();
  if (effects != launch_.effects) {
    launch_.effects = effects;
    launch_.last_effect_cycle = now;
  }
  const uint64_t quiet = now - launch_.last_effect_cycle;
  const uint64_t window = limits_.livelock_hint_cycles;
  // Issuing recently (else it is the watchdog's deadlock), yet quiet for the window.
  if (window == 0 || quiet < window || now - progress >= window) return "";
  return "possible livelock: warps issue but no global store, atomic or CTA completion for " +
         std::to_string(quiet) + " core cycles (sim.livelock_hint_cycles = " + std::to_string(window) +
         "; a warp spinning on a flag nothing will set?)";
}

void Platform::monitor_method() {
  if (!running_ || error_) return;
  const uint64_t now = core_clock_.now();
  const uint64_t instructions = warp_instructions_now();
  uint64_t progress = std::max(launch_.last_progress_cycle, launch_.start_cycle);
  for (const auto& sm : sms_) progress = std::max(progress, sm->last_issue_cycle());
  progress = std::max(progress, extra_last_issue_cycle());
  launch_.last_progress_cycle = progress;
  const Limits& l = limits_;
  if (l.watchdog_cycles != 0 && now - progress >= l.watchdog_cycles) {
    fail(std::make_exception_ptr(Error(ErrorKind::Deadlock, deadlock_report(now, now - progress))));
    return;
  }
  const std::string hint = livelock_hint(now, progress);
  if (l.max_cycles != 0 && now - launch_.start_cycle >= l.max_cycles) {
    fail(std::make_exception_ptr(
        Error(ErrorKind::Launch, limit_message("sim.max_cycles", l.max_cycles, "core cycles", hint))));
    return;
  }
  if (l.max_instructions != 0 && instructions - launch_.start_instructions >= l.max_instructions) {
    fail(std::make_exception_ptr(Error(
        ErrorKind::Launch, limit_message("sim.max_instructions", l.max_instructions, "warp instructions", hint))));
    return;
  }
  if (progress_cb_ && now - launch_.last_report_cycle >= l.progress_every) {
    launch_.last_report_cycle = now;
    RunProgress p;
    p.kernel = launch_.kernel;
    p.cycles = now - launch_.start_cycle;
    p.warp_instructions = instructions - launch_.start_instructions;
    p.ctas_done = launch_.done_ctas;
    p.ctas_total = launch_.total_ctas;
    p.hint = hint;
    progress_cb_(p);
  }
  monitor_ev_.notify(core_clock_.period() * static_cast<double>(cycles_to_next_check(now, progress, instructions)));
}

uint64_t Platform::cycles_to_next_check(uint64_t now, uint64_t progress, uint64_t instructions) const {
  const Limits& l = limits_;
  uint64_t next = l.monitor_every;
  if (l.watchdog_cycles != 0) next = std::min(next, progress + l.watchdog_cycles - now);
  if (l.max_cycles != 0) next = std::min(next, launch_.start_cycle + l.max_cycles - now);
  if (l.max_instructions != 0) {
    // In k cycles at most k * issue_per_cycle instructions issue: look again
    // before the bound can be passed, every cycle once it is that close.
    const uint64_t left = l.max_instructions - (instructions - launch_.start_instructions);
    next = std::min(next, left / std::max<uint64_t>(l.issue_per_cycle, 1));
  }
  return std::max<uint64_t>(next, 1);
}

void Platform::power_method() {
  if (!running_ || error_) return;
  refresh_stats();
  power_trace_->sample(core_clock_.now());
  power_ev_.notify(core_clock_.period() * static_cast<double>(power_trace_->interval()));
}

std::string Platform::deadlock_report(uint64_t now, uint64_t idle_for) const {
  std::ostringstream os;
  os << "deadlock in kernel '" << launch_.kernel << "': no warp instruction issued and no CTA completed for "
     << idle_for << " core cycles (sim.watchdog_cycles = " << limits_.watchdog_cycles << ") at cycle "
     << (now - launch_.start_cycle) << " of the launch; " << launch_.done_ctas << " of " << launch_.total_ctas
     << " CTAs completed, " << launch_.next_cta << " dispatched";
  for (const auto& sm : sms_) {
    if (!sm->busy()) continue;
    os << "\n" << sm->name() << ": " << sm->busy_ctas() << " CTA(s)\n" << sm->describe_stall();
  }
  os << describe_extra_stall();
  return os.str();
}

void Platform::finish_traces() {
  traces_->write();
  if (l1d_trace_) l1d_trace_->finish();
  // Detected DAWS's learned footprints, all SMs merged, rewritten after each
  // launch (gpu.sm.scheduler.daws.profile_out; models/sched/daws_profile.h).
  if (const std::string out = cfg_.str("gpu.sm.scheduler.daws.profile_out"); !out.empty()) {
    models::sched::DawsProfile all;
    for (auto& sm : sms_) {
      if (auto* daws = dynamic_cast<models::sched::DawsPolicy*>(&sm->policy())) all.merge(daws->profile());
    }
    all.write(out);
  }
}

}  // namespace simtlm::platforms
