// Semantic equivalence of the unified allocation over the workload suite
// (seed note 001 §6 item 12, ../shared/MECHANISMS.md "Results stay
// correct"): every registered workload passes its CPU check at small size
// after every kernel was rewritten for a register budget R, with R = the
// workload's demand (our allocator's largest count among its kernels), the
// full-occupancy count of the preset, and two levels between, on the
// functional backend; on the timing backend (2 SMs) at the full-occupancy
// count, where the most values are spilled. Every launch reports at most R
// registers from the source unified_alloc. Spill target: local memory (the
// only one built). Slow (label `slow`): five runs per workload.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
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

std::vector<std::string> budget(uint32_t r) {
  return {"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=" + std::to_string(r)};
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

class UnifiedWorkloads : public ::testing::TestWithParam<std::string> {};

TEST_P(UnifiedWorkloads, PassesItsCheckAtEveryLevel) {
  const std::string& name = GetParam();
  const Outcome plain = run(name, Backend::Functional, {"gpu.sm.register_count_source=allocator"});
  ASSERT_TRUE(plain.check.passed) << plain.check.detail;
  uint32_t demand = 0;
  for (const LaunchStats& s : plain.stats) demand = std::max(demand, s.regs_per_thread);
  const uint32_t full = std::min(demand, full_occupancy_registers());
  const uint32_t step = (demand - full) / 3;
  std::set<uint32_t> levels = {demand, full, (full + step) & ~1u, (full + 2 * step) & ~1u};
  levels.erase(0);
  for (uint32_t r : levels) {
    if (r < full) continue;  // an odd demand rounds a level below full occupancy
    expect_within(run(name, Backend::Functional, budget(r)), r, "functional, R = " + std::to_string(r));
  }
  expect_within(run(name, Backend::Timing, budget(full)), full, "timing, R = " + std::to_string(full));
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, UnifiedWorkloads, ::testing::ValuesIn(WorkloadRegistry::names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace simtlm::test
