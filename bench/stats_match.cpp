// Google Benchmark of the statistics registry's pattern matching: the first
// evaluation of a GPU-shaped set of formulas (every pattern matched once, as at
// the end of a small run) and a repeated one (every pattern from the cache).
// docs/performance.md "Statistics pattern matching".
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/stats.h"

namespace {

using simtlm::stats::Registry;

constexpr int kSms = 15;
constexpr int kPerSm = 120;  // counters per SM (the gtx480 model registers about this many)
constexpr int kPatterns = 56;

// A registry with kSms SMs of kPerSm counters, a few memory-side counters, and
// kPatterns formulas each summing one SM counter over every SM.
struct GpuShaped {
  Registry reg;
  std::vector<std::uint64_t> values = std::vector<std::uint64_t>(kSms * kPerSm + 24, 1);
  GpuShaped() {
    std::size_t v = 0;
    for (int sm = 0; sm < kSms; ++sm) {
      for (int c = 0; c < kPerSm; ++c) {
        reg.counter("gpu.sm[" + std::to_string(sm) + "].c" + std::to_string(c), &values[v++], "", "");
      }
    }
    for (int part = 0; part < 6; ++part) {
      for (const char* k : {"l2", "dram"}) {
        for (const char* x : {"reads", "writes"}) {
          reg.counter(std::string("gpu.") + k + "[" + std::to_string(part) + "]." + x, &values[v++], "", "");
        }
      }
    }
    for (int f = 0; f < kPatterns; ++f) {
      reg.formula("gpu.total_c" + std::to_string(f), "sum(gpu.sm[*].c" + std::to_string(f) + ")", "", "");
    }
  }
};

void BM_FormulasFirstEvaluation(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto gpu = std::make_unique<GpuShaped>();  // fresh caches
    const auto values = gpu->reg.capture();
    state.ResumeTiming();
    benchmark::DoNotOptimize(gpu->reg.dump_json(values));
    state.PauseTiming();
    gpu.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_FormulasFirstEvaluation)->Unit(benchmark::kMillisecond);

void BM_FormulasCachedEvaluation(benchmark::State& state) {
  GpuShaped gpu;
  const auto values = gpu.reg.capture();
  benchmark::DoNotOptimize(gpu.reg.dump_json(values));  // fills the caches
  for (auto _ : state) benchmark::DoNotOptimize(gpu.reg.dump_json(values));
}
BENCHMARK(BM_FormulasCachedEvaluation)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
