// Semantic equivalence of the unified allocation over the workload suite
// (seed note 001 §6 item 12, ../shared/MECHANISMS.md "Results stay
// correct"): every registered workload passes its CPU check at small size
// after every kernel was rewritten for a register budget R, with R = the
// workload's demand (our allocator's largest count among its kernels), the
// full-occupancy count of the preset, and two levels between, on the
// functional and the timing backend (2 SMs). Every launch reports at most R
// registers from the source unified_alloc. Spill target: local memory, and
// shared memory first (frontend.unified_alloc.spill = shared: slots above the
// workload's own shared memory, the rest local; test names end in _shared).
// Test names end in the level (demand, upper, lower, full); a workload whose
// demand is at most the full-occupancy count has one level and skips the
// others. The level `auto` is mode = auto with MAX_cmratio 1, so that the
// search transforms every concurrency-bound kernel (at 200 it transforms
// none of ours, docs/studies/unified.md). Slow (label `slow`).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "simtlm/config.h"
#include "simtlm/device.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

struct Outcome {
  workloads::CheckResult check;
  std::vector<LaunchStats> stats;
};

Outcome run(const std::string& name, Backend backend, const std::vector<std::string>& overrides) {
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("gpu.num_sms=2");
  for (const std::string& o : overrides) cfg->apply_override(o);
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  o.num_sms = 2;
  o.warp_size = cfg->u32("gpu.sm.warp_size");
  Device dev(o);
  auto w = WorkloadRegistry::create(name);
  w->setup(dev, workloads::Size::Small, 1);
  Outcome out;
  out.stats = w->run(dev);
  out.check = w->check(dev);
  return out;
}

std::vector<std::string> budget(uint32_t r, const std::string& spill) {
  return {"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=" + std::to_string(r),
          "frontend.unified_alloc.spill=" + spill};
}

// The largest even count that lets a full SM of threads hold its registers.
uint32_t full_occupancy_registers() {
  const Config c;
  return static_cast<uint32_t>(c.u64("gpu.sm.registers") / c.u64("gpu.sm.max_threads")) & ~1u;
}

void expect_within(const Outcome& o, uint32_t r, const std::string& what) {
  EXPECT_TRUE(o.check.passed) << what << ": " << o.check.detail;
  for (const LaunchStats& s : o.stats) {
    EXPECT_LE(s.regs_per_thread, r) << what << ", kernel " << s.kernel;
    EXPECT_EQ(s.register_count_source, "unified_alloc") << what << ", kernel " << s.kernel;
  }
}

// The levels of one workload, highest first: its demand, two between, and the
// full-occupancy count (fewer when they coincide).
std::vector<uint32_t> levels_of(const std::string& name) {
  const Outcome plain = run(name, Backend::Functional, {"gpu.sm.register_count_source=allocator"});
  EXPECT_TRUE(plain.check.passed) << plain.check.detail;
  uint32_t demand = 0;
  for (const LaunchStats& s : plain.stats) demand = std::max(demand, s.regs_per_thread);
  const uint32_t full = std::min(demand, full_occupancy_registers());
  const uint32_t step = (demand - full) / 3;
  std::set<uint32_t> levels = {demand, full, (full + step) & ~1u, (full + 2 * step) & ~1u};
  std::vector<uint32_t> out;
  for (auto it = levels.rbegin(); it != levels.rend(); ++it)
    if (*it >= full && *it != 0) out.push_back(*it);  // an odd demand rounds a level below full
  return out;
}

constexpr unsigned kAutoLevel = 4;

// (workload, level index, spill target): one timing device per process, so
// one level per test.
using Param = std::tuple<std::string, unsigned, std::string>;
class UnifiedWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(UnifiedWorkloads, PassesItsCheckOnBothBackends) {
  const auto& [name, index, spill] = GetParam();
  if (index == kAutoLevel) {
    const std::vector<std::string> overrides = {"frontend.unified_alloc.mode=auto",
                                                "frontend.unified_alloc.max_cmratio=1",
                                                "frontend.unified_alloc.spill=" + spill};
    const uint32_t demand = levels_of(name).front();
    expect_within(run(name, Backend::Functional, overrides), demand, "functional, auto, spill = " + spill);
    expect_within(run(name, Backend::Timing, overrides), demand, "timing, auto, spill = " + spill);
    return;
  }
  const std::vector<uint32_t> levels = levels_of(name);
  if (index >= levels.size()) GTEST_SKIP() << name << " has " << levels.size() << " distinct level(s)";
  const uint32_t r = levels[index];
  const std::string what = "R = " + std::to_string(r) + ", spill = " + spill;
  expect_within(run(name, Backend::Functional, budget(r, spill)), r, "functional, " + what);
  expect_within(run(name, Backend::Timing, budget(r, spill)), r, "timing, " + what);
}

const char* const kLevelNames[] = {"demand", "upper", "lower", "full", "auto"};

std::string test_name(const ::testing::TestParamInfo<Param>& info) {
  const std::string& spill = std::get<2>(info.param);
  return std::get<0>(info.param) + "_" + kLevelNames[std::get<1>(info.param)] + (spill == "local" ? "" : "_" + spill);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, UnifiedWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::Values(0u, 1u, 2u, 3u, kAutoLevel),
                                            ::testing::Values(std::string("local"), std::string("shared"))),
                         test_name);

}  // namespace
}  // namespace simtlm::test
