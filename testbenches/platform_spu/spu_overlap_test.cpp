// Overlapped passes on the timing backend (spu.passes = overlapped; docs/spu.md,
// "Overlapped passes"; thesis §4.3, note §1.7 and invariants 11, 12, 14): the
// stencil against its CPU reference with the pass-by-pass off-chip counts and
// VIU faces, per-unit pass registers while passes overlap, the spill-progress
// scoreboard (a restore waits for its spill; without the scoreboard the
// order violation is diagnosed), and deadlock freedom with units at very
// different speeds over several passes. Expected values come from the
// kernels' recurrences, the formula 2N^2 + 4NK ceil(N/(pb)) and the
// pass-by-pass runs, not from the code under test.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "simtlm/device.h"
#include "spu_mesh.h"
#include "workloads/workload.h"

namespace simtlm {
namespace {

using test::mesh::Mesh;
using test::mesh::MeshRunner;

DeviceOptions spu_options(uint32_t p, const std::string& passes, const std::vector<std::string>& more = {}) {
  std::vector<std::string> o = {"spu.passes=" + passes};
  o.insert(o.end(), more.begin(), more.end());
  return test::mesh::options(p, o);
}

double stat(const LaunchStats& s, const std::string& key) { return test::launch_stat(s, key); }

// ---- The stencil: CPU reference, counts equal to pass by pass.

struct StencilRun {
  workloads::CheckResult check;
  LaunchStats stats;
};

StencilRun run_stencil(uint32_t n, uint32_t k, uint32_t p, const std::string& sync, Backend backend,
                       const std::vector<std::string>& args = {}) {
  DeviceOptions o = spu_options(p, "overlapped");
  o.backend = backend;
  Device dev(o);
  std::unique_ptr<workloads::Workload> w = workloads::WorkloadRegistry::create("spu_stencil");
  std::vector<std::string> all_args = {"n=" + std::to_string(n), "k=" + std::to_string(k), "sync=" + sync};
  all_args.insert(all_args.end(), args.begin(), args.end());
  workloads::apply_run_args(*w, all_args);
  w->setup(dev, workloads::Size::Small, 1);
  StencilRun r;
  const std::vector<LaunchStats> all = w->run(dev);
  EXPECT_EQ(all.size(), 1u);
  r.stats = all.at(0);
  r.check = w->check(dev);
  return r;
}

using Case = std::tuple<uint32_t, uint32_t, uint32_t, std::string>;  // N, K, p, sync
class SpuOverlapStencil : public ::testing::TestWithParam<Case> {};

// The functional backend runs every launch pass by pass (it has no time):
// its counts are the pass-by-pass ones (equal to the timing backend's
// sequential passes, spu_passes_timing_test.cpp). One timing device per
// process, so the overlapped run is compared with it.
TEST_P(SpuOverlapStencil, MatchesTheReferenceWithThePassByPassCounts) {
  const auto& [n, k, p, sync] = GetParam();
  const StencilRun seq = run_stencil(n, k, p, sync, Backend::Functional);
  const StencilRun ovl = run_stencil(n, k, p, sync, Backend::Timing);
  EXPECT_TRUE(seq.check.passed) << seq.check.detail;
  EXPECT_TRUE(ovl.check.passed) << ovl.check.detail;
  EXPECT_EQ(ovl.stats.offchip_accesses, seq.stats.offchip_accesses);
  if (sync == "local") {  // note §4.2: 2N^2 + 4NK ceil(N/(pb)), b = 32
    const uint64_t passes = (n + 32 * p - 1) / (32 * p);
    EXPECT_EQ(ovl.stats.offchip_accesses, 2ull * n * n + 4ull * n * k * passes);
  }
  EXPECT_EQ(ovl.stats.warp_instructions, seq.stats.warp_instructions);
  EXPECT_EQ(ovl.stats.spu_passes, seq.stats.spu_passes);
  EXPECT_EQ(ovl.stats.viu_spills, seq.stats.viu_spills);
  EXPECT_EQ(ovl.stats.viu_restores, seq.stats.viu_restores);
  EXPECT_EQ(stat(ovl.stats, "gpu.spu.passes"), double(seq.stats.spu_passes));
}

// 2 x 2 passes of one SM (64^3, p = 1), 2 x 2 passes of 2 x 2 SMs, and 3 x 3
// CTAs on p = 2 (partial passes whose east/south IUs are grid SMs).
INSTANTIATE_TEST_SUITE_P(GridsAndSyncs, SpuOverlapStencil,
                         ::testing::Values(Case{64, 64, 1, "local"}, Case{64, 64, 1, "global"},
                                           Case{128, 64, 2, "local"}, Case{128, 64, 2, "global"},
                                           Case{96, 64, 2, "local"}, Case{96, 64, 2, "global"}));

// The sub-tiled kernel (method=subtiled, sub-tile 4: 8 x 8 threads per
// CTA) with overlapped passes: the same runtime mechanism, another SM code.
// CPU reference and the pass-by-pass counts of the same kernel.
class SpuOverlapSubtiled : public ::testing::TestWithParam<Case> {};

TEST_P(SpuOverlapSubtiled, MatchesTheReferenceWithThePassByPassCounts) {
  const auto& [n, k, p, sync] = GetParam();
  const StencilRun seq = run_stencil(n, k, p, sync, Backend::Functional, {"method=subtiled"});
  const StencilRun ovl = run_stencil(n, k, p, sync, Backend::Timing, {"method=subtiled"});
  EXPECT_TRUE(seq.check.passed) << seq.check.detail;
  EXPECT_TRUE(ovl.check.passed) << ovl.check.detail;
  EXPECT_EQ(ovl.stats.offchip_accesses, seq.stats.offchip_accesses);
  EXPECT_EQ(ovl.stats.warp_instructions, seq.stats.warp_instructions);
  EXPECT_EQ(ovl.stats.spu_passes, seq.stats.spu_passes);
  EXPECT_GT(ovl.stats.spu_passes, 1u);
  EXPECT_EQ(ovl.stats.viu_spills, seq.stats.viu_spills);
  EXPECT_EQ(ovl.stats.viu_restores, seq.stats.viu_restores);
}

// 2 x 2 passes of 2 x 2 SMs, and partial passes (3 x 3 CTAs on p = 2).
INSTANTIATE_TEST_SUITE_P(Passes, SpuOverlapSubtiled,
                         ::testing::Values(Case{128, 64, 2, "local"}, Case{128, 64, 2, "global"},
                                           Case{96, 40, 2, "local"}));

// ---- Per-unit pass registers (Table 4.1's local registers, invariant 14).

// Every SM's thread 0 stores passx * 1000 + passy * 100 + npassx * 10 +
// npassy at out[ctaid.y * nctaid.x + ctaid.x], read after spinning `slow`
// iterations if bit ctaid.x of `columns` is set. With 4 x 2 CTAs on p = 2
// and columns 0 and 3 slow, SM (0, y) is slow in pass (0,0) and SM (1, y) in
// pass (1,0): overlapped, CTA (0, y) reads its registers while SM (1, y)
// already runs pass (1,0).
constexpr const char* kPassRegs = R"(
.visible .entry passregs(.param .u64 out, .param .u32 slow, .param .u32 columns)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [slow];
  spu.sreg.u32 %r2, isiu;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ctaid.y;
  mov.u32 %r5, %nctaid.x;
  ld.param.u32 %r12, [columns];
  shr.u32 %r12, %r12, %r3;
  and.b32 %r12, %r12, 1;
  setp.eq.u32 %p2, %r12, 0;
  @%p2 mov.u32 %r1, 0;
  mov.u32 %r6, 0;
SPIN:
  setp.ge.u32 %p4, %r6, %r1;
  @%p4 bra SPUN;
  add.u32 %r6, %r6, 1;
  bra.uni SPIN;
SPUN:
  spu.sreg.u32 %r7, regpassx;
  spu.sreg.u32 %r8, regpassy;
  spu.sreg.u32 %r9, regnpassx;
  spu.sreg.u32 %r10, regnpassy;
  mul.lo.u32 %r11, %r7, 1000;
  mad.lo.u32 %r11, %r8, 100, %r11;
  mad.lo.u32 %r11, %r9, 10, %r11;
  add.u32 %r11, %r11, %r10;
  mad.lo.u32 %r13, %r4, %r5, %r3;
  mul.wide.u32 %rd2, %r13, 4;
  add.u64 %rd3, %rd1, %rd2;
  mov.u32 %r14, %tid.x;
  setp.eq.u32 %p5, %r14, 0;
  @%p5 st.global.u32 [%rd3], %r11;
DONE:
  ret;
}
)";

TEST(SpuOverlapPassRegisters, EveryUnitReadsItsOwnPass) {
  std::vector<uint32_t> want;
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) want.push_back((x / 2) * 1000 + (y / 2) * 100 + 2 * 10 + 1);
  Device dev(spu_options(2, "overlapped"));
  const ModuleHandle m =
      dev.load_module_string(std::string(functional::test::kSpuHeader) + kPassRegs, "passregs.ptx");
  const DevicePtr out = dev.malloc(4 * 8);
  LaunchConfig c;
  c.grid = Dim3(4, 2);
  c.block = Dim3(32);
  uint64_t cycles[2] = {0, 0};
  for (uint32_t columns : {1u, 9u}) {  // column 0 slow; columns 0 and 3 slow
    dev.memset(out, 0xff, 4 * 8);
    const LaunchStats s = dev.launch(m, "passregs", c, KernelArgs().add(out).add(uint32_t(20000)).add(columns));
    EXPECT_EQ(dev.download<uint32_t>(out, 8), want) << "columns " << columns;
    cycles[columns == 9] = s.cycles;
  }
  // Pass by pass the second slow column would add its whole time; overlapped,
  // it runs beside the first (SM (1, y) takes pass (1,0) while SM (0, y) is
  // still in pass (0,0)).
  EXPECT_LT(double(cycles[1]), 1.25 * double(cycles[0])) << cycles[0] << " -> " << cycles[1];
}

// ---- The spill-progress scoreboard (invariant 12).

// 4 x 2 CTAs on p = 2 (2 x 1 passes), directed sync, one face: the east
// boundary of pass (0,0) is spilled by the east VIUs as SM (1, y) produces
// it, and restored by the west VIUs of pass (1,0), whose node starts that
// pass as soon as its loader's face is taken by SM (0, y), before SM (1, y)
// has computed. SM (1, 0) (%smid 1) is slowed: its spin comes before its
// face, so spill 0 of row 0 comes that much later. (With more faces than
// the pass is wide, the pipeline leaves the spill time; note §1.7 [I]: the
// margin is tight when K/b is near p.)
Mesh boundary_mesh(uint32_t slow) {
  Mesh m;
  m.gx = 4;
  m.gy = 2;
  m.faces = 1;
  m.slow_unit = 1;
  m.slow = slow;
  return m;
}

TEST(SpuOverlapScoreboard, ARestoreBeforeItsSpillIsDiagnosedWithoutTheScoreboard) {
  MeshRunner r(spu_options(2, "overlapped", {"spu.spill_scoreboard=false"}));
  try {
    r.launch(boundary_mesh(20000));
    ADD_FAILURE() << "the launch ended without a diagnosis";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Fault) << what;
    for (const char* part : {"spill->restore order violated (invariant 12", "VIU west 0 of pass (1,0) restores face",
                             "of row 0 before the east VIU of pass (0,0) has spilled it"})
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
  }
}

TEST(SpuOverlapScoreboard, WithASlowedProducerTheRestoreWaits) {
  MeshRunner r(spu_options(2, "overlapped"));
  const std::string west0 = "gpu.spu.iu[2].";  // iu[p + y]: the west IU of row 0
  double cycles[2] = {0, 0};
  for (uint32_t slow : {0u, 20000u}) {
    const Mesh m = boundary_mesh(slow);
    std::vector<uint32_t> got;
    const LaunchStats s = r.launch(m, &got);
    EXPECT_EQ(got, test::mesh::expected(m)) << "slow " << slow;
    EXPECT_GT(stat(s, west0 + "viu_restore_waits"), 0) << "slow " << slow;
    cycles[slow != 0] = stat(s, west0 + "viu_restore_wait_cycles");
    EXPECT_EQ(s.viu_restores.at(2), m.faces) << "slow " << slow;
  }
  // The slow producer's 20000 spin iterations per face (several cycles each)
  // show up in the consumer pass's restores.
  EXPECT_GT(cycles[1], cycles[0] + 20000) << cycles[0] << " -> " << cycles[1];
}

// The scoreboard's statistics exist only with overlapped passes (off means off).
TEST(SpuOverlapScoreboard, StatisticsOnlyWithOverlappedPasses) {
  MeshRunner r(spu_options(2, "sequential"));
  const LaunchStats s = r.launch(boundary_mesh(0));
  EXPECT_EQ(s.stats_json().find("viu_restore_waits"), std::string::npos);
}

// ---- Deadlock freedom over overlapped passes (invariant 8).

// Units at random speeds with one SM 10-50x slower, on grids of 2 x 2 and
// 3 x 2 passes (partial ones in both directions), both schemes, and units
// leaving the global barrier early: the faces are right and neither the
// deadlock check nor the watchdog fires.
TEST(SpuOverlapDeadlock, UnequalSpeedsOverSeveralPassesFinishWithTheRightFaces) {
  MeshRunner r(spu_options(2, "overlapped"));
  struct Run {
    uint32_t gx, gy;
    bool global_sync, early;
    uint32_t seed, slow_unit;
  };
  for (const Run& run : {Run{4, 4, false, false, 1, 3}, Run{4, 4, true, true, 2, 0}, Run{5, 3, false, false, 2, 0},
                         Run{5, 3, true, false, 1, 3}}) {
    Mesh m;
    m.gx = run.gx;
    m.gy = run.gy;
    m.faces = 3;
    m.global_sync = run.global_sync;
    m.early = run.early;
    m.mask = 1023;
    m.seed = run.seed;
    m.slow_unit = run.slow_unit;
    m.slow = 10000;
    const std::string what = std::to_string(m.gx) + "x" + std::to_string(m.gy) +
                             (m.global_sync ? " global" : " directed") + " seed " + std::to_string(m.seed);
    std::vector<uint32_t> got;
    try {
      r.launch(m, &got);
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": " << e.what();
      continue;
    }
    EXPECT_EQ(got, test::mesh::expected(m)) << what;
  }
}

// A kernel that skips a blocksync is still diagnosed by the fabric (not the
// watchdog) with overlapped passes, every live pass's waiting units listed:
// SM (0,0) leaves out its east sync of face 0, which closes a wait-for cycle
// of pass (0,0)'s four SMs (the rank argument of note §1.6.2).
TEST(SpuOverlapDeadlock, ASkippedBlocksyncIsDiagnosedAcrossPasses) {
  MeshRunner r(spu_options(2, "overlapped"));
  Mesh m;
  m.gx = 4;
  m.gy = 2;
  m.skip = 0;
  m.mask = 511;
  m.seed = 3;
  try {
    r.launch(m);
    ADD_FAILURE() << "the launch ended";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Deadlock) << what;
    for (const char* part : {"deadlock in kernel 'mesh' on the SPU (4x2 CTAs in 2x1 overlapped passes)",
                             "\n pass (0,0):",
                             "SM (0,0) (CTA (0,0,0)) waits at bar.blocksync.south for SM (0,1), which waits at "
                             "bar.blocksync.east",
                             "SM (1,1) (CTA (1,1,0)) waits at bar.blocksync.north for SM (1,0), which waits at "
                             "bar.blocksync.west"})
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
    EXPECT_EQ(what.find("sim.watchdog_cycles"), std::string::npos) << what;
  }
}

// ---- Configuration.

TEST(SpuOverlapConfig, BadCombinationsAreRejectedNamingTheKeys) {
  auto rejects = [](const std::vector<std::string>& overrides, const std::string& part) {
    Config cfg;
    try {
      for (const std::string& o : overrides) cfg.apply_override(o);
      cfg.validate();
      ADD_FAILURE() << "accepted: " << part;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  rejects({"spu.passes=overlapped"}, "spu.passes applies only with sim.platform = spu");
  rejects({"sim.platform=spu", "gpu.num_sms=16", "spu.spill_scoreboard=false"},
          "spu.spill_scoreboard = false applies only with spu.passes = overlapped");
  rejects({"sim.platform=spu", "gpu.num_sms=16", "spu.passes=interleaved"}, "spu.passes");
}

}  // namespace
}  // namespace simtlm
