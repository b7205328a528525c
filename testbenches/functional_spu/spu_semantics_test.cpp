// The SPU instructions on the functional backend (docs/spu.md): the CB
// ping-pong, the global and producer-consumer bar.blocksync, CTA-wide
// arrival, special registers, and the errors of bad kernels and launches.
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
                       uint32_t p = 4, uint32_t cb_bytes = 4096) {
  LaunchRequest r = h.request(name, grid, block, args);
  r.spu_grid_size = p;
  r.spu_cb_bytes = cb_bytes;
  return run_launch(r, h.memory());
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in: " << text;
}

TEST(SpuSemantics, ProducerOneFaceAheadDoesNotOverwriteTheConsumersFace) {
  Harness h(kernel_text(kPingPong));
  const uint64_t out = h.alloc(3 * 4);
  run_spu(h, "pingpong", dim(1), dim(1), Args().add(out));
  EXPECT_EQ(h.download<uint32_t>(out, 3), (std::vector<uint32_t>{10, 11, 12}));
}

TEST(SpuSemantics, GlobalBarrierWaitsForEveryActiveUnitAndSwapsEveryLink) {
  Harness h(kernel_text(kGlobal));
  const uint64_t flags = h.alloc(32 * 4);
  const uint64_t out = h.alloc(64 * 4);
  // 2 x 2 CTAs on a 4 x 4 SPU: 4 SMs and 2 * (2 + 2) = 8 IUs.
  run_spu(h, "global_sync", dim(2, 2), dim(1), Args().add(flags).add(out).add(uint32_t(0)));
  const std::vector<uint32_t> o = h.download<uint32_t>(out, 64);
  const std::vector<uint32_t> sm_ids = {0, 1, 4, 5};  // SM (x, y) is %smid y * 4 + x
  for (uint32_t id : sm_ids) EXPECT_EQ(o[id], 12u) << "SM " << id;
  for (uint32_t id = 16; id < 24; ++id) EXPECT_EQ(o[id], 12u) << "IU " << id;
  EXPECT_EQ(o[32 + 0], 100u);  // SM (0,0) reads what west IU 0 stored before the barrier
  EXPECT_EQ(o[32 + 4], 101u);  // SM (0,1): west IU 1
}

TEST(SpuSemantics, UnitsThatFinishedDoNotHoldTheGlobalBarrier) {
  Harness h(kernel_text(kGlobal));
  const uint64_t flags = h.alloc(32 * 4);
  const uint64_t out = h.alloc(64 * 4);
  run_spu(h, "global_sync", dim(2, 2), dim(1), Args().add(flags).add(out).add(uint32_t(1)));
  const std::vector<uint32_t> o = h.download<uint32_t>(out, 64);
  EXPECT_EQ(o[0], 10u);  // the two east IUs left before setting their flags
  EXPECT_EQ(o[22], 0u);  // east IU 0 (%smid 16 + 2 north + 2 west + 2 south) wrote nothing
}

TEST(SpuSemantics, BlocksyncIsCtaWide) {
  Harness h(kernel_text(kCtaWide));
  const uint64_t out = h.alloc(4);
  run_spu(h, "cta_wide", dim(1), dim(64), Args().add(out).add(uint32_t(3000)).add(uint32_t(0)));
  EXPECT_EQ(h.download<uint32_t>(out, 1)[0], 77u);  // warp 1's store precedes the rendezvous
}

TEST(SpuSemantics, WarpsOfOneCtaAtDifferentBlocksyncsAreAnError) {
  Harness h(kernel_text(kCtaWide));
  const uint64_t out = h.alloc(4);
  const std::string m = expect_error(ErrorKind::Ptx, [&] {
    run_spu(h, "cta_wide", dim(1), dim(64), Args().add(out).add(uint32_t(10)).add(uint32_t(1)));
  });
  expect_contains(m, {"SM (0,0)", "bar.blocksync.south", "bar.blocksync)", "CTA-wide", "line"});
}

TEST(SpuSemantics, SpecialRegistersFollowTheGeometry) {
  Harness h(kernel_text(kSregs));
  const uint64_t out = h.alloc((8 * 64 + 3 * 64) * 4);
  const uint32_t gx = 3, gy = 2, p = 4;
  run_spu(h, "sregs", dim(gx, gy), dim(1), Args().add(out), p);
  const std::vector<uint32_t> o = h.download<uint32_t>(out, 8 * 64 + 3 * 64);
  auto regs = [&](uint32_t id) { return std::vector<uint32_t>(o.begin() + 8 * id, o.begin() + 8 * id + 8); };
  auto ctaid = [&](uint32_t id) { return std::vector<uint32_t>{o[512 + 3 * id], o[512 + 3 * id + 1]}; };
  for (uint32_t y = 0; y < gy; ++y)
    for (uint32_t x = 0; x < gx; ++x) {
      const uint32_t id = y * p + x;
      EXPECT_EQ(regs(id), (std::vector<uint32_t>{0, 4, 0, 0, 0, 0, 1, 1})) << "SM " << x << "," << y;
      EXPECT_EQ(ctaid(id), (std::vector<uint32_t>{x, y}));
    }
  // IUs after the p * p SMs: north by column, west by row, south by column, east by row.
  struct Iu {
    uint32_t dir, lane, cx, cy;
  };
  std::vector<Iu> ius;
  for (uint32_t x = 0; x < gx; ++x) ius.push_back({0, x, x, 0});
  for (uint32_t y = 0; y < gy; ++y) ius.push_back({1, y, 0, y});
  for (uint32_t x = 0; x < gx; ++x) ius.push_back({2, x, x, gy - 1});
  for (uint32_t y = 0; y < gy; ++y) ius.push_back({3, y, gx - 1, y});
  for (uint32_t k = 0; k < ius.size(); ++k) {
    const uint32_t id = p * p + k;
    EXPECT_EQ(regs(id), (std::vector<uint32_t>{1, ius[k].dir, ius[k].lane, 0, 0, 0, 1, 1})) << "IU " << k;
    EXPECT_EQ(ctaid(id), (std::vector<uint32_t>{ius[k].cx, ius[k].cy})) << "IU " << k;
  }
}

TEST(SpuSemantics, SkippedRendezvousIsADeadlockNamingTheWaitingUnits) {
  Harness h(kernel_text(kOne));
  const std::string m = expect_error(ErrorKind::Deadlock, [&] {
    run_spu(h, "one", dim(1), dim(32), Args().add(uint32_t(2)).add(uint32_t(0)).add(uint32_t(0)));
  });
  expect_contains(m, {"deadlock", "kernel 'one'", "SM (0,0)", "bar.blocksync.east", "IU east 0", "has finished"});
}

// The global barrier counts every unit that has not finished: one waiting at a
// directed rendezvous instead holds it (note §7.9), and the report says who
// waits for whom.
TEST(SpuSemantics, AUnitWaitingElsewhereHoldsTheGlobalBarrier) {
  Harness h(kernel_text(kMixedSync));
  const std::string m = expect_error(ErrorKind::Deadlock, [&] { run_spu(h, "mixed_sync", dim(1), dim(32), Args()); });
  expect_contains(m, {"SM (0,0) (CTA (0,0,0)) waits at bar.blocksync.east for IU east 0, which waits at bar.blocksync",
                      "IU north 0 (CTA (0,0,0)) waits at bar.blocksync (global; 4 of 5 active units arrived)"});
}

TEST(SpuSemantics, CbOffsetsOutsideTheBufferOrMisalignedAreFaults) {
  Harness h(kernel_text(kOne));
  std::string m = expect_error(ErrorKind::Fault, [&] {
    run_spu(h, "one", dim(1), dim(32), Args().add(uint32_t(0)).add(uint32_t(0)).add(uint32_t(256)), 4, 256);
  });
  expect_contains(m, {"line", "st.cb.south.u32", "SM (0,0)", "offset 256", "outside the buffer", "spu.cb_bytes = 256"});
  m = expect_error(ErrorKind::Fault, [&] {
    run_spu(h, "one", dim(1), dim(32), Args().add(uint32_t(1)).add(uint32_t(0)).add(uint32_t(6)));
  });
  expect_contains(m, {"ld.cb.north.u32", "offset 6", "misaligned"});
  // The last word fits.
  EXPECT_NO_THROW(run_spu(h, "one", dim(1), dim(32), Args().add(uint32_t(0)).add(uint32_t(0)).add(uint32_t(252)), 4, 256));
}

TEST(SpuSemantics, AnInterfaceUnitHasOnlyTheLinkIntoTheGrid) {
  Harness h(kernel_text(kOne));
  const std::string m = expect_error(ErrorKind::Fault, [&] {
    run_spu(h, "one", dim(1), dim(32), Args().add(uint32_t(1)).add(uint32_t(1)).add(uint32_t(0)));
  });
  expect_contains(m, {"IU north 0 has no north link", "ld.cb.north.u32"});
}

TEST(SpuSemantics, ThreeDimensionalGridsAreRejected) {
  Harness h(kernel_text(kOne));
  const Args a = Args().add(uint32_t(0)).add(uint32_t(0)).add(uint32_t(0));
  const std::string m = expect_error(ErrorKind::Launch, [&] { run_spu(h, "one", dim(1, 1, 2), dim(32), a); });
  expect_contains(m, {"1x1x2", "grid z must be 1"});
}

TEST(SpuSemantics, OutsideAnSpuLaunchTheInstructionsAreAnError) {
  Harness h(kernel_text(kOne));
  const std::string m = expect_error(ErrorKind::Ptx, [&] {
    h.run("one", dim(1), dim(32), Args().add(uint32_t(0)).add(uint32_t(0)).add(uint32_t(0)));
  });
  expect_contains(m, {"spu.sreg.u32", "outside an SPU launch"});
}

TEST(SpuSemantics, InterfaceUnitsLackFloatingPointAndSharedMemory) {
  Harness h(kernel_text(kIuCaps));
  // The SMs run first and may; the first IU (north 0) may not.
  std::string m = expect_error(ErrorKind::Ptx, [&] { run_spu(h, "iu_caps", dim(1), dim(32), Args().add(uint32_t(0))); });
  expect_contains(m, {"add.f32", "IU north 0 has no floating-point unit", "Table 5.2"});
  m = expect_error(ErrorKind::Ptx, [&] { run_spu(h, "iu_caps", dim(1), dim(32), Args().add(uint32_t(1))); });
  expect_contains(m, {"st.shared.u32", "IU north 0 has no shared memory"});
  // An instruction no lane executes uses no unit.
  EXPECT_NO_THROW(run_spu(h, "iu_caps", dim(1), dim(32), Args().add(uint32_t(2))));
}

// The off-chip I/O of the stencil on one pass (workloads/spu_stencil, kernel
// spu_stencil_cb): every point of A is read and of the bottom plane written
// once by the SMs, every point of the B and C faces read and of the two
// output faces written once by the IUs: 2 N^2 + 4 N K element accesses
// (note §4.2 with one pass), whatever the synchronisation. 128^3 is
// Table 6.3's first row: 98,304 in both columns.
TEST(SpuSemantics, OffchipAccessesOfTheStencilAreTheAnalyticCount) {
  std::ifstream in(std::string(SIMTLM_SOURCE_DIR) + "/workloads/spu_stencil/kernel.ptx");
  ASSERT_TRUE(in) << "workloads/spu_stencil/kernel.ptx";
  std::stringstream text;
  text << in.rdbuf();
  Harness h(text.str(), "spu_stencil.ptx");
  struct Case {
    int32_t n, k;
    uint64_t expected;
  };
  for (const Case& c : {Case{128, 128, 98304}, Case{48, 40, 2 * 48 * 48 + 4 * 48 * 40}}) {
    for (int32_t global_sync : {0, 1}) {
      const uint64_t a = h.alloc(uint64_t(c.n) * c.n * 4), out = h.alloc(uint64_t(c.n) * c.n * 4);
      const uint64_t fx = h.alloc(uint64_t(c.n) * c.k * 4), fy = h.alloc(uint64_t(c.n) * c.k * 4);
      const uint32_t cols = uint32_t((c.n + 31) / 32);
      const LaunchCounters counters = run_spu(
          h, "spu_stencil_cb", dim(cols, cols), dim(32),
          Args().add(a).add(fx).add(fy).add(out).add(c.n).add(c.k).add(global_sync));
      EXPECT_EQ(counters.offchip_accesses, c.expected) << c.n << "x" << c.n << "x" << c.k << " sync " << global_sync;
    }
  }
}

// Parse-time rules of the SPU instructions (frontend/ptx/spu_extensions.h).
std::string parse_error(const std::string& inst, const std::string& regs = ".reg .f32 %f<2>; .reg .b32 %r<2>;") {
  const std::string text = kernel_text(("\n.visible .entry k()\n{\n" + regs + "\n" + inst + "\nret;\n}\n").c_str());
  return expect_error(ErrorKind::Ptx, [&] { Harness h(text); });
}

TEST(SpuSemantics, MisdirectedOrMalformedInstructionsDoNotParse) {
  expect_contains(parse_error("ld.cb.south.f32 %f1, [%r1];"), {"test.ptx:9:", "west->east and north->south", "ld.cb.north or ld.cb.west"});
  expect_contains(parse_error("st.cb.north.f32 [%r1], %f1;"), {"st.cb.south or st.cb.east"});
  expect_contains(parse_error("ld.cb.f32 %f1, [%r1];"), {"missing direction"});
  expect_contains(parse_error("ld.cb.north.f16 %f1, [%r1];", ".reg .f16 %f<2>; .reg .b32 %r<2>;"), {"32- or 64-bit type"});
  expect_contains(parse_error("spu.sreg.u32 %r1, passx;"), {"spu.sreg"});
  expect_contains(parse_error("bar.blocksync.up;"), {"bar.blocksync"});
  expect_contains(parse_error("bar.blocksync %r1;"), {"bar.blocksync"});
}

}  // namespace
}  // namespace simtlm::functional::test
