#include "runtime/timing_backend.h"

#include <chrono>

#include "functional/executor.h"
#include "platforms/common/platform_registry.h"

namespace simtlm::runtime {

namespace {
bool timing_device_created = false;
}  // namespace

TimingBackend::TimingBackend(const DeviceOptions& options) : progress_(options.progress) {
  const Config cfg = options.config ? *options.config : Config();
  cfg.validate();
  if (timing_device_created || sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
    throw Error(ErrorKind::Usage,
                "only one timing device per process: SystemC elaborates the GPU model once "
                "(run further launches on the same simtlm::Device)");
  }
  if (cfg.u32("gpu.sm.warp_size") != options.warp_size) {
    throw Error(ErrorKind::Config, "the device's warp size " + std::to_string(options.warp_size) +
                                       " differs from gpu.sm.warp_size = " +
                                       std::to_string(cfg.u32("gpu.sm.warp_size")));
  }
  timing_device_created = true;
  platform_ = platforms::make_platform("gpu", cfg);
  platform_->keep_kernel_windows(options.launch_records);
  if (progress_) {
    platform_->set_progress_callback([this](const platforms::RunProgress& p) {
      report_progress(p.kernel, p.cycles, p.warp_instructions, p.ctas_done, p.ctas_total, p.hint);
    });
  }
}

void TimingBackend::report_progress(const std::string& kernel, uint64_t cycles, uint64_t warp_instructions,
                                    uint64_t ctas_done, uint64_t ctas_total, const std::string& hint) {
  progress_(LaunchProgress{launch_index_, kernel, /*timed=*/true, cycles, warp_instructions, ctas_done, ctas_total,
                           hint});
}

TimingBackend::~TimingBackend() {
  // SystemC modules cannot be destroyed safely while the simulation context
  // lives on (their processes are registered with the kernel); the platform
  // stays until the process ends.
  (void)platform_.release();
}

LaunchStats TimingBackend::launch(const functional::LaunchRequest& request, functional::GlobalMemory& memory) {
  const auto start = std::chrono::steady_clock::now();
  functional::LaunchContext ctx(request, memory);
  launch_index_ = request.grid_id;
  platforms::LaunchFigures f = platform_->run(ctx);
  platform_->finish_traces();
  if (progress_) report_progress(request.kernel->name, f.cycles, f.warp_instructions, f.ctas, f.ctas);
  LaunchStats s;
  s.kernel = request.kernel->name;
  s.ctas = f.ctas;
  s.warp_instructions = f.warp_instructions;
  s.thread_instructions = f.thread_instructions;
  s.offchip_accesses = f.offchip_accesses;
  s.spu_passes = f.spu_passes;
  s.viu_spills = std::move(f.viu_spills);
  s.viu_restores = std::move(f.viu_restores);
  s.cycles = f.cycles;
  s.set_stats_json_source(std::move(f.stats_json));
  s.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

nlohmann::ordered_json TimingBackend::stats_tree() const { return platform_->stats_tree(); }

std::string TimingBackend::summary() const { return platform_->total_summary(); }

std::string TimingBackend::kernel_table(bool per_launch) const { return platform_->kernel_table(per_launch); }

}  // namespace simtlm::runtime
