// DMA interface units (spu.iu.kind = dma; docs/spu.md, "DMA interface
// units"; Rajasree Table 7.1, Table 6.4): the stencil with DMA IUs against
// its CPU reference, the off-chip and CB counts of the truncated-SM IUs,
// no IU instruction, the faces each engine moved (also with overlapped
// passes), the 66.8 W leakage point, and the rejection of what the DMA IUs
// do not support.
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <memory>
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

// A p x p SPU whose interface units are of `kind` (spu.iu.kind), with more overrides.
DeviceOptions options(uint32_t p, const std::string& kind, Backend backend, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> overrides = {"spu.iu.kind=" + kind};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return test::spu_device_options(p, backend, overrides);
}

struct StencilRun {
  CheckResult check;
  LaunchStats stats;
  nlohmann::json launch;  // the launch's statistics
  nlohmann::json tree;    // the run's (energy)
};

StencilRun run_stencil(uint32_t n, uint32_t k, uint32_t p, const std::string& sync, const std::string& kind,
                       Backend backend, const std::vector<std::string>& extra = {},
                       const std::vector<std::string>& args = {}) {
  Device dev(options(p, kind, backend, extra));
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  std::vector<std::string> all_args = {"n=" + std::to_string(n), "k=" + std::to_string(k), "sync=" + sync};
  all_args.insert(all_args.end(), args.begin(), args.end());
  apply_run_args(*w, all_args);
  w->setup(dev, Size::Small, 1);
  StencilRun r;
  const std::vector<LaunchStats> all = w->run(dev);
  EXPECT_EQ(all.size(), 1u);
  r.stats = all.at(0);
  r.check = w->check(dev);
  if (backend == Backend::Timing) {
    r.launch = nlohmann::json::parse(r.stats.stats_json());
    r.tree = nlohmann::json::parse(dev.backend_stats_json());
  }
  return r;
}

uint64_t stat(const nlohmann::json& j, const std::string& key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) {
    ADD_FAILURE() << "no statistic " << key;
    return ~uint64_t{0};
  }
  return it->get<uint64_t>();
}

// The faces the DMA IUs moved (one transfer each), and no instruction on an
// IU node.
uint64_t dma_transfers(const nlohmann::json& launch, uint32_t p) {
  uint64_t transfers = 0;
  for (uint32_t i = 0; i < 4 * p; ++i) {
    const std::string iu = "gpu.spu.iu[" + std::to_string(i) + "].";
    transfers += stat(launch, iu + "dma_transfers");
    EXPECT_EQ(stat(launch, iu + "warp_instructions"), 0u) << iu;
  }
  return transfers;
}

// The DMA IUs of an N x N grid of b = 32 tiles on p x p SMs, each moving
// ceil(K/32) faces: every lane's four real IUs sit on IU nodes, except the
// east and south ones of a grid whose last pass (or only pass) is partial,
// which are grid SMs next to it and run the IU code.
uint64_t expected_transfers(uint32_t n, uint32_t k, uint32_t p) {
  const uint32_t cols = (n + 31) / 32, nk = (k + 31) / 32;
  return uint64_t{cols % p != 0 ? 2 * cols : 4 * cols} * nk;
}

using Case = std::tuple<uint32_t, uint32_t, uint32_t, std::string>;  // N, K, p, sync
class SpuDma : public ::testing::TestWithParam<Case> {};

// The same stencil with DMA IUs: the CPU reference, the truncated-SM IUs'
// off-chip accesses (functional backend, spu.iu.kind = sm), no instruction
// on an IU node, and one transfer per face of every IU on its own node.
TEST_P(SpuDma, StencilMatchesTheReferenceAndTheSmIusCounts) {
  const auto& [n, k, p, sync] = GetParam();
  const StencilRun dma = run_stencil(n, k, p, sync, "dma", Backend::Timing);
  const StencilRun sm = run_stencil(n, k, p, sync, "sm", Backend::Functional);
  EXPECT_TRUE(dma.check.passed) << dma.check.detail;
  EXPECT_TRUE(sm.check.passed) << sm.check.detail;
  EXPECT_EQ(dma.stats.offchip_accesses, sm.stats.offchip_accesses);
  EXPECT_LT(dma.stats.warp_instructions, sm.stats.warp_instructions);
  EXPECT_EQ(stat(dma.launch, "gpu.spu.iu_warp_instructions"), 0u);
  EXPECT_EQ(dma_transfers(dma.launch, p), expected_transfers(n, k, p));
}

// Whole grids, a partial grid (2 x 2 CTAs on p = 4), passes (128^3 on p = 2),
// partial tiles (48 x 48 x 40), both schemes.
INSTANTIATE_TEST_SUITE_P(GridsAndSyncs, SpuDma,
                         ::testing::Values(Case{64, 64, 2, "local"}, Case{64, 64, 2, "global"},
                                           Case{64, 64, 4, "local"}, Case{64, 64, 4, "global"},
                                           Case{128, 128, 2, "local"}, Case{128, 128, 2, "global"},
                                           Case{128, 128, 4, "local"}, Case{128, 128, 4, "global"},
                                           Case{48, 40, 2, "local"}, Case{48, 40, 2, "global"}));

// DMA IUs with overlapped passes (spu.passes = overlapped): each IU node runs
// its face stream once per pass of its node's sequence, between its virtual
// IU roles. The CPU reference, the pass-by-pass counts of the truncated-SM
// IUs (functional backend: off-chip accesses, passes, VIU faces) and one
// transfer per face; the scoreboard's statistics show the mode ran.
class SpuDmaOverlapped : public ::testing::TestWithParam<Case> {};

TEST_P(SpuDmaOverlapped, MatchesTheReferenceAndThePassByPassCounts) {
  const auto& [n, k, p, sync] = GetParam();
  const StencilRun dma = run_stencil(n, k, p, sync, "dma", Backend::Timing, {"spu.passes=overlapped"});
  const StencilRun sm = run_stencil(n, k, p, sync, "sm", Backend::Functional);
  EXPECT_TRUE(dma.check.passed) << dma.check.detail;
  EXPECT_TRUE(sm.check.passed) << sm.check.detail;
  EXPECT_EQ(dma.stats.offchip_accesses, sm.stats.offchip_accesses);
  EXPECT_EQ(dma.stats.spu_passes, sm.stats.spu_passes);
  EXPECT_GT(dma.stats.spu_passes, 1u);
  EXPECT_EQ(dma.stats.viu_spills, sm.stats.viu_spills);
  EXPECT_EQ(dma.stats.viu_restores, sm.stats.viu_restores);
  EXPECT_EQ(stat(dma.launch, "gpu.spu.passes"), sm.stats.spu_passes);
  EXPECT_EQ(dma_transfers(dma.launch, p), expected_transfers(n, k, p));
  EXPECT_TRUE(dma.launch.contains("gpu.spu.iu[0].viu_restore_waits"));
}

// 2 x 2 passes of 2 x 2 SMs; 3 x 3 CTAs on p = 2 (partial passes: the east
// and south IUs of the last ones are grid SMs), both schemes.
INSTANTIATE_TEST_SUITE_P(Passes, SpuDmaOverlapped,
                         ::testing::Values(Case{128, 64, 2, "local"}, Case{128, 64, 2, "global"},
                                           Case{96, 40, 2, "local"}, Case{96, 40, 2, "global"}));

// Table 6.3's count at 128^3 (either scheme), and the DMA IUs' CB accesses
// against the truncated-SM IUs' (264,192 at 128^3, docs/spu.md "Measured",
// recorded before the DMA IUs existed): the engine touches the CB bank rows
// the IU code's warps touch. A 32-word face row is one 128-byte line.
// (One timing device per process: the SM IUs' figure is the recorded one.)
TEST(SpuDmaCounts, Table63AndTheSmIusCbAccesses) {
  const StencilRun dma = run_stencil(128, 128, 4, "local", "dma", Backend::Timing);
  EXPECT_TRUE(dma.check.passed) << dma.check.detail;
  EXPECT_EQ(dma.stats.offchip_accesses, 98304u);
  EXPECT_EQ(stat(dma.launch, "gpu.spu.cb_accesses"), 264192u);
  uint64_t lines = 0;
  for (uint32_t i = 0; i < 16; ++i) lines += stat(dma.launch, "gpu.spu.iu[" + std::to_string(i) + "].dma_transactions");
  EXPECT_EQ(lines, 16u * 4 * 32);  // 16 IUs x 4 faces x 32 rows
}

// Table 6.4: 66.8 W with DMA IUs (16 SMs, 16 DMA IUs, 80 CBs of 4 KB, caches
// off as the thesis ran it), against 79.1 W with truncated-SM IUs: -15 %.
TEST(SpuDmaLeakage, IsTheThesisTable64Figure) {
  const std::vector<std::string> off = {"gpu.power.enabled=true", "gpu.l1d.enabled=false", "gpu.l2.enabled=false"};
  const StencilRun dma = run_stencil(64, 64, 4, "local", "dma", Backend::Timing, off);
  const nlohmann::json& total = dma.tree["energy"]["total"];
  EXPECT_NEAR(total["leakage_power_w"].get<double>(), 66.8, 1e-9);
  EXPECT_TRUE(total["leakage_j"].contains("dma_iu"));
  EXPECT_FALSE(total["leakage_j"].contains("iu"));
  EXPECT_GT(total["dynamic_j"]["CBP"].get<double>(), 0.0);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SpuDmaRejects, TheFunctionalBackend) {
  const std::string msg = error_of([] { Device dev(options(2, "dma", Backend::Functional)); });
  EXPECT_NE(msg.find("spu.iu.kind = dma is built on the timing backend only"), std::string::npos) << msg;
}

TEST(SpuDmaRejects, KeysOutsideTheirKind) {
  auto load = [](const std::vector<std::pair<std::string, std::string>>& kv) {
    return error_of([&] {
      Config c;
      for (const auto& [key, value] : kv) c.set(key, value);
      c.validate();
    });
  };
  std::string msg = load({{"spu.iu.kind", "dma"}});
  EXPECT_NE(msg.find("spu.iu.kind applies only with sim.platform = spu"), std::string::npos) << msg;
  msg = load({{"sim.platform", "spu"}, {"gpu.num_sms", "16"}, {"spu.power.dma_iu_leakage_w", "1"}});
  EXPECT_NE(msg.find("spu.power.dma_iu_leakage_w applies only with spu.iu.kind = dma"), std::string::npos) << msg;
  msg = load({{"sim.platform", "spu"}, {"gpu.num_sms", "16"}, {"spu.iu.kind", "dma"}, {"spu.power.iu_leakage_w", "1"}});
  EXPECT_NE(msg.find("spu.power.iu_leakage_w is the leakage of a truncated-SM interface unit"), std::string::npos)
      << msg;
}

// A kernel whose parameters do not follow the face-stream contract cannot
// run on DMA IUs: the launch names the kernel, the rule and the key.
TEST(SpuDmaRejects, AKernelOutsideTheContract) {
  namespace ptx = functional::test;
  Device dev(options(1, "dma", Backend::Timing));
  const ModuleHandle m = dev.load_module_string(std::string(ptx::kSpuHeader) + ptx::kOne, "spu_test.ptx");
  LaunchConfig c;
  c.grid = {1, 1, 1};
  c.block = {32, 1, 1};
  const std::string msg =
      error_of([&] { dev.launch(m, "one", c, KernelArgs().add(uint32_t(2)).add(uint32_t(0)).add(uint32_t(0))); });
  EXPECT_NE(msg.find("kernel 'one' cannot run with spu.iu.kind = dma: parameter 1 (west/east face array) must be a 64-bit "
                     "scalar"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("run it with spu.iu.kind = sm"), std::string::npos) << msg;
}

// The sub-tiled kernels (method=subtiled) share the row kernel's IU code but
// take their tile side from a two-dimensional block (T x T threads, b = T S
// with S a compile-time constant), which the contract cannot read: the
// launch is rejected naming the rule and the key, not run with wrong faces.
TEST(SpuDmaRejects, TheSubtiledKernels) {
  const std::string msg =
      error_of([] { run_stencil(64, 64, 2, "local", "dma", Backend::Timing, {}, {"method=subtiled"}); });
  EXPECT_NE(msg.find("kernel 'spu_stencil_cb_s4' cannot run with spu.iu.kind = dma: the tile side is blockDim.x: "
                     "the block must be one-dimensional"),
            std::string::npos)
      << msg;
}

// A kernel that follows the contract but whose SM skips every rendezvous:
// the DMA IUs wait for a partner that has finished, and the launch ends with
// the deadlock report naming them as DMA IUs.
constexpr const char* kSkipper = R"(
.visible .entry skipper(.param .u64 a, .param .u64 fx, .param .u64 fy, .param .u64 out,
                        .param .u32 n, .param .u32 k, .param .u32 sync)
{
  .reg .b32 %r<2>;
  spu.sreg.u32 %r1, isiu;
  ret;
}
)";

// Runs kSkipper (its SM leaves without the rendezvous its IUs wait for) on a
// grid of grid_x x 1 CTAs of p = 1 with DMA IUs and expects a deadlock whose
// report holds every part.
void expect_skipper_deadlock(const std::vector<std::string>& extra, uint32_t grid_x,
                             std::initializer_list<const char*> parts) {
  namespace ptx = functional::test;
  Device dev(options(1, "dma", Backend::Timing, extra));
  const ModuleHandle m = dev.load_module_string(std::string(ptx::kSpuHeader) + kSkipper, "skipper.ptx");
  const DevicePtr fx = dev.malloc(32 * 32 * 4), fy = dev.malloc(32 * 32 * 4);
  LaunchConfig c;
  c.grid = {grid_x, 1, 1};
  c.block = {32, 1, 1};
  try {
    dev.launch(m, "skipper", c,
               KernelArgs().add(fx).add(fx).add(fy).add(fx).add(int32_t(32)).add(int32_t(32)).add(int32_t(0)));
    ADD_FAILURE() << "ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Deadlock);
    const std::string msg = e.what();
    for (const char* part : parts) EXPECT_NE(msg.find(part), std::string::npos) << part << " not in: " << msg;
  }
}

TEST(SpuDmaDeadlock, ASkippedRendezvousNamesTheDmaIus) {
  expect_skipper_deadlock({}, 1,
                          {"IU west 0 (DMA IU) waits at bar.blocksync.east for SM (0,0), which has finished",
                           "IU south 0 (DMA IU) waits at bar.blocksync.north for SM (0,0), which has finished"});
}

// The same with overlapped passes (2 x 1 CTAs on p = 1): pass (0,0)'s DMA
// IUs wait for its finished SM, so their nodes never take up pass (1,0)'s
// units; the fabric reports it across the live passes (not the watchdog).
TEST(SpuDmaDeadlock, OverlappedPassesNameTheDmaIus) {
  expect_skipper_deadlock({"spu.passes=overlapped"}, 2,
                          {"overlapped passes", "pass (0,0):",
                           "IU west 0 (DMA IU) waits at bar.blocksync.east for SM (0,0), which has finished"});
}

}  // namespace
}  // namespace simtlm::workloads
