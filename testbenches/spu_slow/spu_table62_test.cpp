// Table 6.2's multi-pass cases of the SPU stencil on the thesis's 4 x 4 grid
// (docs/spu.md "Passes"; note §4.2, §4.4, Table 6.3), too slow for the
// default suite (label `slow`): the exact off-chip access counts and the
// results against the CPU reference at 256^3.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "../functional/harness.h"
#include "simtlm/device.h"
#include "workloads/workload.h"

namespace simtlm {
namespace {

using functional::test::Args;
using functional::test::dim;
using functional::test::Harness;

std::string stencil_ptx() {
  std::ifstream in(std::string(SIMTLM_SOURCE_DIR) + "/workloads/spu_stencil/kernel.ptx");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// kernel: the row kernel spu_stencil_cb (32 threads per CTA) or the sub-tiled
// spu_stencil_cb_s4 (8 x 8 threads): the same IU code, so the same counts.
uint64_t offchip(uint32_t n, uint32_t k, int32_t global_sync, const std::string& kernel = "spu_stencil_cb") {
  const uint32_t p = 4;
  Harness h(stencil_ptx(), "spu_stencil.ptx");
  const uint64_t a = h.alloc(uint64_t(n) * n * 4), out = h.alloc(uint64_t(n) * n * 4);
  const uint64_t fx = h.alloc(uint64_t(n) * k * 4), fy = h.alloc(uint64_t(n) * k * 4);
  const uint32_t cols = (n + 31) / 32;
  functional::LaunchRequest r =
      h.request(kernel, dim(cols, cols), kernel == "spu_stencil_cb" ? dim(32) : dim(8, 8),
                Args().add(a).add(fx).add(fy).add(out).add(int32_t(n)).add(int32_t(k)).add(global_sync));
  r.spu_grid_size = p;
  r.spu_cb_bytes = 4096;
  return functional::run_launch(r, h.memory()).offchip_accesses;
}

// Table 6.3: 655,360 with the producer-consumer sync and 1,179,648 with the
// global one at 256^3 (2 x 2 passes).
TEST(SpuTable62, OffchipAccessesAt256AreTable63) {
  for (const char* kernel : {"spu_stencil_cb", "spu_stencil_cb_s4"}) {
    EXPECT_EQ(offchip(256, 256, 0, kernel), 655360u) << kernel;
    EXPECT_EQ(offchip(256, 256, 1, kernel), 1179648u) << kernel;
  }
}

// The formula 2 N^2 + 4 N K ceil(N / (p b)) on Table 6.2's partial-pass case
// 320^3 (10 x 10 CTAs: 3 x 3 passes, the last column and row of passes 2
// wide) and on 256 x 256 x 512 (K != N); the figures are the note's table.
TEST(SpuTable62, OffchipAccessesOfPartialPassesAndLongerK) {
  for (const char* kernel : {"spu_stencil_cb", "spu_stencil_cb_s4"}) {
    EXPECT_EQ(offchip(320, 320, 0, kernel), 1433600u) << kernel;
    EXPECT_EQ(offchip(256, 512, 0, kernel), 1179648u) << kernel;
  }
}

TEST(SpuTable62, StencilAt256MatchesTheReferenceInBothSyncSchemes) {
  for (const char* method : {"rows", "subtiled"}) {
    for (const char* sync : {"local", "global"}) {
      setenv("SIMTLM_SPU_STENCIL_SYNC", sync, 1);
      setenv("SIMTLM_SPU_STENCIL_N", "256", 1);
      auto cfg = std::make_shared<Config>();
      cfg->set("sim.platform", "spu");
      cfg->set("spu.grid_size", "4");
      cfg->set("gpu.num_sms", "16");
      cfg->validate();
      DeviceOptions o;
      o.backend = Backend::Functional;
      o.config = cfg;
      Device dev(o);
      std::unique_ptr<workloads::Workload> w = workloads::WorkloadRegistry::create("spu_stencil");
      workloads::apply_run_args(*w, {std::string("method=") + method});
      w->setup(dev, workloads::Size::Default, 1);
      const std::vector<LaunchStats> stats = w->run(dev);
      const workloads::CheckResult c = w->check(dev);
      unsetenv("SIMTLM_SPU_STENCIL_SYNC");
      unsetenv("SIMTLM_SPU_STENCIL_N");
      EXPECT_TRUE(c.passed) << method << ", " << sync << ": " << c.detail;
      ASSERT_EQ(stats.size(), 1u);
      EXPECT_EQ(stats[0].ctas, 64u);
    }
  }
}

}  // namespace
}  // namespace simtlm
