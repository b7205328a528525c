// Multi-pass SPU launches on the timing backend (docs/spu.md, "Passes" and
// "The timing model"; note §1.7): the stencil on grids larger than p x p
// against its CPU reference, its off-chip accesses against the functional
// backend and the analytic formula 2N^2 + 4NK ceil(N/(pb)) (note §4.2), the
// passes and the virtual IUs' spills/restores per IU against the functional
// backend and counted by hand, and a deadlock in a later pass.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "../functional_spu/spu_ptx.h"
#include "simtlm/device.h"
#include "spu_options.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

DeviceOptions options(uint32_t p, Backend backend) { return test::spu_device_options(p, backend); }

struct StencilRun {
  CheckResult check;
  LaunchStats stats;
  nlohmann::json timing;  // the launch's statistics (timing backend)
};

StencilRun run_stencil(uint32_t n, uint32_t k, uint32_t p, const std::string& sync, Backend backend,
                       const std::string& method) {
  Device dev(options(p, backend));
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  apply_run_args(*w, {"n=" + std::to_string(n), "k=" + std::to_string(k), "sync=" + sync, "method=" + method});
  w->setup(dev, Size::Small, 1);
  StencilRun r;
  const std::vector<LaunchStats> all = w->run(dev);
  EXPECT_EQ(all.size(), 1u);
  r.stats = all.at(0);
  r.check = w->check(dev);
  if (backend == Backend::Timing) r.timing = nlohmann::json::parse(r.stats.stats_json());
  return r;
}

uint64_t sum(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); }

// Note §4.2 generalised to K and partial passes: passes per axis ceil(N/(pb)).
uint64_t localized_formula(uint64_t n, uint64_t k, uint64_t p) {
  const uint64_t passes = (n + 32 * p - 1) / (32 * p);
  return 2 * n * n + 4 * n * k * passes;
}

using Case = std::tuple<uint32_t, uint32_t, uint32_t, std::string, std::string>;  // N, K, p, sync, method
class SpuTimingPasses : public ::testing::TestWithParam<Case> {};

TEST_P(SpuTimingPasses, StencilMatchesTheReferenceAndTheFunctionalBackend) {
  const auto& [n, k, p, sync, method] = GetParam();
  const StencilRun timed = run_stencil(n, k, p, sync, Backend::Timing, method);
  const StencilRun func = run_stencil(n, k, p, sync, Backend::Functional, method);
  EXPECT_EQ(timed.stats.kernel, method == "rows" ? "spu_stencil_cb" : "spu_stencil_cb_s4");
  EXPECT_TRUE(timed.check.passed) << timed.check.detail;
  EXPECT_TRUE(func.check.passed) << func.check.detail;
  EXPECT_EQ(timed.stats.warp_instructions, func.stats.warp_instructions);
  EXPECT_EQ(timed.stats.offchip_accesses, func.stats.offchip_accesses);
  if (sync == "local") {
    EXPECT_EQ(timed.stats.offchip_accesses, localized_formula(n, k, p));
  }
  const uint32_t cols = n / 32, passes_per_axis = (cols + p - 1) / p;
  EXPECT_EQ(timed.stats.spu_passes, passes_per_axis * passes_per_axis);
  EXPECT_EQ(func.stats.spu_passes, timed.stats.spu_passes);
  EXPECT_EQ(timed.stats.viu_spills, func.stats.viu_spills);
  EXPECT_EQ(timed.stats.viu_restores, func.stats.viu_restores);
  ASSERT_EQ(timed.stats.viu_spills.size(), 4u * p);
  // Every spilled face is restored, each a whole 4 KB CB (1024 words): the
  // off-chip count is the single-grid traffic plus these words.
  EXPECT_EQ(sum(timed.stats.viu_spills), sum(timed.stats.viu_restores));
  if (sync == "local") {
    // Directed sync: one spill per producer sync, K/32 per lane of every
    // internal boundary: (passes - 1) boundaries per axis, N/32 lanes each.
    EXPECT_EQ(sum(timed.stats.viu_spills), 2ull * (passes_per_axis - 1) * cols * (k / 32));
  }
  if (n == 64 && p == 1 && sync == "local") {
    // By hand: iu[k] is north 0, west 1, south 2, east 3. The east IU spills
    // in passes (0,0) and (0,1), the south one in (0,0) and (1,0), two faces
    // (K/32) each; the west and north ones restore them in the next pass.
    EXPECT_EQ(timed.stats.viu_spills, (std::vector<uint64_t>{0, 0, 4, 4}));
    EXPECT_EQ(timed.stats.viu_restores, (std::vector<uint64_t>{4, 4, 0, 0}));
  }
  EXPECT_EQ(timed.stats.offchip_accesses, 2ull * n * n + 4ull * n * k + 2 * 1024 * sum(timed.stats.viu_spills));
  // The statistics tree counts them per IU node too.
  auto stat = [&](const std::string& key) {
    const auto it = timed.timing.find("gpu.spu." + key);
    if (it == timed.timing.end() || !it->is_number()) {
      ADD_FAILURE() << "no statistic gpu.spu." << key;
      return uint64_t{0};
    }
    return it->get<uint64_t>();
  };
  EXPECT_EQ(stat("viu_spills"), sum(timed.stats.viu_spills));
  EXPECT_EQ(stat("viu_restores"), sum(timed.stats.viu_restores));
  EXPECT_EQ(stat("passes"), timed.stats.spu_passes);
  for (uint32_t i = 0; i < 4 * p; ++i) {
    const std::string iu = "iu[" + std::to_string(i) + "].";
    EXPECT_EQ(stat(iu + "viu_spills"), timed.stats.viu_spills[i]) << iu;
    EXPECT_EQ(stat(iu + "viu_restores"), timed.stats.viu_restores[i]) << iu;
    EXPECT_EQ(stat(iu + "viu_transfers"), timed.stats.viu_spills[i] + timed.stats.viu_restores[i]) << iu;
    // 4 KB in 128-byte lines.
    EXPECT_EQ(stat(iu + "viu_transactions"), 32 * (timed.stats.viu_spills[i] + timed.stats.viu_restores[i])) << iu;
  }
}

// 2 x 2 passes of one SM; 3 CTAs per axis on p = 2 (partial passes, their
// east/south IUs on grid SMs); both synchronisation schemes; the row kernel
// and the sub-tiled one (method=subtiled: 8 x 8 threads, 4 x 4 sub-tiles).
INSTANTIATE_TEST_SUITE_P(GridsAndSyncs, SpuTimingPasses,
                         ::testing::Values(Case{64, 64, 1, "local", "rows"}, Case{96, 64, 2, "local", "rows"},
                                           Case{64, 64, 1, "global", "rows"}, Case{96, 64, 2, "global", "rows"},
                                           Case{96, 64, 2, "local", "subtiled"},
                                           Case{96, 64, 2, "global", "subtiled"},
                                           Case{64, 64, 1, "local", "subtiled"}));

// The formula by hand for one case, independently of the helper above.
TEST(SpuTimingPassesFormula, ByHand) { EXPECT_EQ(localized_formula(96, 64, 2), 2u * 96 * 96 + 4u * 96 * 64 * 2); }

// A deadlock in a later pass names the pass and the units, as the functional
// backend does: CTA (1, 0) runs in pass (1,0) on SM (0,0) and waits at
// bar.blocksync.east for the real east IU, which skipped it.
TEST(SpuTimingPassesDeadlock, ADeadlockInALaterPassNamesThePass) {
  namespace ptx = functional::test;
  Device dev(options(1, Backend::Timing));
  const ModuleHandle m = dev.load_module_string(std::string(ptx::kSpuHeader) + ptx::kOne, "spu_test.ptx");
  LaunchConfig c;
  c.grid = {2, 1, 1};
  c.block = {32, 1, 1};
  try {
    dev.launch(m, "one", c, KernelArgs().add(uint32_t(2)).add(uint32_t(0)).add(uint32_t(0)));
    ADD_FAILURE() << "ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Deadlock);
    const std::string msg = e.what();
    for (const char* part : {"kernel 'one'", "pass (1,0) of 2x1",
                             "SM (0,0) (CTA (1,0,0)) waits at bar.blocksync.east for IU east 0, which has finished"})
      EXPECT_NE(msg.find(part), std::string::npos) << part << " not in: " << msg;
  }
}

}  // namespace
}  // namespace simtlm::workloads
