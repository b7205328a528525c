// GpuPlatform: construction from the configuration, socket binding, the CTA
// dispatcher, launch execution and the watchdog. Statistics registration and
// the summary are in gpu_stats.cpp, traces in traces.cpp.
#include "platforms/gpu/gpu_platform.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "models/noc/address_map.h"
#include "platforms/gpu/traces.h"
#include "simtlm/error.h"

namespace simtlm::platforms {

using models::Cache;
using models::CacheParams;
using models::Crossbar;
using models::DramChannel;
using models::DramParams;
using models::MemMux;
using models::Sm;
using models::XbarParams;

namespace {

const Config& checked(const Config& cfg) {
  cfg.validate();
  if (cfg.str("sim.platform") != "gpu") {
    throw Error(ErrorKind::Config, "sim.platform '" + cfg.str("sim.platform") +
                                       "' is not built yet; the timing backend implements 'gpu'");
  }
  return cfg;
}

template <typename T>
T parse_or_throw(bool (*parse)(const std::string&, T&), const Config& cfg, const std::string& key) {
  T out{};
  if (!parse(cfg.str(key), out)) {
    throw Error(ErrorKind::Config, key + " '" + cfg.str(key) + "' is not supported by the platform");
  }
  return out;
}

CacheParams l2_params(const Config& cfg, unsigned slices) {
  CacheParams p;
  p.sets = cfg.u32("gpu.l2.sets");
  p.ways = cfg.u32("gpu.l2.ways");
  p.line_bytes = cfg.u32("gpu.l2.line_bytes");
  p.sector_bytes = cfg.u32("gpu.l2.sector_bytes");
  p.mshrs = cfg.u32("gpu.l2.mshrs");
  p.mshr_merge_limit = cfg.u32("gpu.l2.mshr_merge");
  p.hit_latency = cfg.u32("gpu.l2.hit_latency");
  p.request_queue = cfg.u32("gpu.l2.request_queue_entries");
  p.miss_queue = cfg.u32("gpu.l2.miss_queue_entries");
  p.response_queue = cfg.u32("gpu.l2.response_queue_entries");
  p.data_port_bytes = cfg.u32("gpu.l2.data_port_bytes");
  p.write_policy = parse_or_throw(&models::parse_write_policy, cfg, "gpu.l2.write_policy");
  p.write_allocate = cfg.boolean("gpu.l2.write_allocate");
  p.allocate_on = parse_or_throw(&models::parse_allocate_policy, cfg, "gpu.l2.allocate_on");
  p.replacement = parse_or_throw(&models::parse_replacement_policy, cfg, "gpu.l2.replacement");
  // A slice sees every slices-th interleave chunk; an XOR-folded set index
  // spreads those lines over all sets (a linear index would use a fraction).
  p.set_index = models::SetIndex::Xor;
  p.index_divisor = 1;
  (void)slices;
  p.clock_period = models::period_from_mhz(cfg.f64("gpu.clocks.l2_mhz"));
  return p;
}

DramParams dram_params(const Config& cfg, uint64_t channel_interleave) {
  DramParams p;
  p.banks = cfg.u32("gpu.dram.banks");
  p.bank_groups = cfg.u32("gpu.dram.bank_groups");
  p.row_bytes = cfg.u32("gpu.dram.row_bytes");
  // gpu.dram.row_bytes spans the channel's whole bus: all chips side by side.
  p.bus_width_bytes = cfg.u32("gpu.dram.bus_width_bytes") * cfg.u32("gpu.dram.chips_per_channel");
  p.burst_length = cfg.u32("gpu.dram.burst_length");
  p.data_rate = cfg.u32("gpu.dram.data_rate");
  p.queue_size = cfg.u32("gpu.dram.queue_size");
  const std::string sched = cfg.str("gpu.dram.scheduler");
  if (sched == "frfcfs") {
    p.scheduler = models::DramScheduler::FrFcfs;
  } else if (!models::parse_dram_scheduler(sched, p.scheduler)) {
    throw Error(ErrorKind::Config, "gpu.dram.scheduler '" + sched + "' is not supported by the DRAM channel");
  }
  p.page_policy = parse_or_throw(&models::parse_page_policy, cfg, "gpu.dram.page_policy");
  p.return_queue_size = cfg.u32("gpu.dram.return_queue_size");
  models::DramTiming& t = p.timing;
  t.tCL = cfg.u32("gpu.dram.timing.tCL");
  t.tWL = cfg.u32("gpu.dram.timing.tWL");
  t.tRCD = cfg.u32("gpu.dram.timing.tRCD");
  t.tRP = cfg.u32("gpu.dram.timing.tRP");
  t.tRAS = cfg.u32("gpu.dram.timing.tRAS");
  t.tRC = cfg.u32("gpu.dram.timing.tRC");
  t.tRRD = cfg.u32("gpu.dram.timing.tRRD");
  t.tCCD = cfg.u32("gpu.dram.timing.tCCD");
  t.tCCDL = cfg.u32("gpu.dram.timing.tCCDL");
  t.tWR = cfg.u32("gpu.dram.timing.tWR");
  t.tWTR = cfg.u32("gpu.dram.timing.tWTR");
  t.tCDLR = cfg.u32("gpu.dram.timing.tCDLR");
  t.tRTP = cfg.u32("gpu.dram.timing.tRTP");
  t.tRTPL = cfg.u32("gpu.dram.timing.tRTPL");
  t.tRTW = cfg.u32("gpu.dram.timing.tRTW");
  p.bank_interleave_bytes = cfg.u32("gpu.dram.bank_interleave_bytes");
  p.low_bank_bits = cfg.u32("gpu.dram.low_bank_bits");
  p.bank_xor = cfg.boolean("gpu.dram.bank_xor");
  p.channels = cfg.u32("gpu.dram.channels");
  p.channel_interleave_bytes = static_cast<uint32_t>(channel_interleave);
  // gpu.dram.fixed_latency is in L2 cycles; the channel counts DRAM cycles.
  const double l2_mhz = cfg.f64("gpu.clocks.l2_mhz");
  const double dram_mhz = cfg.f64("gpu.clocks.dram_mhz");
  p.frontend_latency = static_cast<uint32_t>(std::llround(cfg.u32("gpu.dram.fixed_latency") * dram_mhz / l2_mhz));
  p.backend_latency = 0;
  p.clock_period = models::period_from_mhz(dram_mhz);
  return p;
}

XbarParams noc_params(const Config& cfg, unsigned requesters, unsigned memory_ports) {
  XbarParams p;
  p.ports_in = requesters;
  p.ports_out = memory_ports;
  p.latency = cfg.u32("gpu.noc.latency");
  p.flit_bytes = cfg.u32("gpu.noc.flit_bytes");
  p.header_bytes = cfg.u32("gpu.noc.header_bytes");
  p.flits_per_cycle = cfg.u32("gpu.noc.port_bandwidth_flits");
  p.input_buffer_flits = cfg.u32("gpu.noc.buffer_flits");
  p.output_buffer_flits = cfg.u32("gpu.noc.buffer_flits");
  if (cfg.str("gpu.noc.topology") == "ideal") {
    // Fixed latency, bandwidth far above what any port can offer.
    p.flits_per_cycle = 64;
    p.input_buffer_flits = 1u << 20;
    p.output_buffer_flits = 1u << 20;
  }
  p.clock_period = models::period_from_mhz(cfg.f64("gpu.clocks.noc_mhz"));
  return p;
}

}  // namespace

GpuPlatform::GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg)
    : sc_core::sc_module(name),
      cfg_(checked(cfg)),
      core_clock_(models::period_from_mhz(cfg.f64("gpu.clocks.core_mhz"))),
      registry_(std::make_shared<stats::Registry>()) {
  const unsigned n = cfg_.u32("gpu.num_sms");
  for (unsigned i = 0; i < n; ++i) {
    const std::string sm_name = "sm[" + std::to_string(i) + "]";
    sms_.push_back(std::make_unique<Sm>(sm_name.c_str(), models::sm_params_from_config(cfg_, i)));
  }
  build_memory_side();
  bind_all();

  watchdog_cycles_ = cfg_.u64("sim.watchdog_cycles");
  max_cycles_ = cfg_.u64("sim.max_cycles");
  max_instructions_ = cfg_.u64("sim.max_instructions");
  monitor_every_ = 4096;
  launch_max_ctas_.assign(n, 0);
  launch_max_warps_.assign(n, 0);

  for (auto& sm : sms_) {
    sm->set_cta_done_callback(
        [this](Sm& s, const functional::LaunchContext&, uint64_t cta) { cta_done(s, cta); });
    sm->set_fault_callback([this](Sm&, std::exception_ptr e) {
      if (!error_) error_ = e;
      stop_launch();
    });
  }
  register_stats();
  recorder_ = std::make_unique<stats::KernelRecorder>(*registry_);
  traces_ = std::make_unique<TraceWriter>(cfg_, n, core_clock_.period());

  SC_METHOD(start_method);
  sensitive << start_ev_;
  dont_initialize();
  SC_METHOD(monitor_method);
  sensitive << monitor_ev_;
  dont_initialize();
}

GpuPlatform::~GpuPlatform() = default;

void GpuPlatform::build_memory_side() {
  const unsigned channels = cfg_.u32("gpu.dram.channels");
  l2_enabled_ = cfg_.boolean("gpu.l2.enabled");
  sub_partitions_ = l2_enabled_ ? cfg_.u32("gpu.l2.sub_partitions_per_channel") : 1;
  const unsigned ports = channels * sub_partitions_;
  const uint64_t interleave = cfg_.u64("gpu.l2.interleave_bytes");
  slice_map_ = cfg_.str("gpu.l2.slice_hash") == "xor" ? models::xor_interleave(ports, interleave)
                                                       : models::linear_interleave(ports, interleave);
  const DramParams dp = dram_params(cfg_, interleave * sub_partitions_);
  for (unsigned c = 0; c < channels; ++c) {
    const std::string nm = "dram[" + std::to_string(c) + "]";
    dram_.push_back(std::make_unique<DramChannel>(nm.c_str(), dp));
  }
  if (l2_enabled_) {
    const CacheParams lp = l2_params(cfg_, ports);
    for (unsigned s = 0; s < ports; ++s) {
      const std::string nm = "l2[" + std::to_string(s) + "]";
      l2_.push_back(std::make_unique<Cache>(nm.c_str(), lp));
    }
    if (sub_partitions_ > 1) {
      for (unsigned c = 0; c < channels; ++c) {
        const std::string nm = "dram_mux[" + std::to_string(c) + "]";
        dram_mux_.push_back(std::make_unique<MemMux>(nm.c_str(), sub_partitions_));
      }
    }
  }
  const XbarParams xp = noc_params(cfg_, num_sms(), ports);
  noc_ = std::make_unique<Crossbar>("noc", xp, slice_map_);
}

// Every socket of the platform is bound here.
void GpuPlatform::bind_all() {
  for (unsigned i = 0; i < num_sms(); ++i) sms_[i]->mem_socket().bind(noc_->target_socket(i));
  if (!l2_enabled_) {
    for (unsigned c = 0; c < dram_.size(); ++c) noc_->initiator_socket(c).bind(dram_[c]->target_socket);
    return;
  }
  for (unsigned s = 0; s < l2_.size(); ++s) {
    noc_->initiator_socket(s).bind(l2_[s]->target_socket);
    const unsigned channel = s / sub_partitions_;
    if (dram_mux_.empty()) {
      l2_[s]->initiator_socket.bind(dram_[channel]->target_socket);
    } else {
      l2_[s]->initiator_socket.bind(dram_mux_[channel]->target_socket(s % sub_partitions_));
    }
  }
  for (unsigned c = 0; c < dram_mux_.size(); ++c) dram_mux_[c]->initiator_socket().bind(dram_[c]->target_socket);
}

// ---------------------------------------------------------------- launches

uint64_t GpuPlatform::warp_instructions_now() const {
  uint64_t sum = 0;
  for (const auto& sm : sms_) sum += sm->progress();
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

void GpuPlatform::stop_launch() {
  if (waited_) {
    launch_done_ev_.notify(sc_core::SC_ZERO_TIME);
  } else {
    sc_core::sc_pause();
  }
}

LaunchFigures GpuPlatform::run(functional::LaunchContext& ctx) {
  const Caller caller = caller_kind();
  if (caller == Caller::Method) {
    throw Error(ErrorKind::Usage, std::string("launch of kernel '") + ctx.kernel().name + "' from the SC_METHOD '" +
                                      sc_core::sc_get_current_process_handle().name() +
                                      "': a launch waits for the kernel to finish, so call it from an SC_THREAD");
  }
  if (running_) {
    throw Error(ErrorKind::Usage, std::string("launch of kernel '") + ctx.kernel().name + "' while kernel '" +
                                      kernel_name_ + "' is still running: launches are synchronous, one at a time");
  }
  if (broken_) {
    throw Error(ErrorKind::Launch,
                "the timing device stopped at an earlier fault or deadlock; start a new process to launch again");
  }
  shape_ = models::CtaShape::of(ctx);
  const uint32_t fit = sms_.front()->max_resident_ctas(shape_);
  if (fit == 0) {
    std::ostringstream os;
    os << "kernel '" << ctx.kernel().name << "': one CTA (" << shape_.threads << " threads, "
       << shape_.regs_per_thread << " registers per thread, " << shape_.shared_bytes
       << " bytes of shared memory) does not fit on an SM (gpu.sm.max_threads " << cfg_.u32("gpu.sm.max_threads")
       << ", gpu.sm.registers " << cfg_.u32("gpu.sm.registers") << ", gpu.sm.shared_memory_bytes "
       << cfg_.u64("gpu.sm.shared_memory_bytes") << ")";
    throw Error(ErrorKind::Launch, os.str());
  }
  ctx_ = &ctx;
  kernel_name_ = ctx.kernel().name;
  total_ctas_ = ctx.num_ctas();
  next_cta_ = 0;
  done_ctas_ = 0;
  rr_ = 0;
  error_ = nullptr;
  std::fill(launch_max_ctas_.begin(), launch_max_ctas_.end(), 0);
  std::fill(launch_max_warps_.begin(), launch_max_warps_.end(), 0);

  start_cycle_ = core_clock_.now();
  end_cycle_ = start_cycle_;
  last_progress_cycle_ = start_cycle_;
  last_report_cycle_ = start_cycle_;
  start_instructions_ = warp_instructions_now();
  last_progress_count_ = start_instructions_;
  uint64_t threads_before = 0;
  for (auto& sm : sms_) threads_before += sm->stats().thread_instructions;

  refresh_stats();
  const std::size_t window = recorder_->begin(kernel_name_);
  ++launches_;
  traces_->kernel_begin(kernel_name_, start_cycle_);

  running_ = true;
  waited_ = caller == Caller::Thread;
  start_ev_.notify(sc_core::SC_ZERO_TIME);
  if (monitor_needed()) {
    monitor_ev_.notify(core_clock_.period() * static_cast<double>(std::min<uint64_t>(
                                                  monitor_every_, watchdog_cycles_ ? watchdog_cycles_ : monitor_every_)));
  }
  if (waited_) {
    sc_core::wait(launch_done_ev_);
  } else {
    sc_core::sc_start();
  }
  running_ = false;
  waited_ = false;
  monitor_ev_.cancel();

  if (!error_ && done_ctas_ < total_ctas_) {
    // No event left anywhere and nothing for the monitor to check (watchdog,
    // limits and progress display all off): nothing can move.
    const uint64_t now = core_clock_.now();
    error_ = std::make_exception_ptr(Error(ErrorKind::Deadlock, deadlock_report(now, now - last_progress_cycle_)));
  }
  if (error_) {
    broken_ = true;
    end_cycle_ = core_clock_.now();
  }
  cycles_ += end_cycle_ - start_cycle_;
  ctas_ += done_ctas_;
  refresh_stats();
  recorder_->end(window);
  traces_->kernel_end(kernel_name_, end_cycle_);
  ctx_ = nullptr;
  if (error_) std::rethrow_exception(error_);

  LaunchFigures f;
  f.cycles = end_cycle_ - start_cycle_;
  f.ctas = done_ctas_;
  f.warp_instructions = warp_instructions_now() - start_instructions_;
  uint64_t threads_after = 0;
  for (auto& sm : sms_) threads_after += sm->stats().thread_instructions;
  f.thread_instructions = threads_after - threads_before;
  f.stats_json = [registry = registry_, values = recorder_->window(window).values] {
    return registry->dump_json(values, false);
  };
  return f;
}

void GpuPlatform::start_method() {
  if (running_) dispatch();
}

void GpuPlatform::dispatch() {
  const unsigned n = num_sms();
  while (next_cta_ < total_ctas_) {
    bool placed = false;
    unsigned last = rr_;
    for (unsigned k = 0; k < n && next_cta_ < total_ctas_; ++k) {
      const unsigned i = (rr_ + k) % n;
      Sm& sm = *sms_[i];
      if (!sm.can_admit(shape_)) continue;
      const uint64_t cta = next_cta_++;
      sm.launch_cta(*ctx_, cta);
      placed = true;
      last = i;
      launch_max_ctas_[i] = std::max<uint64_t>(launch_max_ctas_[i], sm.busy_ctas());
      launch_max_warps_[i] = std::max<uint64_t>(launch_max_warps_[i], uint64_t(sm.busy_ctas()) * shape_.warps);
      traces_->cta_begin(i, cta, core_clock_.now() + 1, sm.busy_ctas(), uint64_t(sm.busy_ctas()) * shape_.warps);
    }
    if (!placed) break;
    rr_ = (last + 1) % n;
  }
}

void GpuPlatform::cta_done(Sm& sm, uint64_t cta) {
  if (!running_) return;
  ++done_ctas_;
  const uint64_t now = core_clock_.now();
  last_progress_cycle_ = std::max(last_progress_cycle_, now);
  traces_->cta_end(sm.id(), cta, now, sm.busy_ctas(), uint64_t(sm.busy_ctas()) * shape_.warps);
  if (done_ctas_ == total_ctas_) {
    end_cycle_ = now;
    stop_launch();
    return;
  }
  dispatch();
}

void GpuPlatform::monitor_method() {
  if (!running_ || error_) return;
  const uint64_t now = core_clock_.now();
  const uint64_t instructions = warp_instructions_now();
  uint64_t progress = std::max(last_progress_cycle_, start_cycle_);
  for (const auto& sm : sms_) progress = std::max(progress, sm->last_issue_cycle());
  last_progress_cycle_ = progress;
  if (watchdog_cycles_ != 0 && now - progress >= watchdog_cycles_) {
    error_ = std::make_exception_ptr(Error(ErrorKind::Deadlock, deadlock_report(now, now - progress)));
    stop_launch();
    return;
  }
  if (max_cycles_ != 0 && now - start_cycle_ >= max_cycles_) {
    error_ = std::make_exception_ptr(
        Error(ErrorKind::Launch, "kernel '" + kernel_name_ + "' stopped at sim.max_cycles = " +
                                     std::to_string(max_cycles_) + " core cycles (" + std::to_string(done_ctas_) +
                                     " of " + std::to_string(total_ctas_) + " CTAs completed)"));
    stop_launch();
    return;
  }
  if (max_instructions_ != 0 && instructions - start_instructions_ >= max_instructions_) {
    error_ = std::make_exception_ptr(
        Error(ErrorKind::Launch, "kernel '" + kernel_name_ + "' stopped at sim.max_instructions = " +
                                     std::to_string(max_instructions_) + " warp instructions (" +
                                     std::to_string(done_ctas_) + " of " + std::to_string(total_ctas_) +
                                     " CTAs completed)"));
    stop_launch();
    return;
  }
  if (progress_cb_ && now - last_report_cycle_ >= progress_every_) {
    last_report_cycle_ = now;
    RunProgress p;
    p.kernel = kernel_name_;
    p.cycles = now - start_cycle_;
    p.warp_instructions = instructions - start_instructions_;
    p.ctas_done = done_ctas_;
    p.ctas_total = total_ctas_;
    progress_cb_(p);
  }
  uint64_t next = monitor_every_;
  if (watchdog_cycles_ != 0) next = std::min(next, progress + watchdog_cycles_ - now);
  if (max_cycles_ != 0) next = std::min(next, start_cycle_ + max_cycles_ - now);
  next = std::max<uint64_t>(next, 1);
  monitor_ev_.notify(core_clock_.period() * static_cast<double>(next));
}

std::string GpuPlatform::deadlock_report(uint64_t now, uint64_t idle_for) const {
  std::ostringstream os;
  os << "deadlock in kernel '" << kernel_name_ << "': no warp instruction issued and no CTA completed for " << idle_for
     << " core cycles (sim.watchdog_cycles = " << watchdog_cycles_ << ") at cycle " << (now - start_cycle_)
     << " of the launch; " << done_ctas_ << " of " << total_ctas_ << " CTAs completed, " << next_cta_
     << " dispatched";
  for (const auto& sm : sms_) {
    if (!sm->busy()) continue;
    os << "\n" << sm->name() << ": " << sm->busy_ctas() << " CTA(s)\n" << sm->describe_stall();
  }
  return os.str();
}

void GpuPlatform::finish_traces() { traces_->write(); }

}  // namespace simtlm::platforms
