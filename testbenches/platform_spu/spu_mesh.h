// The SPU timing tests' mesh kernel (kMesh) and its runner, shared by the
// deadlock tests (spu_deadlock_test.cpp) and the overlapped-pass tests
// (spu_overlap_test.cpp): a wavefront of faces through a gx x gy grid with
// latency injected by the kernel itself, and the values it must produce,
// computed here from its recurrence, not from the model.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../functional_spu/spu_ptx.h"
#include "launch_stat.h"
#include "spu_options.h"
#include "simtlm/device.h"

namespace simtlm::test::mesh {

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
inline constexpr const char* kMesh = R"(
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

inline constexpr uint32_t kNone = ~0u;

struct Mesh {
  uint32_t gx = 2, gy = 2, faces = 5;
  bool global_sync = false;
  uint32_t mask = 0, seed = 0;
  uint32_t slow_unit = kNone, slow = 0;
  uint32_t skip = kNone, skip_face = 0;
  bool early = false;
};

// The recurrence of kMesh, in the layout of its `out`.
inline std::vector<uint32_t> expected(const Mesh& m) {
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
inline uint64_t expected_waits(const Mesh& m) {
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

inline DeviceOptions options(uint32_t p, const std::vector<std::string>& overrides = {}) {
  return spu_device_options(p, Backend::Timing, overrides);
}

inline double stat(const LaunchStats& s, const std::string& key) { return test::launch_stat(s, key); }

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

}  // namespace simtlm::test::mesh
