// Shared helpers of the workload-suite tests (testbenches/workloads_suite_a,
// workloads_suite_b): run a workload's Small size on the functional backend,
// corrupt one output to show that check() can fail, measure SIMD efficiency
// and warp-width independence, and compute a kernel's occupancy on the
// tesla_c2050 preset from the registers our allocator assigns, with an
// independent formula (not models::occupancy_limits, which it checks).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "runtime/device_impl.h"
#include "simtlm/device.h"
#include "testbenches/workloads/workload_harness.h"
#include "workloads/common/outputs.h"
#include "workloads/workload.h"

namespace simtlm::workloads::suite {

using testing::make_workload;

inline void expect_small_passes(const std::string& name, uint64_t seed = 1) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  Device dev(opts);
  auto w = make_workload(name);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->info().name, name);
  ASSERT_NE(dynamic_cast<HasOutputs*>(w.get()), nullptr);
  w->setup(dev, Size::Small, seed);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<LaunchStats> stats = w->run(dev);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(stats.empty());
  const CheckResult r = w->check(dev);
  EXPECT_TRUE(r.passed) << r.detail;
  uint64_t warp = 0, thread = 0;
  for (const auto& s : stats) warp += s.warp_instructions, thread += s.thread_instructions;
  EXPECT_GT(thread, 0u);
  std::cout << "[ detail   ] " << name << ": " << r.detail << "\n[ counts   ] " << name << ": "
            << stats.size() << " launch(es), " << warp << " warp / " << thread
            << " thread instructions, " << secs << " s\n";
}

// One Small run on the functional backend at `warp_size`: check result,
// instruction counts and every HasOutputs buffer as raw 32-bit words.
struct SmallRun {
  bool passed = false;
  std::string detail;
  uint64_t warp = 0, thread = 0;
  std::vector<std::vector<uint32_t>> outputs;

  // Active lanes per issued warp instruction over the warp width.
  double simd_efficiency(unsigned warp_size) const {
    return warp ? double(thread) / (double(warp) * warp_size) : 0.0;
  }
};

inline SmallRun run_small(const std::string& name, unsigned warp_size = 32) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.warp_size = warp_size;
  Device dev(opts);
  SmallRun out;
  auto w = make_workload(name);
  if (!w) return out;
  w->setup(dev, Size::Small, 1);
  for (const LaunchStats& s : w->run(dev)) {
    out.warp += s.warp_instructions;
    out.thread += s.thread_instructions;
  }
  const CheckResult r = w->check(dev);
  out.passed = r.passed;
  out.detail = r.detail;
  for (const OutputBuffer& b : dynamic_cast<HasOutputs&>(*w).outputs())
    out.outputs.push_back(dev.download<uint32_t>(b.ptr, b.count));
  return out;
}

// SIMD efficiency of the Small run at warp size 32 (printed for the record).
inline double small_simd_efficiency(const std::string& name) {
  const SmallRun r = run_small(name, 32);
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_GT(r.warp, 0u);
  const double eff = r.simd_efficiency(32);
  std::cout << "[ simd eff ] " << name << " Small, warp 32: " << eff << " (" << r.warp << " warp / "
            << r.thread << " thread instructions)\n";
  return eff;
}

// For kernels without warp-level primitives: every thread computes the same
// values in the same order at any warp width, so outputs are bit-identical
// and the thread-instruction count is the same at widths 8 and 64.
inline void expect_warp_width_independent(const std::string& name) {
  const SmallRun base = run_small(name, 32);
  ASSERT_TRUE(base.passed) << base.detail;
  for (unsigned ws : {8u, 64u}) {
    const SmallRun other = run_small(name, ws);
    EXPECT_TRUE(other.passed) << "warp " << ws << ": " << other.detail;
    EXPECT_EQ(other.outputs, base.outputs) << "warp " << ws;
    EXPECT_EQ(other.thread, base.thread) << "warp " << ws;
  }
}

// Corrupts one output (testing::corrupt_one_output) and expects check() to
// report the mismatch.
inline void expect_corruption_detected(const std::string& name) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  Device dev(opts);
  auto w = make_workload(name);
  ASSERT_NE(w, nullptr);
  w->setup(dev, Size::Small, 1);
  w->run(dev);
  const CheckResult good = w->check(dev);
  ASSERT_TRUE(good.passed) << good.detail;
  testing::corrupt_one_output(dev, *w);
  const CheckResult bad = w->check(dev);
  EXPECT_FALSE(bad.passed) << bad.detail;
  EXPECT_NE(bad.detail.find("mismatch"), std::string::npos) << bad.detail;
}

// tesla_c2050 occupancy: 1536 threads, 8 CTAs, 32768 registers allocated per
// warp-padded thread in multiples of 4, 48 KB shared memory (not rounded).
struct Occupancy {
  uint32_t regs = 0, smem = 0;
  uint32_t by_threads = 0, by_ctas = 8, by_regs = 0, by_smem = 0;
  uint32_t ctas() const { return std::min({by_threads, by_ctas, by_regs, by_smem}); }
};

inline Occupancy c2050_occupancy(const std::string& workload, const std::string& kernel,
                                 uint32_t threads_per_cta, uint32_t smem_per_sm = 48 * 1024) {
  Device dev;
  auto w = make_workload(workload);
  Occupancy o;
  if (!w) return o;
  const ModuleHandle h =
      dev.load_module_string(embedded_ptx(w->info().ptx_name), w->info().ptx_name + ".ptx");
  const ir::Function* f = dev.impl().module(h).module->find_kernel(kernel);
  EXPECT_NE(f, nullptr) << kernel;
  if (!f) return o;
  o.regs = f->analysis.regs_per_thread;
  o.smem = uint32_t(f->static_shared_bytes);
  const uint32_t padded = (threads_per_cta + 31) / 32 * 32;
  o.by_threads = 1536 / padded;
  const uint32_t regs_cta = (o.regs + 3) / 4 * 4 * padded;
  o.by_regs = regs_cta ? 32768 / regs_cta : 1000;
  o.by_smem = o.smem ? smem_per_sm / o.smem : 1000;
  std::cout << "[ occupancy] " << kernel << ": " << threads_per_cta << " threads, " << o.regs
            << " regs, " << o.smem << " B smem; CTAs by threads " << o.by_threads
            << ", by CTA slots 8, by regs " << o.by_regs << ", by smem (" << smem_per_sm
            << " B) " << o.by_smem << "\n";
  return o;
}

inline void expect_register_limited(const std::string& workload, const std::string& kernel,
                                    uint32_t threads_per_cta) {
  const Occupancy o = c2050_occupancy(workload, kernel, threads_per_cta, 48 * 1024);
  EXPECT_LT(o.by_regs, std::min({o.by_threads, o.by_ctas, o.by_smem})) << kernel;
  EXPECT_LE(o.regs, 63u) << kernel << ": above the C2050's 63 registers per thread";
}

inline void expect_scratchpad_limited(const std::string& workload, const std::string& kernel,
                                      uint32_t threads_per_cta) {
  const Occupancy o = c2050_occupancy(workload, kernel, threads_per_cta, 16 * 1024);
  EXPECT_LT(o.by_smem, std::min({o.by_threads, o.by_ctas, o.by_regs})) << kernel;
}

// Limited by threads or CTA slots, not by registers or shared memory (48 KB).
inline void expect_thread_or_cta_limited(const std::string& workload, const std::string& kernel,
                                         uint32_t threads_per_cta) {
  const Occupancy o = c2050_occupancy(workload, kernel, threads_per_cta);
  EXPECT_LE(std::min(o.by_threads, o.by_ctas), std::min(o.by_regs, o.by_smem)) << kernel;
}

}  // namespace simtlm::workloads::suite
