// Deadlock freedom of the SPU's bar.blocksync on the timing backend (issue 26
// acceptance; note 003 §7.8-§7.9, §1.6.2's rank argument): producers and
// consumers at very different speeds, a slow fabric, CTAs that end early and
// partial grids all terminate with the right values, neither the fabric's
// deadlock check nor the watchdog firing; a kernel that skips a blocksync is
// diagnosed by the fabric as a deadlock naming the waiting units.
//
// Latency is injected by the kernel itself (kMesh): before each face (or
// step) every unit spins a pseudo-random number of iterations drawn from
// (%smid, face, seed), and one chosen unit spins much longer. The fabric's
// own latencies come from the configuration (spu.sync_latency, and the CB
// latency, which is gpu.sm.smem.latency). The expected values are computed
// here from the kernel's recurrence, not from the model.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "simtlm/device.h"
#include "spu_mesh.h"

namespace simtlm {
namespace {

using namespace test::mesh;  // NOLINT: the mesh kernel and its runner

// %smid of a launch's IUs: p * p + their index, north by column, then west
// by row, south by column, east by row (docs/spu.md).
uint32_t iu_smid(uint32_t p, uint32_t gx, uint32_t gy, uint32_t dir, uint32_t lane) {
  const uint32_t before[4] = {0, gx, gx + gy, 2 * gx + gy};
  return p * p + before[dir] + lane;
}

// Every unit at its own random speed (up to 2047 spin iterations per face,
// about ten times a face's work), and the SM at the middle of the grid 50x
// slower than the rest, over full grids of p = 2, 3, 4 in both schemes; a
// few seeds each. The injection is real: the cycles change with the seed.
class SpuDeadlockFreedom : public ::testing::TestWithParam<std::tuple<uint32_t, bool>> {};

TEST_P(SpuDeadlockFreedom, UnitsAtVeryDifferentSpeedsFinishWithTheRightFaces) {
  const auto [p, global_sync] = GetParam();
  MeshRunner r(options(p));
  Mesh m;
  m.gx = m.gy = p;
  m.faces = 4;
  m.global_sync = global_sync;
  const uint64_t even = r.run_and_check(m, "no injection");
  m.mask = 2047;
  m.slow_unit = (p / 2) * p + p / 2;
  m.slow = 20000;
  std::vector<uint64_t> cycles;
  for (uint32_t seed : {1u, 2u, 3u}) {
    m.seed = seed;
    cycles.push_back(r.run_and_check(m, "seed " + std::to_string(seed)));
  }
  EXPECT_GT(cycles[0], 4 * even);
  EXPECT_TRUE(cycles[0] != cycles[1] || cycles[1] != cycles[2]);
}

INSTANTIATE_TEST_SUITE_P(GridsAndSchemes, SpuDeadlockFreedom,
                         ::testing::Combine(::testing::Values(2u, 3u, 4u), ::testing::Bool()));

// Slow interface units: a loader (the west IU of row 0) and then a storer
// (the south IU of column 1) far slower than everything else.
TEST(SpuDeadlock, SlowInterfaceUnits) {
  const uint32_t p = 2;
  MeshRunner r(options(p));
  for (bool global_sync : {false, true})
    for (uint32_t unit : {iu_smid(p, p, p, 1, 0), iu_smid(p, p, p, 2, 1)}) {
      Mesh m;
      m.global_sync = global_sync;
      m.mask = 255;
      m.seed = 7;
      m.slow_unit = unit;
      m.slow = 30000;
      r.run_and_check(m, "slow unit " + std::to_string(unit) + (global_sync ? " global" : " directed"));
    }
}

// A slow fabric: the rendezvous releases 1000 cycles late (the key's
// maximum) and a CB access takes 2000 cycles, with units at random speeds.
TEST(SpuDeadlock, SlowSynchronisationAndCommunicationBuffers) {
  MeshRunner r(options(2, {"spu.sync_latency=1000", "gpu.sm.smem.latency=2000"}));
  for (bool global_sync : {false, true}) {
    Mesh m;
    m.global_sync = global_sync;
    m.mask = 1023;
    m.seed = 11;
    r.run_and_check(m, global_sync ? "global" : "directed");
  }
}

// CTAs that end early under the global barrier: every unit leaves right after
// its last face (the first SM 2 + faces steps before the last IU). The
// barrier stops counting units that finished (note §1.6.1), so the others go
// on; with random speeds, so units leave while others are anywhere.
TEST(SpuDeadlock, UnitsLeavingTheGlobalBarrierEarly) {
  MeshRunner r(options(3));
  for (uint32_t seed : {0u, 5u}) {
    Mesh m;
    m.gx = m.gy = 3;
    m.global_sync = true;
    m.early = true;
    m.mask = seed == 0 ? 0 : 1023;
    m.seed = seed;
    r.run_and_check(m, "seed " + std::to_string(seed));
  }
}

// Partial grids (the shape of a partial pass): 3 x 2 and 1 x 3 CTAs on p = 4,
// whose east and south IUs run on the grid's own SMs next to the CTAs.
TEST(SpuDeadlock, PartialGridsAtRandomSpeeds) {
  MeshRunner r(options(4));
  for (bool global_sync : {false, true})
    for (auto [gx, gy] : {std::pair<uint32_t, uint32_t>{3, 2}, {1, 3}}) {
      Mesh m;
      m.gx = gx;
      m.gy = gy;
      m.global_sync = global_sync;
      m.early = global_sync;
      m.mask = 2047;
      m.seed = gx * 10 + gy;
      m.slow_unit = 0;
      m.slow = 10000;
      r.run_and_check(m, std::to_string(gx) + "x" + std::to_string(gy) + (global_sync ? " global" : " directed"));
    }
}

void expect_deadlock(MeshRunner& r, const Mesh& m, const std::vector<std::string>& parts) {
  try {
    r.launch(m);
    ADD_FAILURE() << "the launch ended";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Deadlock) << what;
    for (const std::string& part : parts) EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
    EXPECT_EQ(what.find("sim.watchdog_cycles"), std::string::npos) << what;  // the fabric's report, not the watchdog's
  }
}

// SM (0,0) skips its east sync of face 0, at random speeds. Its later syncs
// no longer pair with the same faces as its partners': it waits at south for
// face 1 while SM (0,1) still waits at east for face 0, and the wait-for
// chain closes into a cycle (the rank argument of note §1.6.2 needs equal
// sync counts per link). The fabric, not the watchdog, diagnoses it, naming
// every waiting unit and whom it waits for.
TEST(SpuDeadlock, ASkippedBlocksyncIsDiagnosedAsAWaitForCycle) {
  MeshRunner r(options(2));
  Mesh m;
  m.skip = 0;
  m.mask = 2047;
  m.seed = 3;
  expect_deadlock(r, m,
                  {"deadlock in kernel 'mesh' on the SPU (2x2 CTAs and their interface units)",
                   "SM (0,0) (CTA (0,0,0)) waits at bar.blocksync.south for SM (0,1), which waits at bar.blocksync.east",
                   "SM (0,1) (CTA (0,1,0)) waits at bar.blocksync.east for SM (1,1), which waits at bar.blocksync.north",
                   "SM (1,1) (CTA (1,1,0)) waits at bar.blocksync.north for SM (1,0), which waits at bar.blocksync.west",
                   "SM (1,0) (CTA (1,0,0)) waits at bar.blocksync.west for SM (0,0), which waits at bar.blocksync.south",
                   "IU east 0 (CTA (1,0,0)) waits at bar.blocksync.west for SM (1,0)"});
}

// SM (0,0) skips its east sync of the last face and finishes: SM (1,0)
// waits for a partner that has finished, and the units behind it wait for SM
// (1,0).
TEST(SpuDeadlock, ASkippedLastBlocksyncIsDiagnosedNamingTheFinishedPartner) {
  MeshRunner r(options(2));
  Mesh m;
  m.skip = 0;
  m.skip_face = m.faces - 1;
  m.mask = 2047;
  m.seed = 4;
  expect_deadlock(r, m,
                  {"SM (1,0) (CTA (1,0,0)) waits at bar.blocksync.west for SM (0,0), which has finished",
                   "IU east 0 (CTA (1,0,0)) waits at bar.blocksync.west for SM (1,0), which waits at bar.blocksync.west",
                   "SM (1,1) (CTA (1,1,0)) waits at bar.blocksync.north for SM (1,0)"});
}

}  // namespace
}  // namespace simtlm
