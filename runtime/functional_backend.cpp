#include "runtime/functional_backend.h"

#include <chrono>

#include "simtlm/error.h"

namespace simtlm::runtime {

FunctionalBackend::FunctionalBackend(const DeviceOptions& options) : progress_(options.progress) {
  // The DMA interface units are an engine of the timing model
  // (models/spu/dma_iu.h); the functional backend runs every IU's code.
  if (options.config && options.config->str("sim.platform") == "spu" && options.config->str("spu.iu.kind") == "dma") {
    throw Error(ErrorKind::Config,
                "spu.iu.kind = dma is built on the timing backend only: the functional backend runs the kernel's IU "
                "code on every interface unit (use --backend timing, or spu.iu.kind = sm)");
  }
}

LaunchStats FunctionalBackend::launch(const functional::LaunchRequest& request,
                                      functional::GlobalMemory& memory) {
  auto start = std::chrono::steady_clock::now();
  functional::CtaDoneCallback on_cta;
  if (progress_) {
    on_cta = [&](const functional::LaunchCounters& so_far, uint64_t total_ctas) {
      LaunchProgress p;
      p.launch = request.grid_id;  // the runtime numbers launches 1, 2, ...
      p.kernel = request.kernel->name;
      p.warp_instructions = so_far.warp_instructions;
      p.ctas_done = so_far.ctas;
      p.ctas_total = total_ctas;
      progress_(p);
    };
  }
  functional::LaunchCounters counters = functional::run_launch(request, memory, on_cta);
  auto stop = std::chrono::steady_clock::now();

  LaunchStats stats;
  stats.kernel = request.kernel->name;
  stats.ctas = counters.ctas;
  stats.warp_instructions = counters.warp_instructions;
  stats.thread_instructions = counters.thread_instructions;
  stats.offchip_accesses = counters.offchip_accesses;
  stats.spu_passes = counters.spu_passes;
  stats.viu_spills = std::move(counters.viu_spills);
  stats.viu_restores = std::move(counters.viu_restores);
  stats.host_seconds = std::chrono::duration<double>(stop - start).count();
  return stats;
}

}  // namespace simtlm::runtime
