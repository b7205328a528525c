// Simulation speed of the timing model: runs one built-in workload on the
// timing backend (gtx480 defaults, single-threaded) and prints warp
// instructions per host second and simulated core cycles per host second,
// by wall-clock time and by the process's CPU time (on a shared or virtual
// host the wall clock also counts time other tenants held the core).
// One workload per process (SystemC elaborates once); bench/run_timing_bench.sh
// runs the set under /usr/bin/time -v for the peak memory (docs/performance.md).
//
//   simtlm_bench_timing WORKLOAD [small|default] [--runs N] [--launch-records N] [key=value ...]
//
// --runs N runs the workload's launches N times on the same device, so the
// simulated cycles grow N-fold while the data stay the same; the peak resident
// memory after each run (VmHWM) shows whether memory grows with simulated
// time. The rates cover all runs; the CPU check is of the last run.
// --launch-records N keeps the statistics of the last N launches only
// (DeviceOptions::launch_records; default: all).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "apps/huge_page_heap.h"
#include "simtlm/config.h"
#include "simtlm/device.h"
#include "workloads/ptxas_record.h"
#include "workloads/workload.h"

namespace {

constexpr const char* kUsage =
    "usage: simtlm_bench_timing WORKLOAD [small|default] [--runs N] [--launch-records N] [key=value ...]\n";

struct BenchArgs {
  std::string workload;
  simtlm::workloads::Size size = simtlm::workloads::Size::Default;
  unsigned runs = 1;
  unsigned launch_records = 0;
  std::vector<std::string> overrides;
};

// Value of option `name` given as "--name V" or "--name=V" at argv[i] (i is
// advanced past a separate value), as an integer in [lo, hi]. False with a
// message when it is missing or malformed; `matched` tells whether argv[i] is
// this option at all.
bool option_value(int argc, char* argv[], int& i, const std::string& name, unsigned long lo, unsigned long hi,
                  unsigned& out, bool& matched) {
  const std::string s = argv[i];
  matched = s == name || s.rfind(name + "=", 0) == 0;
  if (!matched) return true;
  std::string v;
  if (s == name) {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "simtlm_bench_timing: %s needs a value\n", name.c_str());
      return false;
    }
    v = argv[++i];
  } else {
    v = s.substr(name.size() + 1);
  }
  char* end = nullptr;
  const unsigned long n = std::strtoul(v.c_str(), &end, 10);
  if (v.empty() || v[0] == '-' || *end != '\0' || n < lo || n > hi) {
    std::fprintf(stderr, "simtlm_bench_timing: %s must be an integer in %lu..%lu (got '%s')\n", name.c_str(), lo, hi,
                 v.c_str());
    return false;
  }
  out = static_cast<unsigned>(n);
  return true;
}

// Parses the command line; on bad input prints what is wrong and returns false.
bool parse_args(int argc, char* argv[], BenchArgs& a) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return false;
  }
  a.workload = argv[1];
  int i = 2;
  if (i < argc && std::string(argv[i]).find('=') == std::string::npos && std::string(argv[i]).rfind("--", 0) != 0) {
    const std::string s = argv[i++];
    if (s == "small") {
      a.size = simtlm::workloads::Size::Small;
    } else if (s != "default") {
      std::fprintf(stderr, "simtlm_bench_timing: size must be 'small' or 'default' (got '%s')\n%s", s.c_str(), kUsage);
      return false;
    }
  }
  for (; i < argc; ++i) {
    bool runs = false, records = false;
    if (!option_value(argc, argv, i, "--runs", 1, 1000, a.runs, runs)) return false;
    if (runs) continue;
    if (!option_value(argc, argv, i, "--launch-records", 0, 1000000, a.launch_records, records)) return false;
    if (records) continue;
    const std::string s = argv[i];
    if (s.rfind("--", 0) == 0 || s.find('=') == std::string::npos) {
      std::fprintf(stderr, "simtlm_bench_timing: unexpected argument '%s'\n%s", s.c_str(), kUsage);
      return false;
    }
    a.overrides.push_back(s);
  }
  return true;
}

// Peak resident set size of this process so far, in kB (0 where /proc is missing).
unsigned long long peak_rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace simtlm;
  cli::reexec_with_huge_page_heap(argc, argv);
  BenchArgs args;
  if (!parse_args(argc, argv, args)) return 2;
  try {
    auto cfg = std::make_shared<Config>();
    for (const std::string& o : args.overrides) cfg->apply_override(o);
    cfg->validate();
    DeviceOptions o;
    o.backend = Backend::Timing;
    o.config = cfg;
    o.warp_size = cfg->u32("gpu.sm.warp_size");
    o.num_sms = cfg->u32("gpu.num_sms");
    o.launch_records = args.launch_records;
    o.known_register_counts = workloads::recorded_register_counts();  // as `simtlm run`
    std::unique_ptr<workloads::Workload> w = workloads::WorkloadRegistry::create(args.workload);
    if (!w) {
      std::fprintf(stderr, "simtlm_bench_timing: unknown workload '%s'\n", args.workload.c_str());
      return 2;
    }
    Device dev(o);
    w->setup(dev, args.size, 1);
    std::vector<unsigned long long> rss_after_run;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    // Totals from what each launch returned (the device may keep only the
    // last few launches' records).
    uint64_t instr = 0, cycles = 0;
    size_t launches = 0;
    for (unsigned r = 0; r < args.runs; ++r) {
      for (const LaunchStats& s : w->run(dev)) {
        instr += s.warp_instructions;
        cycles += s.cycles;
        ++launches;
      }
      rss_after_run.push_back(peak_rss_kb());
    }
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const workloads::CheckResult check = w->check(dev);
    std::string rss_list;
    for (unsigned long long kb : rss_after_run) rss_list += (rss_list.empty() ? "" : ", ") + std::to_string(kb);
    // One line, "key": value pairs separated by ", " (bench/run_workload_table.sh
    // splits on that); the list comes last.
    std::printf(
        "{\"workload\": \"%s\", \"size\": \"%s\", \"runs\": %u, \"launches\": %zu, \"warp_instructions\": %llu, "
        "\"cycles\": %llu, \"host_seconds\": %.3f, \"warp_instructions_per_second\": %.0f, "
        "\"cycles_per_second\": %.0f, \"cpu_seconds\": %.3f, \"warp_instructions_per_cpu_second\": %.0f, "
        "\"result\": \"%s\", \"peak_rss_kb_after_run\": [%s]}\n",
        args.workload.c_str(), args.size == workloads::Size::Small ? "small" : "default", args.runs,
        launches, static_cast<unsigned long long>(instr), static_cast<unsigned long long>(cycles),
        secs, secs > 0 ? instr / secs : 0.0, secs > 0 ? cycles / secs : 0.0, cpu, cpu > 0 ? instr / cpu : 0.0,
        check.passed ? "PASS" : "FAIL", rss_list.c_str());
    return check.passed ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "simtlm_bench_timing: %s\n", e.what());
    return 2;
  }
}
