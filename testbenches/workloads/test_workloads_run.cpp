// End-to-end runs of the workloads on the functional backend: Small size
// passes the CPU check, results do not depend on the warp width, the check can
// fail, and runs are deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "workload_harness.h"

namespace simtlm::workloads::testing {
namespace {

const std::vector<std::string> kWorkloads = {"vectorAdd", "sgemm", "reduction", "bfs",
                                             "hotspot",   "histogram", "spmv"};

// ---- registry and metadata ---------------------------------------------------

TEST(WorkloadRegistry, AllSevenRegisteredWithConsistentInfo) {
  const std::set<std::string> classes = {"register-limited", "scratchpad-limited",
                                         "cache-sensitive",  "thread-limited",
                                         "divergent",        "convergent", "stencil"};
  const std::vector<std::string> names = WorkloadRegistry::names();
  for (const std::string& name : kWorkloads) {
    SCOPED_TRACE(name);
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end());
    auto w = make_workload(name);
    ASSERT_NE(w, nullptr);
    const WorkloadInfo info = w->info();
    EXPECT_EQ(info.name, name);
    EXPECT_FALSE(info.description.empty());
    EXPECT_EQ(classes.count(info.klass), 1u) << "class '" << info.klass << "'";
    EXPECT_FALSE(embedded_ptx(info.ptx_name).empty());
    EXPECT_NE(dynamic_cast<HasOutputs*>(w.get()), nullptr);
  }
}

// ---- Small size passes the CPU check (warp size 32) ---------------------------

void expect_small_passes(const std::string& name) {
  const RunResult r = run_workload(name);
  EXPECT_TRUE(r.check.passed) << r.check.detail;
  EXPECT_FALSE(r.check.detail.empty());
  ASSERT_FALSE(r.stats.empty());
  EXPECT_GT(r.thread_instructions, 0u);
  EXPECT_GE(r.thread_instructions, r.warp_instructions);
  std::cout << "[ detail   ] " << name << ": " << r.check.detail << "\n"
            << "[ counts   ] " << name << ": " << r.stats.size() << " launch(es), "
            << r.warp_instructions << " warp / " << r.thread_instructions
            << " thread instructions\n";
}

TEST(WorkloadSmall, VectorAdd) { expect_small_passes("vectorAdd"); }
TEST(WorkloadSmall, Sgemm) { expect_small_passes("sgemm"); }
TEST(WorkloadSmall, Reduction) { expect_small_passes("reduction"); }
TEST(WorkloadSmall, Bfs) { expect_small_passes("bfs"); }
TEST(WorkloadSmall, Hotspot) { expect_small_passes("hotspot"); }
TEST(WorkloadSmall, Histogram) { expect_small_passes("histogram"); }
TEST(WorkloadSmall, Spmv) { expect_small_passes("spmv"); }

// ---- warp width independence --------------------------------------------------
// None of these kernels uses warp-level primitives, so each thread computes
// the same values in the same order whatever the warp width: outputs must be
// bit-identical to the 32-wide run and pass the check. (reduction's shuffles
// assume CUDA's 32-lane warps and are not run at other widths.)

void expect_same_as_warp32(const std::string& name, unsigned warp_size) {
  const RunResult base = run_workload(name, Size::Small, 1, 32);
  const RunResult other = run_workload(name, Size::Small, 1, warp_size);
  EXPECT_TRUE(other.check.passed) << other.check.detail;
  ASSERT_EQ(base.outputs.size(), other.outputs.size());
  for (size_t i = 0; i < base.outputs.size(); ++i)
    EXPECT_TRUE(base.outputs[i] == other.outputs[i]) << "output " << i << " differs";
  // Same number of launches (bfs: same number of levels).
  EXPECT_EQ(base.stats.size(), other.stats.size());
}

TEST(WorkloadWarpSize, VectorAddWarp8) { expect_same_as_warp32("vectorAdd", 8); }
TEST(WorkloadWarpSize, VectorAddWarp64) { expect_same_as_warp32("vectorAdd", 64); }
TEST(WorkloadWarpSize, SgemmWarp8) { expect_same_as_warp32("sgemm", 8); }
TEST(WorkloadWarpSize, SgemmWarp64) { expect_same_as_warp32("sgemm", 64); }
TEST(WorkloadWarpSize, BfsWarp8) { expect_same_as_warp32("bfs", 8); }
TEST(WorkloadWarpSize, BfsWarp64) { expect_same_as_warp32("bfs", 64); }
TEST(WorkloadWarpSize, HistogramWarp8) { expect_same_as_warp32("histogram", 8); }
TEST(WorkloadWarpSize, HistogramWarp64) { expect_same_as_warp32("histogram", 64); }
TEST(WorkloadWarpSize, SpmvWarp8) { expect_same_as_warp32("spmv", 8); }
TEST(WorkloadWarpSize, SpmvWarp64) { expect_same_as_warp32("spmv", 64); }
TEST(WorkloadWarpSize, HotspotWarp8) { expect_same_as_warp32("hotspot", 8); }
TEST(WorkloadWarpSize, HotspotWarp64) { expect_same_as_warp32("hotspot", 64); }

// ---- the check can fail -------------------------------------------------------

void expect_corruption_detected(const std::string& name) {
  Device dev;
  auto w = make_workload(name);
  ASSERT_NE(w, nullptr);
  w->setup(dev, Size::Small, 1);
  w->run(dev);
  const CheckResult good = w->check(dev);
  ASSERT_TRUE(good.passed) << good.detail;
  corrupt_one_output(dev, *w);
  const CheckResult bad = w->check(dev);
  EXPECT_FALSE(bad.passed) << bad.detail;
  EXPECT_NE(bad.detail.find("mismatch"), std::string::npos) << bad.detail;
}

TEST(WorkloadNegative, VectorAddCorruptedOutputFails) { expect_corruption_detected("vectorAdd"); }
TEST(WorkloadNegative, SgemmCorruptedOutputFails) { expect_corruption_detected("sgemm"); }
TEST(WorkloadNegative, ReductionCorruptedOutputFails) { expect_corruption_detected("reduction"); }
TEST(WorkloadNegative, BfsCorruptedOutputFails) { expect_corruption_detected("bfs"); }
TEST(WorkloadNegative, HotspotCorruptedOutputFails) { expect_corruption_detected("hotspot"); }
TEST(WorkloadNegative, HistogramCorruptedOutputFails) { expect_corruption_detected("histogram"); }
TEST(WorkloadNegative, SpmvCorruptedOutputFails) { expect_corruption_detected("spmv"); }

// ---- determinism --------------------------------------------------------------

void expect_deterministic(const std::string& name) {
  const RunResult a = run_workload(name, Size::Small, 7);
  const RunResult b = run_workload(name, Size::Small, 7);
  ASSERT_EQ(a.stats.size(), b.stats.size());
  for (size_t i = 0; i < a.stats.size(); ++i) {
    EXPECT_EQ(a.stats[i].kernel, b.stats[i].kernel) << "launch " << i;
    EXPECT_EQ(a.stats[i].ctas, b.stats[i].ctas) << "launch " << i;
    EXPECT_EQ(a.stats[i].warp_instructions, b.stats[i].warp_instructions) << "launch " << i;
    EXPECT_EQ(a.stats[i].thread_instructions, b.stats[i].thread_instructions) << "launch " << i;
  }
  EXPECT_TRUE(a.outputs == b.outputs) << "outputs differ between two runs with the same seed";
  EXPECT_EQ(a.check.detail, b.check.detail);
  // A different seed gives different inputs (guards against an ignored seed).
  const RunResult c = run_workload(name, Size::Small, 8);
  EXPECT_TRUE(c.check.passed) << c.check.detail;
  EXPECT_FALSE(a.outputs == c.outputs) << "seed 7 and seed 8 gave identical outputs";
}

TEST(WorkloadDeterminism, VectorAdd) { expect_deterministic("vectorAdd"); }
TEST(WorkloadDeterminism, Sgemm) { expect_deterministic("sgemm"); }
TEST(WorkloadDeterminism, Reduction) { expect_deterministic("reduction"); }
TEST(WorkloadDeterminism, Bfs) { expect_deterministic("bfs"); }
TEST(WorkloadDeterminism, Hotspot) { expect_deterministic("hotspot"); }
TEST(WorkloadDeterminism, Histogram) { expect_deterministic("histogram"); }
TEST(WorkloadDeterminism, Spmv) { expect_deterministic("spmv"); }

// run() may be called again on the same device (each run restores the inputs
// it overwrites): the second run gives the same counts and a passing check.
TEST(WorkloadDeterminism, RepeatedRunOnOneDevice) {
  for (const std::string& name : kWorkloads) {
    SCOPED_TRACE(name);
    Device dev;
    auto w = make_workload(name);
    ASSERT_NE(w, nullptr);
    w->setup(dev, Size::Small, 3);
    const auto first = w->run(dev);
    const auto second = w->run(dev);
    ASSERT_EQ(first.size(), second.size());
    for (size_t i = 0; i < first.size(); ++i)
      EXPECT_EQ(first[i].thread_instructions, second[i].thread_instructions);
    const CheckResult r = w->check(dev);
    EXPECT_TRUE(r.passed) << r.detail;
  }
}

}  // namespace
}  // namespace simtlm::workloads::testing
