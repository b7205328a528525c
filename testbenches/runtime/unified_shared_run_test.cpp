// Shared-memory spill slots through the runtime (frontend.unified_alloc.spill
// = shared; frontend/passes/shared_slots.h; seed note 001 §6 items 8, 9, 12,
// 21): a kernel with static and dynamic shared memory of its own gives
// bit-identical results to a CPU reference on the functional and the timing
// backend (a slot over a user word would change another thread's result),
// the timing model runs the spills as shared-memory instructions; mode =
// auto; configuration mistakes.
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

constexpr uint32_t kThreads = 1280, kIterations = 5;

// What register_pressure_smem.ptx computes for CTAs of `block` threads, in
// the same float operations.
std::vector<float> reference(const std::vector<float>& in, uint32_t block) {
  std::vector<float> out(kThreads);
  for (uint32_t g = 0; g < kThreads; ++g) {
    float f[12];
    for (int k = 0; k < 12; ++k) f[k] = in[g * 12 + k];
    float acc = 0.0f;
    for (uint32_t i = 0; i < kIterations; ++i) {
      for (int k = 0; k < 12; k += 2) acc = std::fma(f[k], f[k + 1], acc);
      if (i & 1) f[0] = f[0] + 1.0f;
      else f[11] = f[11] * 0.5f;
    }
    const uint32_t other = block - 1 - g % block;
    out[g] = acc + static_cast<float>((3 * other + 1) + (other + 1000));
  }
  return out;
}

struct Outcome {
  LaunchStats stats;
  nlohmann::json counters;
};

// registers = kAuto: frontend.unified_alloc.mode = auto.
constexpr uint32_t kAuto = ~0u;

// CTAs of `block` threads with 4 x block + 2 bytes of dynamic shared memory
// (the slots' base is not 4-aligned before rounding).
Outcome run(Backend backend, uint32_t registers, const std::string& spill,
            const std::vector<std::string>& extra = {}, uint32_t block = 32) {
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("gpu.num_sms=2");
  for (const std::string& e : extra) cfg->apply_override(e);
  if (registers == kAuto) {
    cfg->apply_override("frontend.unified_alloc.mode=auto");
    cfg->apply_override("frontend.unified_alloc.spill=" + spill);
  } else if (registers) {
    cfg->apply_override("frontend.unified_alloc.mode=fixed");
    cfg->apply_override("frontend.unified_alloc.registers=" + std::to_string(registers));
    cfg->apply_override("frontend.unified_alloc.spill=" + spill);
  }
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  o.num_sms = 2;
  Device dev(o);
  const ModuleHandle h =
      dev.load_module_string(test_data::ptx("kernels/register_pressure_smem.ptx"), "pressure_smem.ptx");
  std::vector<float> in(kThreads * 12);
  for (size_t k = 0; k < in.size(); ++k) in[k] = 0.25f * static_cast<float>((k * 7919) % 23) - 2.0f;
  const DevicePtr din = dev.malloc(in.size() * 4), dout = dev.malloc(kThreads * 4);
  dev.memcpy_to_device(din, in.data(), in.size() * 4);
  LaunchConfig c;
  c.block = Dim3(block);
  c.grid = Dim3(kThreads / block);
  c.dynamic_shared_bytes = 4 * block + 2;
  Outcome r;
  r.stats = dev.launch(h, "pressure_smem", c, KernelArgs().add(din).add(dout).add(kIterations));
  std::vector<float> out(kThreads);
  dev.memcpy_to_host(out.data(), dout, kThreads * 4);
  const std::vector<float> want = reference(in, block);
  for (uint32_t t = 0; t < kThreads; ++t) {
    uint32_t a, b;
    std::memcpy(&a, &out[t], 4);
    std::memcpy(&b, &want[t], 4);
    EXPECT_EQ(a, b) << "thread " << t << ": " << out[t] << " instead of " << want[t];
  }
  const std::string json = r.stats.stats_json();  // empty on the functional backend
  if (!json.empty()) r.counters = nlohmann::json::parse(json);
  return r;
}

// Sum of the counters whose name ends with `suffix`.
uint64_t counter(const Outcome& o, const std::string& suffix) {
  uint64_t n = 0;
  for (auto it = o.counters.begin(); it != o.counters.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        it->is_number())
      n += it->get<uint64_t>();
  }
  return n;
}

TEST(UnifiedSharedRun, FunctionalResultsAreBitIdenticalAtEveryBudget) {
  const Outcome plain = run(Backend::Functional, 0, "local");
  const uint32_t demand = plain.stats.regs_per_thread;
  ASSERT_GE(demand, 20u);
  for (uint32_t r = demand; r >= 8; r -= 2) {
    SCOPED_TRACE("R = " + std::to_string(r));
    const Outcome u = run(Backend::Functional, r, "shared");
    EXPECT_LE(u.stats.regs_per_thread, r);
    EXPECT_EQ(u.stats.register_count_source, "unified_alloc");
    if (r < demand) {
      EXPECT_NE(u.stats.register_count_detail.find("shared slots for 32 threads per CTA"), std::string::npos)
          << u.stats.register_count_detail;
      EXPECT_GT(u.stats.thread_instructions, plain.stats.thread_instructions);
    } else {
      EXPECT_EQ(u.stats.thread_instructions, plain.stats.thread_instructions);
    }
    // The pruning by access frequency places the same spill code differently.
    const Outcome f = run(Backend::Functional, r, "shared", {"frontend.unified_alloc.prune_priority=accesses"});
    EXPECT_EQ(f.stats.thread_instructions, u.stats.thread_instructions);
  }
}

// One timing device per process: the comparison with spill = local on the
// timing backend is testbenches/cli/test_cli_unified.cpp (two processes).
TEST(UnifiedSharedRun, TimingResultsAreBitIdenticalAndTheSpillsAreSharedMemoryTraffic) {
  const Outcome functional = run(Backend::Functional, 10, "shared");
  const Outcome shared = run(Backend::Timing, 10, "shared");
  EXPECT_LE(shared.stats.regs_per_thread, 10u);
  EXPECT_EQ(shared.stats.thread_instructions, functional.stats.thread_instructions);
  EXPECT_GT(counter(shared, ".smem_instructions"), 0u);
  EXPECT_EQ(shared.stats.dynamic_shared_bytes, 4 * 32 + 2u);
}

// mode = auto on 256-thread CTAs (registers limit them): the search picks
// each kernel's level per launch shape; the result still passes the check,
// and a MAX_cmratio no level reaches keeps the original kernel (the seed's
// conservative answer).
TEST(UnifiedSharedRun, AutoModeChoosesALevelAndStaysCorrect) {
  const Outcome plain = run(Backend::Functional, 0, "local", {}, 256);
  for (const std::string spill : {"local", "shared"}) {
    const Outcome a = run(Backend::Functional, kAuto, spill, {"frontend.unified_alloc.max_cmratio=1"}, 256);
    EXPECT_EQ(a.stats.register_count_source, "unified_alloc");
    EXPECT_NE(a.stats.register_count_detail.find("frontend.unified_alloc.mode = auto: "), std::string::npos)
        << a.stats.register_count_detail;
    EXPECT_LT(a.stats.regs_per_thread, plain.stats.regs_per_thread) << a.stats.register_count_detail;
  }
  const Outcome strict =
      run(Backend::Functional, kAuto, "shared", {"frontend.unified_alloc.max_cmratio=1000000"}, 256);
  EXPECT_EQ(strict.stats.regs_per_thread, plain.stats.regs_per_thread) << strict.stats.register_count_detail;
  EXPECT_NE(strict.stats.register_count_detail.find("not transformed"), std::string::npos)
      << strict.stats.register_count_detail;
  EXPECT_EQ(strict.stats.thread_instructions, plain.stats.thread_instructions);
}

TEST(UnifiedSharedRun, ConfigurationMistakesAreRejectedNamingTheKeys) {
  auto expect_rejected = [](const std::vector<std::string>& overrides, const std::string& key) {
    Config cfg;
    for (const std::string& o : overrides) cfg.apply_override(o);
    try {
      cfg.validate();
      ADD_FAILURE() << "accepted: " << overrides.back();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  expect_rejected({"frontend.unified_alloc.spill=shared"}, "frontend.unified_alloc.mode");
  const std::vector<std::string> on = {"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=12",
                                       "frontend.unified_alloc.spill=shared"};
  auto with = [&](const std::string& extra) {
    std::vector<std::string> v = on;
    v.push_back(extra);
    return v;
  };
  expect_rejected(with("gpu.sm.smem.alloc_policy=sharing"), "gpu.sm.smem.alloc_policy");
  expect_rejected(with("gpu.sm.regfile.alloc_policy=sharing"), "gpu.sm.regfile.alloc_policy");
  expect_rejected({"frontend.unified_alloc.max_cmratio=100"}, "frontend.unified_alloc.mode");
  // The pruning's priority chooses among shared slots only.
  expect_rejected({"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=12",
                   "frontend.unified_alloc.prune_priority=accesses"},
                  "frontend.unified_alloc.prune_priority");
  Config bad;
  EXPECT_THROW(bad.apply_override("frontend.unified_alloc.prune_priority=often"), Error);
  Config accepted;
  for (const std::string& o : with("frontend.unified_alloc.prune_priority=accesses")) accepted.apply_override(o);
  EXPECT_NO_THROW(accepted.validate());
  expect_rejected({"frontend.unified_alloc.mode=fixed", "frontend.unified_alloc.registers=12",
                   "frontend.unified_alloc.concurrency_bound=2"},
                  "frontend.unified_alloc.concurrency_bound");
  expect_rejected({"frontend.unified_alloc.mode=auto", "frontend.unified_alloc.registers=12"},
                  "frontend.unified_alloc.registers");
  expect_rejected({"frontend.unified_alloc.mode=auto", "sim.platform=vws"}, "sim.platform");
  // The launch-shape stage is chosen by the key, not by frontend.passes.
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("frontend.passes=unified_alloc_shared.enabled=true");
  cfg->validate();
  DeviceOptions o;
  o.backend = Backend::Functional;
  o.config = cfg;
  try {
    Device dev(o);
    ADD_FAILURE() << "unified_alloc_shared in frontend.passes was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("frontend.unified_alloc.spill"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simtlm
