// Simulation speed of the timing model: runs one built-in workload on the
// timing backend (gtx480 defaults, single-threaded) and prints warp
// instructions per host second and simulated core cycles per host second,
// by wall-clock time and by the process's CPU time (on a shared or virtual
// host the wall clock also counts time other tenants held the core).
// One workload per process (SystemC elaborates once); scripts/bench_timing.sh
// runs the set under /usr/bin/time -v for the peak memory (docs/performance.md).
//
//   simtlm_bench_timing WORKLOAD [small|default] [key=value ...]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>

#include "apps/huge_page_heap.h"
#include "simtlm/config.h"
#include "simtlm/device.h"
#include "workloads/workload.h"

int sc_main(int argc, char* argv[]) {
  using namespace simtlm;
  cli::reexec_with_huge_page_heap(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: simtlm_bench_timing WORKLOAD [small|default] [key=value ...]\n");
    return 2;
  }
  try {
    const std::string name = argv[1];
    const workloads::Size size =
        argc > 2 && std::string(argv[2]) == "small" ? workloads::Size::Small : workloads::Size::Default;
    auto cfg = std::make_shared<Config>();
    for (int i = 3; i < argc; ++i) cfg->apply_override(argv[i]);
    cfg->validate();
    DeviceOptions o;
    o.backend = Backend::Timing;
    o.config = cfg;
    o.warp_size = cfg->u32("gpu.sm.warp_size");
    o.num_sms = cfg->u32("gpu.num_sms");
    std::unique_ptr<workloads::Workload> w = workloads::WorkloadRegistry::create(name);
    if (!w) {
      std::fprintf(stderr, "unknown workload '%s'\n", name.c_str());
      return 2;
    }
    Device dev(o);
    w->setup(dev, size, 1);
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    w->run(dev);
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const workloads::CheckResult check = w->check(dev);
    uint64_t instr = 0, cycles = 0;
    for (const LaunchStats& s : dev.launch_history()) {
      instr += s.warp_instructions;
      cycles += s.cycles;
    }
    std::printf(
        "{\"workload\": \"%s\", \"size\": \"%s\", \"launches\": %zu, \"warp_instructions\": %llu, "
        "\"cycles\": %llu, \"host_seconds\": %.3f, \"warp_instructions_per_second\": %.0f, "
        "\"cycles_per_second\": %.0f, \"cpu_seconds\": %.3f, \"warp_instructions_per_cpu_second\": %.0f, "
        "\"result\": \"%s\"}\n",
        name.c_str(), size == workloads::Size::Small ? "small" : "default", dev.launch_history().size(),
        static_cast<unsigned long long>(instr), static_cast<unsigned long long>(cycles), secs,
        secs > 0 ? instr / secs : 0.0, secs > 0 ? cycles / secs : 0.0, cpu, cpu > 0 ? instr / cpu : 0.0,
        check.passed ? "PASS" : "FAIL");
    return check.passed ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "simtlm_bench_timing: %s\n", e.what());
    return 2;
  }
}
