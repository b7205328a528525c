// The spu_stencil workload's run arguments (Workload::run_args, apply_run_args)
// and its GPU baseline, Ranasinghe's single launch with atomics (note §4.3):
// results against the CPU reference on both backends and its off-chip
// accesses against Eq 3.3.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "simtlm/device.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

std::shared_ptr<Config> platform_config(uint32_t spu_p, uint32_t cb_bytes = 4096) {
  auto cfg = std::make_shared<Config>();
  if (spu_p != 0) {
    cfg->set("sim.platform", "spu");
    cfg->set("spu.grid_size", std::to_string(spu_p));
    cfg->set("gpu.num_sms", std::to_string(spu_p * spu_p));
    cfg->set("spu.cb_bytes", std::to_string(cb_bytes));
  }
  cfg->validate();
  return cfg;
}

struct StencilRun {
  CheckResult check;
  std::vector<LaunchStats> stats;
};

StencilRun run(const std::vector<std::string>& args, uint32_t spu_p = 0, Backend backend = Backend::Functional,
        Size size = Size::Small, uint32_t cb_bytes = 4096) {
  DeviceOptions o;
  o.backend = backend;
  o.config = platform_config(spu_p, cb_bytes);
  Device dev(o);
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  apply_run_args(*w, args);
  w->setup(dev, size, 1);
  StencilRun r;
  r.stats = w->run(dev);
  r.check = w->check(dev);
  return r;
}

std::string error_of(const std::vector<std::string>& args, uint32_t spu_p, ErrorKind kind) {
  try {
    run(args, spu_p);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

uint64_t offchip(const StencilRun& r) {
  uint64_t sum = 0;
  for (const LaunchStats& s : r.stats) sum += s.offchip_accesses;
  return sum;
}

TEST(SpuStencilArgs, BadArgumentsAreErrorsNamingTheArgument) {
  auto has = [](const std::string& m, const std::string& part) {
    EXPECT_NE(m.find(part), std::string::npos) << "'" << part << "' not in: " << m;
  };
  has(error_of({"n"}, 0, ErrorKind::Usage), "--arg 'n': expected key=value");
  has(error_of({"size=3"}, 0, ErrorKind::Usage), "takes no run argument 'size' (it takes: n, k, b, subtile, p, sync, method)");
  has(error_of({"n=2", "n=3"}, 0, ErrorKind::Usage), "--arg n is given twice");
  has(error_of({"n=0"}, 0, ErrorKind::Usage), "--arg n=0: expected an integer in [1, 1024]");
  has(error_of({"k=12x"}, 0, ErrorKind::Usage), "--arg k=12x");
  has(error_of({"method=fast"}, 0, ErrorKind::Usage), "--arg method=fast: expected diag or atomic");
  has(error_of({"sync=local"}, 0, ErrorKind::Config), "--arg sync: applies to the SPU version only");
  has(error_of({"method=atomic"}, 2, ErrorKind::Usage), "--arg method=atomic: expected rows or subtiled on the SPU");
  has(error_of({"method=rows"}, 0, ErrorKind::Usage), "--arg method=rows: expected diag or atomic on the GPU");
  has(error_of({"b=16"}, 0, ErrorKind::Config), "(method=diag) is compiled for b = 32, subtile 4 only");
  has(error_of({"subtile=2"}, 0, ErrorKind::Config), "other tiles run with --arg method=atomic");
  has(error_of({"method=atomic", "b=64", "subtile=4"}, 0, ErrorKind::Config),
      "--arg b=64 subtile=4: spu_stencil_gpu is compiled for (b, subtile) in (32, 4), (16, 2)");
  has(error_of({"method=atomic", "b=24"}, 0, ErrorKind::Config), "must fit 48 KB of shared memory");
  has(error_of({"method=rows", "subtile=4"}, 2, ErrorKind::Config), "one local i");
  has(error_of({"subtile=3"}, 2, ErrorKind::Config), "--arg subtile=3: the sub-tiled SPU kernel is compiled for subtile 2, 4 or 8");
  has(error_of({"method=subtiled", "b=20", "subtile=8"}, 2, ErrorKind::Config), "b must be a multiple of subtile");
  has(error_of({"p=4"}, 2, ErrorKind::Config), "--arg p=4 but spu.grid_size = 2");
  has(error_of({"b=48"}, 2, ErrorKind::Config), "spu.cb_bytes = 4096 is too small (b = 48)");
}

// N = K = 64: 2 x 2 columns of 2 tiles. Eq 3.3 (note §4.2): 4 N^2 K / b + 2 N^2
// element accesses for the faces, A and the bottom plane. The baseline adds
// its synchronisation, counted in the note's "sync arrays in the LLC" bound
// as free: one ticket per CTA, per k-tile one flag set per CTA and one poll
// per producer (west if I > 0, north if J > 0). The functional backend runs
// the CTAs one after the other in ticket order, so every poll succeeds first.
TEST(SpuStencilArgs, AtomicBaselineMatchesTheReferenceAndEq33) {
  const StencilRun r = run({"method=atomic", "n=64"});
  EXPECT_TRUE(r.check.passed) << r.check.detail;
  ASSERT_EQ(r.stats.size(), 1u);
  EXPECT_EQ(r.stats[0].kernel, "spu_stencil_gpu");
  const uint64_t n = 64, k = 64, b = 32, cols = 2, nk = 2;
  const uint64_t eq33 = 4 * n * n * k / b + 2 * n * n;
  const uint64_t sync = cols * cols + nk * cols * cols + nk * 2 * cols * (cols - 1);
  EXPECT_EQ(offchip(r), eq33 + sync);
  // The per-diagonal version moves the same faces without the flags.
  EXPECT_EQ(offchip(run({"n=64"})), eq33);
}

// Every tile of the GPU baseline (b, subtile; CTAs of b/subtile x
// b/subtile threads) against the reference, with partial tiles and k-tiles
// (N = 72, K = 40), and its off-chip accesses: Eq 3.3 generalised to partial
// columns, 4 N K ceil(N/b) + 2 N^2 (each column moves its west and north
// faces in and its east and south faces out over K), plus the flags as above
// with cols = ceil(N/b) and nk = ceil(K/b) k-tiles.
TEST(SpuStencilArgs, AtomicBaselineTilesMatchTheReferenceAndEq33) {
  struct Tile {
    uint64_t b, subtile;
    const char* kernel;
  };
  for (const Tile& t : {Tile{32, 4, "spu_stencil_gpu"}, Tile{16, 2, "spu_stencil_gpu_b16_s2"},
                        Tile{16, 4, "spu_stencil_gpu_b16_s4"}, Tile{32, 2, "spu_stencil_gpu_b32_s2"},
                        Tile{32, 8, "spu_stencil_gpu_b32_s8"}, Tile{64, 8, "spu_stencil_gpu_b64_s8"}}) {
    const std::string what = "b " + std::to_string(t.b) + " subtile " + std::to_string(t.subtile);
    const StencilRun r = run({"method=atomic", "n=72", "k=40", "b=" + std::to_string(t.b),
                              "subtile=" + std::to_string(t.subtile)});
    EXPECT_TRUE(r.check.passed) << what << ": " << r.check.detail;
    ASSERT_EQ(r.stats.size(), 1u);
    EXPECT_EQ(r.stats[0].kernel, t.kernel);
    EXPECT_EQ(r.stats[0].ctas, ((72 + t.b - 1) / t.b) * ((72 + t.b - 1) / t.b)) << what;
    const uint64_t n = 72, k = 40, cols = (n + t.b - 1) / t.b, nk = (k + t.b - 1) / t.b;
    const uint64_t faces = 4 * n * k * cols + 2 * n * n;
    const uint64_t sync = cols * cols + nk * cols * cols + nk * 2 * cols * (cols - 1);
    EXPECT_EQ(offchip(r), faces + sync) << what;
  }
}

// On the timing backend the CTAs run concurrently and really wait on each
// other's flags: still deadlock-free and right (partial tiles and k-tile).
TEST(SpuStencilArgs, AtomicBaselineOnTheTimingBackend) {
  const StencilRun r = run({"method=atomic"}, 0, Backend::Timing);
  EXPECT_TRUE(r.check.passed) << r.check.detail;
  EXPECT_GT(r.stats[0].cycles, 0u);
}

// The SPU version with the appendix's tiles: b = 64 needs 16 KB CBs; N = 128
// on p = 1 is 2 x 2 passes. Its off-chip count is the formula with b = 64.
// Then partial tiles and k-tiles through 2 x 2 passes with the global sync.
TEST(SpuStencilArgs, SpuTileSideAndExtents) {
  const StencilRun r = run({"b=64", "n=128", "k=128", "p=1"}, 1, Backend::Functional, Size::Small, 16384);
  EXPECT_TRUE(r.check.passed) << r.check.detail;
  EXPECT_EQ(offchip(r), 2u * 128 * 128 + 4u * 128 * 128 * 2);
  const StencilRun g = run({"sync=global", "n=40", "k=33"}, 1);
  EXPECT_TRUE(g.check.passed) << g.check.detail;
}

// The sub-tiled SPU kernel (method=subtiled; CTAs of b/subtile x b/subtile
// threads): every sub-tile kernel and tile side against the reference on
// multi-pass grids with partial passes, both schemes; its off-chip accesses
// equal the row kernel's (same IU code, same A and bottom plane), and with
// the localized sync the formula 2 N^2 + 4 N K ceil(N/(pb)) (note §4.2)
// where b divides N and K and a CB holds exactly one b x b face (a VIU
// spills the whole CB).
TEST(SpuStencilArgs, SubtiledSpuKernelMatchesTheReferenceAndTheFormula) {
  struct Case {
    uint32_t b, subtile, n, k, p;
    const char* kernel;
  };
  for (const Case& c : {Case{32, 4, 96, 64, 2, "spu_stencil_cb_s4"}, Case{32, 2, 96, 64, 2, "spu_stencil_cb_s2"},
                        Case{32, 8, 96, 64, 2, "spu_stencil_cb_s8"}, Case{16, 4, 48, 32, 2, "spu_stencil_cb_s4"},
                        Case{64, 4, 128, 64, 1, "spu_stencil_cb_s4"}, Case{64, 8, 128, 64, 1, "spu_stencil_cb_s8"}}) {
    for (const char* sync : {"local", "global"}) {
      const std::string what = "b " + std::to_string(c.b) + " subtile " + std::to_string(c.subtile) + " N " +
                               std::to_string(c.n) + " p " + std::to_string(c.p) + " " + sync;
      const std::vector<std::string> args = {"b=" + std::to_string(c.b), "n=" + std::to_string(c.n),
                                             "k=" + std::to_string(c.k), std::string("sync=") + sync};
      std::vector<std::string> sub = args;
      sub.push_back("subtile=" + std::to_string(c.subtile));
      const StencilRun r = run(sub, c.p, Backend::Functional, Size::Small, c.b * c.b * 4);
      EXPECT_TRUE(r.check.passed) << what << ": " << r.check.detail;
      ASSERT_EQ(r.stats.size(), 1u);
      EXPECT_EQ(r.stats[0].kernel, c.kernel) << what;
      const uint64_t cols = (c.n + c.b - 1) / c.b;
      EXPECT_EQ(r.stats[0].ctas, cols * cols) << what;
      const StencilRun rows = run(args, c.p, Backend::Functional, Size::Small, c.b * c.b * 4);
      EXPECT_EQ(rows.stats[0].kernel, "spu_stencil_cb");
      EXPECT_EQ(offchip(r), offchip(rows)) << what;
      EXPECT_EQ(r.stats[0].spu_passes, rows.stats[0].spu_passes) << what;
      if (std::string(sync) == "local") {
        const uint64_t n = c.n, k = c.k, passes = (n + uint64_t(c.p) * c.b - 1) / (uint64_t(c.p) * c.b);
        EXPECT_EQ(offchip(r), 2 * n * n + 4 * n * k * passes) << what;
      }
    }
  }
}

// Partial tiles and a partial k-tile (72 x 72 x 40 with b = 32: 3 x 3 CTAs,
// the last ones 8 wide, on p = 2: partial passes), both schemes; and
// subtile alone selects the sub-tiled kernel.
TEST(SpuStencilArgs, SubtiledSpuKernelWithPartialTiles) {
  for (const char* sync : {"local", "global"}) {
    const StencilRun r = run({"subtile=4", "n=72", "k=40", std::string("sync=") + sync}, 2);
    EXPECT_TRUE(r.check.passed) << sync << ": " << r.check.detail;
    EXPECT_EQ(r.stats[0].kernel, "spu_stencil_cb_s4");
    EXPECT_EQ(offchip(r), offchip(run({"method=rows", "n=72", "k=40", std::string("sync=") + sync}, 2))) << sync;
  }
}

}  // namespace
}  // namespace simtlm::workloads
