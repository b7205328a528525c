// Multi-pass SPU launches on the functional backend (docs/spu.md "Passes";
// note §1.7, invariants 11-15): grids larger than p x p run pass by pass,
// row-wise, with the restricted mapping; virtual IUs spill and restore the
// faces crossing pass boundaries through global memory; partial passes; the
// pass registers.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../functional/harness.h"
#include "spu_ptx.h"

namespace simtlm::functional::test {
namespace {

std::string kernel_text(const char* body) { return std::string(kSpuHeader) + body; }

LaunchCounters run_spu(Harness& h, const std::string& name, Dim3u grid, Dim3u block, const Args& args,
                       uint32_t p, uint32_t cb_bytes = 4096) {
  LaunchRequest r = h.request(name, grid, block, args);
  r.spu_grid_size = p;
  r.spu_cb_bytes = cb_bytes;
  return run_launch(r, h.memory());
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in: " << text;
}

// 5 x 3 CTAs on a 2 x 2 SPU: 3 x 2 passes, the last pass column one CTA wide
// and the last pass row one CTA high (partial passes).
TEST(SpuPasses, PassRegistersRolesAndTheRestrictedMapping) {
  Harness h(kernel_text(kPassRegs));
  const uint32_t gx = 5, gy = 3, p = 2;
  const uint64_t out = h.alloc(1024 * 4 + 4 * 64 * 32);
  const LaunchCounters c = run_spu(h, "pass_regs", dim(gx, gy), dim(1), Args().add(out), p);
  const std::vector<uint32_t> o = h.download<uint32_t>(out, 1024 + 4 * 64 * 8);
  for (uint32_t y = 0; y < gy; ++y)
    for (uint32_t x = 0; x < gx; ++x) {
      const size_t at = 8 * (y * gx + x);
      EXPECT_EQ(std::vector<uint32_t>(o.begin() + long(at), o.begin() + long(at) + 6),
                (std::vector<uint32_t>{x / p, y / p, 3, 2, 0, (y % p) * p + x % p}))
          << "CTA (" << x << "," << y << ")";
    }
  // The real IUs: north/west in the first pass row/column, south/east in the
  // last; each runs once, with its lane in the whole grid. The others are
  // virtual IUs, which run the runtime's code and write nothing.
  auto iu = [&](uint32_t dir, uint32_t lane) {
    const size_t at = 1024 + 8 * (64 * dir + lane);
    return std::vector<uint32_t>(o.begin() + long(at), o.begin() + long(at) + 6);
  };
  for (uint32_t x = 0; x < gx; ++x) {
    EXPECT_EQ(iu(0, x), (std::vector<uint32_t>{1, x / p, 0, 3, 2, 0})) << "north " << x;
    EXPECT_EQ(iu(2, x), (std::vector<uint32_t>{1, x / p, 1, 3, 2, 0})) << "south " << x;
  }
  for (uint32_t y = 0; y < gy; ++y) {
    EXPECT_EQ(iu(1, y), (std::vector<uint32_t>{1, 0, y / p, 3, 2, 0})) << "west " << y;
    EXPECT_EQ(iu(3, y), (std::vector<uint32_t>{1, 2, y / p, 3, 2, 0})) << "east " << y;
  }
  EXPECT_EQ(c.ctas, uint64_t(gx * gy));
  // Every SM and real IU stores 6 words; no barrier, so every VIU ends with
  // its partner without a spill or restore (note §7.15).
  EXPECT_EQ(c.offchip_accesses, uint64_t(6 * (gx * gy + 2 * (gx + gy))));
}

uint32_t row_expected(uint32_t y, uint32_t f, uint32_t gx) { return 1000 * y + f + gx * (gx + 1) / 2; }

// Faces cross every pass boundary of a row through a spilling and a
// restoring VIU, in both synchronisation schemes, on partial passes too.
TEST(SpuPasses, FacesCrossPassBoundariesThroughVirtualIus) {
  Harness h(kernel_text(kRow));
  const uint32_t faces = 3;
  struct Case {
    uint32_t gx, gy, p;
  };
  for (const Case& k : {Case{5, 3, 2}, Case{4, 2, 1}, Case{7, 1, 3}, Case{2, 2, 2}}) {
    for (uint32_t global_sync : {0u, 1u}) {
      const uint64_t out = h.alloc(uint64_t(k.gy) * faces * 4);
      run_spu(h, "row", dim(k.gx, k.gy), dim(1), Args().add(out).add(faces).add(global_sync).add(0u).add(~0u), k.p, 64);
      const std::vector<uint32_t> o = h.download<uint32_t>(out, size_t(k.gy) * faces);
      for (uint32_t y = 0; y < k.gy; ++y)
        for (uint32_t f = 0; f < faces; ++f)
          EXPECT_EQ(o[y * faces + f], row_expected(y, f, k.gx))
              << k.gx << "x" << k.gy << " on p = " << k.p << ", sync " << global_sync << ", row " << y << " face " << f;
    }
  }
}

// Off-chip words of one row of 5 CTAs on p = 2 (3 passes, 2 boundaries),
// 16-word CBs, 3 faces: the east IU's 3 stores, and per boundary the VIUs'
// whole-CB spills and restores. Directed: one spill per producer sync, one
// restore per spill. Global: the spilling VIU spills after every barrier
// while its partner runs (gx + faces + 1 = 9), and the consumer pass
// restores all 9 (note §1.9: "10 spills, only 4 useful").
TEST(SpuPasses, VirtualIuTrafficFollowsAlgorithm2) {
  Harness h(kernel_text(kRow));
  const uint64_t out = h.alloc(3 * 4);
  const uint64_t directed = run_spu(h, "row", dim(5), dim(1), Args().add(out).add(3u).add(0u).add(0u).add(~0u), 2, 64).offchip_accesses;
  EXPECT_EQ(directed, 3u + 2 * 2 * 3 * 16);
  const uint64_t global = run_spu(h, "row", dim(5), dim(1), Args().add(out).add(3u).add(1u).add(0u).add(~0u), 2, 64).offchip_accesses;
  EXPECT_EQ(global, 3u + 2 * 2 * 9 * 16);
  // The spill slots are released with the launch.
  const uint64_t live = h.memory().bytes_allocated();
  run_spu(h, "row", dim(5), dim(1), Args().add(out).add(3u).add(0u).add(0u).add(~0u), 2, 64);
  EXPECT_EQ(h.memory().bytes_allocated(), live);
}

// A deadlock in a later pass names the pass and the units: CTA (1, 0) runs
// in pass (1,0) on SM (0,0) and waits at bar.blocksync.east for the real
// east IU, which skipped it; in pass (0,0) the same code met a spilling VIU,
// which followed it.
TEST(SpuPasses, ADeadlockInALaterPassNamesThePassAndTheUnits) {
  Harness h(kernel_text(kOne));
  const std::string m = expect_error(ErrorKind::Deadlock, [&] {
    run_spu(h, "one", dim(2), dim(32), Args().add(uint32_t(2)).add(uint32_t(0)).add(uint32_t(0)), 1);
  });
  expect_contains(m, {"kernel 'one'", "pass (1,0) of 2x1", "SM (0,0) (CTA (1,0,0)) waits at bar.blocksync.east for IU east 0, which has finished"});
}

// Deadlock freedom (note §7.8) where producers and consumers run at very
// different speeds: the odd SMs of the row spin 5000 iterations before every
// face, the even ones none, across VIUs and partial passes.
TEST(SpuPasses, ProducersAndConsumersAtVeryDifferentSpeeds) {
  Harness h(kernel_text(kRow));
  const uint32_t faces = 4;
  for (uint32_t p : {1u, 2u, 3u}) {
    const uint64_t out = h.alloc(2 * faces * 4);
    run_spu(h, "row", dim(5, 2), dim(1), Args().add(out).add(faces).add(0u).add(5000u).add(~0u), p, 64);
    const std::vector<uint32_t> o = h.download<uint32_t>(out, 2 * faces);
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t f = 0; f < faces; ++f) EXPECT_EQ(o[y * faces + f], row_expected(y, f, 5)) << "p " << p;
  }
}

// A CTA that ends early under the global barrier: finished units no longer
// count (note §1.6.1) and a VIU whose partner exited stops (§7.15), so every
// later pass still completes. SM (X, 0) ends at step 1, for X at a pass's
// east edge (its spilling VIU stops), inside a pass, and at a restoring
// VIU's partner; row 1 is unaffected and still right.
TEST(SpuPasses, ACtaEndingEarlyDoesNotHangLaterPasses) {
  Harness h(kernel_text(kRow));
  const uint32_t faces = 3;
  for (uint32_t skip : {1u, 2u, 4u}) {
    const uint64_t out = h.alloc(2 * faces * 4);
    run_spu(h, "row", dim(5, 2), dim(1), Args().add(out).add(faces).add(1u).add(0u).add(skip), 2, 64);
    const std::vector<uint32_t> o = h.download<uint32_t>(out, 2 * faces);
    for (uint32_t f = 0; f < faces; ++f) EXPECT_EQ(o[faces + f], row_expected(1, f, 5)) << "skip " << skip;
  }
}

// A kernel that skips a blocksync is diagnosed naming the waiting units:
// SM X = 1 (on p = 2, the last SM of pass (0,0)) skips its east sync of
// face 0, so its spilling VIU receives one face fewer, the restoring VIU of
// pass (1,0) restores one fewer, and SM (0,0) of that pass (CTA (2,0))
// waits for a face that never comes.
TEST(SpuPasses, ASkippedBlocksyncIsADeadlockNamingTheWaitingUnits) {
  Harness h(kernel_text(kRow));
  const uint64_t out = h.alloc(3 * 4);
  const std::string m = expect_error(ErrorKind::Deadlock, [&] {
    run_spu(h, "row", dim(4), dim(1), Args().add(out).add(3u).add(0u).add(0u).add(1u), 2, 64);
  });
  expect_contains(m, {"pass (1,0) of 2x1", "SM (0,0) (CTA (2,0,0)) waits at bar.blocksync.west for VIU west 0, which has finished"});
}

// The stencil (workloads/spu_stencil, kernel spu_stencil_cb) on several
// passes: off-chip accesses are 2 N^2 + 4 N K ceil(N / (p b)) with the
// producer-consumer sync (note §4.2, invariant 2), b = 32, 4 KB CBs (one
// 32 x 32 face), partial passes included. With the global barrier every
// spilling VIU moves a face at each of the gx + gy + nk barriers of a pass
// and the consumer pass restores them all; the real IUs move the nk faces of
// their lane.
class StencilCounts : public ::testing::Test {
 protected:
  static std::string ptx() {
    std::ifstream in(std::string(SIMTLM_SOURCE_DIR) + "/workloads/spu_stencil/kernel.ptx");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  uint64_t run(uint32_t n, uint32_t k, uint32_t p, int32_t global_sync) {
    const uint64_t a = h.alloc(uint64_t(n) * n * 4), out = h.alloc(uint64_t(n) * n * 4);
    const uint64_t fx = h.alloc(uint64_t(n) * k * 4), fy = h.alloc(uint64_t(n) * k * 4);
    const uint32_t cols = (n + 31) / 32;
    return run_spu(h, "spu_stencil_cb", dim(cols, cols), dim(32),
                   Args().add(a).add(fx).add(fy).add(out).add(int32_t(n)).add(int32_t(k)).add(global_sync), p)
        .offchip_accesses;
  }
  Harness h{ptx(), "spu_stencil.ptx"};
};

uint64_t localized_formula(uint64_t n, uint64_t k, uint64_t p) {
  const uint64_t passes = (n + 32 * p - 1) / (32 * p);
  return 2 * n * n + 4 * n * k * passes;
}

uint64_t global_count(uint64_t n, uint64_t k, uint64_t p) {
  const uint64_t cols = n / 32, nk = k / 32, passes = (cols + p - 1) / p, steps = 2 * cols + nk;
  return 2 * n * n + 2 * cols * (2 * nk + 2 * (passes - 1) * steps) * 1024;
}

TEST_F(StencilCounts, LocalizedSyncMatchesTheAnalyticFormula) {
  struct Case {
    uint32_t n, k, p;
  };
  // 2 x 2 passes of one SM; K != N; 3 columns on p = 2 (a partial pass); 4 on p = 3.
  for (const Case& c : {Case{64, 64, 1}, Case{64, 96, 1}, Case{96, 64, 2}, Case{128, 64, 3}}) {
    EXPECT_EQ(run(c.n, c.k, c.p, 0), localized_formula(c.n, c.k, c.p)) << c.n << "x" << c.n << "x" << c.k << " p " << c.p;
  }
  EXPECT_EQ(localized_formula(64, 64, 1), 40960u);  // the formula itself, by hand: 2*64^2 + 4*64*64*2
}

TEST_F(StencilCounts, GlobalSyncSpillsAtEveryBarrier) {
  EXPECT_EQ(run(64, 64, 1, 1), global_count(64, 64, 1));
  EXPECT_EQ(run(96, 64, 2, 1), global_count(96, 64, 2));
  EXPECT_EQ(global_count(64, 64, 1), 2u * 64 * 64 + 2 * 2 * (4 + 2 * 6) * 1024);
}

}  // namespace
}  // namespace simtlm::functional::test
