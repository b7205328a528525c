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

#include "../functional_spu/spu_ptx.h"
#include "launch_stat.h"
#include "simtlm/device.h"

namespace simtlm {
namespace {

// A gx x gy mesh. Face f enters row y from its west IU as 1000 y + f and
// column x from its north IU as 500000 + 1000 x + f; SM (x, y) sends
// west + north + 1 east and south; the east IU of row y stores what it
// receives at out[y * faces + f], the south IU of column x at
// out[(gy + x) * faces + f]. Directed (global_sync = 0): Alg. 3's order per
// face (north, west, compute, south, east); the SM whose %smid is `skip`
// leaves out its east sync of face `skip_face`. Global: gx + gy + faces steps, SM
// (x, y) computes face f at step x + y + f + 1, the west (north) IU of lane
// l feeds it at step l + f, the east (south) IU takes it at step
// gx (gy) + l + f + 1; with `early` every unit leaves right after the
// barrier of its last active step instead of running them all. Before every
// face or step a unit spins hash(%smid, i, seed) & mask iterations, `slow`
// more on the unit whose %smid is slow_unit. Thread 0 stores.
constexpr const char* kMesh = R"(
.visible .entry mesh(.param .u64 out, .param .u32 faces, .param .u32 global_sync, .param .u32 mask,
                     .param .u32 seed, .param .u32 slow_unit, .param .u32 slow, .param .u32 skip,
                     .param .u32 early, .param .u32 skip_face)
{
  .reg .pred %p<20>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [faces];
  ld.param.u32 %r2, [global_sync];
  ld.param.u32 %r3, [mask];
  ld.param.u32 %r4, [seed];
  ld.param.u32 %r5, [slow_unit];
  ld.param.u32 %r6, [slow];
  ld.param.u32 %r7, [skip];
  ld.param.u32 %r18, [early];
  ld.param.u32 %r27, [skip_face];
  spu.sreg.u32 %r8, isiu;
  spu.sreg.u32 %r9, iudir;
  spu.sreg.u32 %r10, iuid;
  mov.u32 %r11, %smid;
  mov.u32 %r12, %ctaid.x;
  mov.u32 %r13, %ctaid.y;
  mov.u32 %r14, %nctaid.x;
  mov.u32 %r15, %nctaid.y;
  mov.u32 %r19, %tid.x;
  setp.eq.u32 %p1, %r19, 0;
  setp.ne.u32 %p2, %r2, 0;
  setp.ne.u32 %p3, %r8, 0;
  setp.eq.u32 %p4, %r9, 1;
  setp.eq.u32 %p5, %r9, 0;
  setp.eq.u32 %p6, %r9, 3;
  setp.eq.u32 %p7, %r9, 2;
  add.u32 %r17, %r14, %r15;
  add.u32 %r17, %r17, %r1;
  add.u32 %r20, %r12, %r13;
  add.u32 %r20, %r20, 1;
  @%p3 mov.u32 %r20, %r10;
  add.u32 %r21, %r14, %r10;
  add.u32 %r21, %r21, 1;
  @%p6 mov.u32 %r20, %r21;
  add.u32 %r21, %r15, %r10;
  add.u32 %r21, %r21, 1;
  @%p7 mov.u32 %r20, %r21;
  add.u32 %r22, %r20, %r1;
  selp.u32 %r23, %r17, %r1, %p2;
  setp.ne.u32 %p8, %r18, 0;
  and.pred %p8, %p8, %p2;
  @%p8 mov.u32 %r23, %r22;
  mul.lo.u32 %r24, %r10, 1000;
  @%p5 add.u32 %r24, %r24, 500000;
  mul.lo.u32 %r25, %r10, %r1;
  add.u32 %r26, %r15, %r10;
  mul.lo.u32 %r26, %r26, %r1;
  @%p7 mov.u32 %r25, %r26;
  setp.eq.u32 %p9, %r11, %r7;
  not.pred %p10, %p3;
  and.pred %p9, %p9, %p10;
  or.pred %p16, %p6, %p7;
  and.pred %p16, %p16, %p1;
  mov.u32 %r16, 0;
LOOP:
  setp.ge.u32 %p11, %r16, %r23;
  @%p11 bra DONE;
  mul.lo.u32 %r30, %r11, 1103515245;
  mul.lo.u32 %r34, %r16, 2654435;
  add.u32 %r30, %r30, %r34;
  mul.lo.u32 %r34, %r4, 40503;
  add.u32 %r30, %r30, %r34;
  shr.u32 %r34, %r30, 16;
  xor.b32 %r30, %r30, %r34;
  mul.lo.u32 %r30, %r30, 73244475;
  shr.u32 %r34, %r30, 16;
  xor.b32 %r30, %r30, %r34;
  and.b32 %r31, %r30, %r3;
  setp.eq.u32 %p12, %r11, %r5;
  @%p12 add.u32 %r31, %r31, %r6;
  mov.u32 %r32, 0;
SPIN:
  setp.ge.u32 %p13, %r32, %r31;
  @%p13 bra SPUN;
  add.u32 %r32, %r32, 1;
  bra.uni SPIN;
SPUN:
  mov.u32 %r33, %r16;
  @%p2 sub.u32 %r33, %r16, %r20;
  setp.lt.u32 %p14, %r33, %r1;
  @%p3 bra IU;
  @!%p2 bar.blocksync.north;
  @!%p2 bar.blocksync.west;
  @!%p14 bra SM_SYNC;
  ld.cb.west.u32 %r40, [0];
  ld.cb.north.u32 %r41, [0];
  add.u32 %r42, %r40, %r41;
  add.u32 %r42, %r42, 1;
  @%p1 st.cb.east.u32 [0], %r42;
  @%p1 st.cb.south.u32 [0], %r42;
SM_SYNC:
  @%p2 bra SYNC_GLOBAL;
  bar.blocksync.south;
  setp.eq.u32 %p15, %r16, %r27;
  and.pred %p15, %p15, %p9;
  @!%p15 bar.blocksync.east;
  bra.uni NEXT;
IU:
  @!%p14 bra IU_SYNC;
  @%p2 bra IU_WORK;
  @%p6 bar.blocksync.west;
  @%p7 bar.blocksync.north;
IU_WORK:
  add.u32 %r43, %r24, %r33;
  @%p4 st.cb.east.u32 [0], %r43;
  @%p5 st.cb.south.u32 [0], %r43;
  @%p6 ld.cb.west.u32 %r44, [0];
  @%p7 ld.cb.north.u32 %r44, [0];
  add.u32 %r45, %r25, %r33;
  mul.wide.u32 %rd2, %r45, 4;
  add.u64 %rd3, %rd1, %rd2;
  @%p16 st.global.u32 [%rd3], %r44;
IU_SYNC:
  @%p2 bra SYNC_GLOBAL;
  @%p4 bar.blocksync.east;
  @%p5 bar.blocksync.south;
  bra.uni NEXT;
SYNC_GLOBAL:
  bar.blocksync;
NEXT:
  add.u32 %r16, %r16, 1;
  bra.uni LOOP;
DONE:
  ret;
}
)";

constexpr uint32_t kNone = ~0u;

struct Mesh {
  uint32_t gx = 2, gy = 2, faces = 5;
  bool global_sync = false;
  uint32_t mask = 0, seed = 0;
  uint32_t slow_unit = kNone, slow = 0;
  uint32_t skip = kNone, skip_face = 0;
  bool early = false;
};

// The recurrence of kMesh, in the layout of its `out`.
std::vector<uint32_t> expected(const Mesh& m) {
  std::vector<uint32_t> out(size_t(m.gx + m.gy) * m.faces);
  std::vector<uint32_t> h(size_t(m.gx) * m.gy);
  for (uint32_t f = 0; f < m.faces; ++f) {
    for (uint32_t y = 0; y < m.gy; ++y)
      for (uint32_t x = 0; x < m.gx; ++x) {
        const uint32_t w = x == 0 ? 1000 * y + f : h[y * m.gx + x - 1];
        const uint32_t n = y == 0 ? 500000 + 1000 * x + f : h[(y - 1) * m.gx + x];
        h[y * m.gx + x] = w + n + 1;
      }
    for (uint32_t y = 0; y < m.gy; ++y) out[y * m.faces + f] = h[y * m.gx + m.gx - 1];
    for (uint32_t x = 0; x < m.gx; ++x) out[(m.gy + x) * m.faces + f] = h[(m.gy - 1) * m.gx + x];
  }
  return out;
}

// Rendezvous every unit arrives at: directed, 4 per face on an SM and 1 on an
// IU; global, one per step the unit runs (all steps, or up to its last face).
uint64_t expected_waits(const Mesh& m) {
  if (!m.global_sync) return uint64_t(m.faces) * (4 * m.gx * m.gy + 2 * (m.gx + m.gy));
  const uint64_t steps = m.gx + m.gy + m.faces;
  if (!m.early) return steps * (m.gx * m.gy + 2 * (m.gx + m.gy));
  uint64_t n = 0;
  for (uint32_t y = 0; y < m.gy; ++y)
    for (uint32_t x = 0; x < m.gx; ++x) n += x + y + 1 + m.faces;
  for (uint32_t l = 0; l < m.gx; ++l) n += 2 * (l + m.faces) + m.gy + 1;  // north; south at gy + l + 1
  for (uint32_t l = 0; l < m.gy; ++l) n += 2 * (l + m.faces) + m.gx + 1;  // west; east at gx + l + 1
  return n;
}

DeviceOptions options(uint32_t p, const std::vector<std::string>& overrides = {}) {
  auto cfg = std::make_shared<Config>();
  cfg->set("sim.platform", "spu");
  cfg->set("spu.grid_size", std::to_string(p));
  cfg->set("gpu.num_sms", std::to_string(p * p));
  for (const std::string& o : overrides) cfg->apply_override(o);
  cfg->validate();
  DeviceOptions o;
  o.backend = Backend::Timing;
  o.config = cfg;
  return o;
}

double stat(const LaunchStats& s, const std::string& key) { return test::launch_stat(s, key); }

class MeshRunner {
 public:
  explicit MeshRunner(const DeviceOptions& o) : dev_(o) {
    module_ = dev_.load_module_string(std::string(functional::test::kSpuHeader) + kMesh, "mesh.ptx");
  }
  Device& device() { return dev_; }

  LaunchStats launch(const Mesh& m, std::vector<uint32_t>* out_values = nullptr) {
    const size_t words = size_t(m.gx + m.gy) * m.faces;
    const DevicePtr out = dev_.malloc(4 * words);
    dev_.memset(out, 0xff, 4 * words);
    LaunchConfig c;
    c.grid = Dim3(m.gx, m.gy);
    c.block = Dim3(64);  // two warps: a unit arrives only when both wait
    const LaunchStats s = dev_.launch(module_, "mesh", c,
                                      KernelArgs()
                                          .add(out)
                                          .add(m.faces)
                                          .add(uint32_t(m.global_sync))
                                          .add(m.mask)
                                          .add(m.seed)
                                          .add(m.slow_unit)
                                          .add(m.slow)
                                          .add(m.skip)
                                          .add(uint32_t(m.early))
                                          .add(m.skip_face));
    if (out_values) *out_values = dev_.download<uint32_t>(out, words);
    return s;
  }

  // Runs `m`, checks the values and the rendezvous count; returns the cycles.
  uint64_t run_and_check(const Mesh& m, const std::string& what) {
    std::vector<uint32_t> got;
    LaunchStats s;
    try {
      s = launch(m, &got);
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": " << e.what();
      return 0;
    }
    EXPECT_EQ(got, expected(m)) << what;
    EXPECT_EQ(stat(s, "gpu.spu.blocksync_waits"), double(expected_waits(m))) << what;
    return s.cycles;
  }

 private:
  Device dev_;
  ModuleHandle module_;
};

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
