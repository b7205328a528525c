#include "runtime/functional_backend.h"

#include <chrono>

namespace simtlm::runtime {

LaunchStats FunctionalBackend::launch(const functional::LaunchRequest& request,
                                      functional::GlobalMemory& memory) {
  auto start = std::chrono::steady_clock::now();
  functional::LaunchCounters counters = functional::run_launch(request, memory);
  auto stop = std::chrono::steady_clock::now();

  LaunchStats stats;
  stats.kernel = request.kernel->name;
  stats.ctas = counters.ctas;
  stats.warp_instructions = counters.warp_instructions;
  stats.thread_instructions = counters.thread_instructions;
  stats.host_seconds = std::chrono::duration<double>(stop - start).count();
  return stats;
}

}  // namespace simtlm::runtime
