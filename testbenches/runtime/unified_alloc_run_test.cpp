// The unified allocation through the runtime (frontend.unified_alloc.*;
// seed note 001 §6 item 12): the rewritten kernel gives bit-identical
// results to a CPU reference on the functional and the timing backend at
// every budget from the kernel's demand down to 8 registers, CTA admission
// and the launch statistics report the rewritten kernel's count, and the
// spill code runs (local loads and stores on the timing backend).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "simtlm/config.h"
#include "simtlm/device.h"
#include "simtlm/error.h"
#include "testbenches/common/test_data.h"

namespace simtlm {
namespace {

constexpr uint32_t kThreads = 96, kIterations = 5;

// What register_pressure.ptx computes, in the same float operations.
std::vector<float> reference(const std::vector<float>& in) {
  std::vector<float> out(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    float f[12];
    for (int k = 0; k < 12; ++k) f[k] = in[t * 12 + k];
    float acc = 0.0f;
    for (uint32_t i = 0; i < kIterations; ++i) {
      for (int k = 0; k < 12; k += 2) acc = std::fma(f[k], f[k + 1], acc);
      if (i & 1) f[0] = f[0] + 1.0f;
      else f[11] = f[11] * 0.5f;
    }
    out[t] = acc + static_cast<float>(static_cast<uint16_t>(t));
  }
  return out;
}

struct Outcome {
  std::vector<float> out;
  LaunchStats stats;
};

Outcome run(Backend backend, uint32_t registers) {
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("gpu.num_sms=2");
  if (registers) {
    cfg->apply_override("frontend.unified_alloc.mode=fixed");
    cfg->apply_override("frontend.unified_alloc.registers=" + std::to_string(registers));
  }
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  o.num_sms = 2;
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(test_data::ptx("kernels/register_pressure.ptx"), "pressure.ptx");
  std::vector<float> in(kThreads * 12);
  for (size_t k = 0; k < in.size(); ++k) in[k] = 0.25f * static_cast<float>((k * 7919) % 23) - 2.0f;
  const DevicePtr din = dev.malloc(in.size() * 4), dout = dev.malloc(kThreads * 4);
  dev.memcpy_to_device(din, in.data(), in.size() * 4);
  LaunchConfig c;
  c.block = Dim3(32);
  c.grid = Dim3(kThreads / 32);
  Outcome r;
  r.stats = dev.launch(h, "pressure", c, KernelArgs().add(din).add(dout).add(kIterations));
  r.out.resize(kThreads);
  dev.memcpy_to_host(r.out.data(), dout, kThreads * 4);
  const std::vector<float> want = reference(in);
  for (uint32_t t = 0; t < kThreads; ++t) {
    uint32_t a, b;
    std::memcpy(&a, &r.out[t], 4);
    std::memcpy(&b, &want[t], 4);
    EXPECT_EQ(a, b) << "thread " << t << ": " << r.out[t] << " instead of " << want[t];
  }
  return r;
}

uint64_t counter(const LaunchStats& s, const std::string& suffix) {
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  uint64_t n = 0;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        it->is_number())
      n += it->get<uint64_t>();
  }
  return n;
}

TEST(UnifiedAllocRun, FunctionalResultsAreBitIdenticalAtEveryBudget) {
  const Outcome plain = run(Backend::Functional, 0);
  uint32_t demand = 0;
  {
    // The allocator's demand (the default count source is ptxas, absent here).
    EXPECT_EQ(plain.stats.register_count_source, "allocator_fallback");
    demand = plain.stats.regs_per_thread;
  }
  ASSERT_GE(demand, 20u);
  for (uint32_t r = demand; r >= 8; r -= 2) {
    SCOPED_TRACE("R = " + std::to_string(r));
    const Outcome u = run(Backend::Functional, r);
    EXPECT_LE(u.stats.regs_per_thread, r);
    EXPECT_EQ(u.stats.register_count_source, "unified_alloc");
    EXPECT_NE(u.stats.register_count_detail.find("frontend.unified_alloc.registers = " + std::to_string(r)),
              std::string::npos)
        << u.stats.register_count_detail;
    // Below the demand the spill code executes.
    if (r < demand) {
      EXPECT_GT(u.stats.thread_instructions, plain.stats.thread_instructions);
    } else {
      EXPECT_EQ(u.stats.thread_instructions, plain.stats.thread_instructions);
    }
  }
}

// One timing device per process: the functional runs are the comparison.
TEST(UnifiedAllocRun, TimingResultsAreBitIdenticalAndTheSpillsAreLocalTraffic) {
  const Outcome plain = run(Backend::Functional, 0);
  const Outcome functional = run(Backend::Functional, 10);
  const Outcome spilled = run(Backend::Timing, 10);
  EXPECT_LE(spilled.stats.regs_per_thread, 10u);
  EXPECT_EQ(spilled.stats.register_count_source, "unified_alloc");
  EXPECT_GT(spilled.stats.cycles, 0u);
  EXPECT_EQ(spilled.stats.thread_instructions, functional.stats.thread_instructions);
  EXPECT_GT(spilled.stats.thread_instructions, plain.stats.thread_instructions);
  EXPECT_GT(counter(spilled.stats, ".local_store_instructions"), 0u);
  EXPECT_GT(counter(spilled.stats, ".local_load_instructions"), 0u);
}

TEST(UnifiedAllocRun, ConfigurationMistakesAreRejectedNamingTheKeys) {
  auto expect_rejected = [](const std::vector<std::string>& overrides, const std::string& key) {
    Config cfg;
    for (const std::string& o : overrides) cfg.apply_override(o);
    try {
      cfg.validate();
      ADD_FAILURE() << "accepted: " << overrides.front();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  expect_rejected({"frontend.unified_alloc.registers=20"}, "frontend.unified_alloc.mode");
  expect_rejected({"frontend.unified_alloc.mode=fixed"}, "frontend.unified_alloc.registers");
  expect_rejected({"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=64"},
                  "gpu.sm.max_registers_per_thread");
  expect_rejected({"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=20",
                   "gpu.sm.smem.alloc_policy=sharing", "frontend.relssp.placement=opt"},
                  "frontend.relssp.placement");
  // A pass that annotates, enabled by hand, cannot run before the rewrite.
  {
    auto cfg = std::make_shared<Config>();
    cfg->apply_override("frontend.unified_alloc.mode=fixed");
    cfg->apply_override("frontend.unified_alloc.registers=12");
    cfg->apply_override("frontend.passes=power_states.enabled=true");
    cfg->validate();
    DeviceOptions o;
    o.backend = Backend::Functional;
    o.config = cfg;
    Device dev(o);
    try {
      dev.load_module_string(test_data::ptx("kernels/register_pressure.ptx"), "pressure.ptx");
      ADD_FAILURE() << "power_states before unified_alloc was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_NE(std::string(e.what()).find("power_states"), std::string::npos) << e.what();
    }
  }
  Config bad;
  EXPECT_THROW(bad.apply_override("frontend.unified_alloc.mode=search"), Error);
  EXPECT_THROW(bad.apply_override("frontend.unified_alloc.spill=both"), Error);
}

}  // namespace
}  // namespace simtlm
