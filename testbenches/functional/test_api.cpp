// The per-instruction interface the timing model drives: stepping warps by
// hand through barriers, exec records (classes, masks, generic-address lane
// sets, exits), deferred errors of unsupported instructions.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "harness.h"

namespace simtlm::functional::test {
namespace {

const char* const kApiPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry twophase(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  .shared .align 4 .b32 buf[64];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  xor.b32 %r5, %r1, 63;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r3, %r5;
  ld.shared.u32 %r6, [%r5];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}

.visible .entry partial_exit(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 10;
  @%p1 exit;
  add.u32 %r2, %r1, 1000;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}

.visible .entry classes(.param .u64 out, .param .align 8 .b8 s[16])
{
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<3>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 4 .b32 sm[32];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mul.f32 %f2, %f1, %f1;
  sqrt.approx.f32 %f3, %f2;
  cvt.f64.f32 %fd1, %f3;
  add.f64 %fd2, %fd1, %fd1;
  mov.b64 %rd1, s;
  ld.param.u32 %r2, [%rd1+8];
  mov.u64 %rd2, sm;
  cvta.shared.u64 %rd3, %rd2;
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 1;
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd5, %rd4, %rd5;
  @%p1 add.s64 %rd5, %rd3, %rd5;
  @%p1 sub.s64 %rd5, %rd5, %rd4;
  st.u32 [%rd5], %r2;
  atom.shared.add.u32 %r4, [sm], 1;
  red.global.add.u32 [%rd4+128], 1;
  membar.cta;
  activemask.b32 %r5;
  @%p1 bra SKIP;
  add.u32 %r6, %r5, 1;
SKIP:
  ret;
}

.visible .entry deadcode(.param .u32 go, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [go];
  setp.ne.u32 %p1, %r1, 0;
  ld.param.u64 %rd1, [out];
  @%p1 atom.global.add.noftz.f16x2 %r2, [%rd1], %r1;
  ret;
}
)PTX";

TEST(SimtApi, SteppingWarpsThroughABarrier) {
  Harness h(kApiPtx);
  const uint64_t out = h.alloc(64 * 4);
  LaunchRequest req = h.request("twophase", dim(1), dim(64), Args().add(out));
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  ASSERT_EQ(cta.num_warps(), 2u);
  Warp& w0 = cta.warp(0);
  Warp& w1 = cta.warp(1);
  // Warp 0 runs to the barrier and waits.
  while (w0.can_issue()) {
    const ExecRecord& r = execute(w0, cta, ctx);
    if (r.cls == ExecClass::Barrier) {
      EXPECT_TRUE(r.waiting);
      EXPECT_FALSE(r.released);
    }
  }
  EXPECT_TRUE(w0.waiting());
  EXPECT_FALSE(w0.finished());
  EXPECT_EQ(w0.barrier_id(), 0u);
  // Warp 1 arrives last and releases both.
  bool released = false;
  while (!released) {
    ASSERT_TRUE(w1.can_issue());
    const ExecRecord& r = execute(w1, cta, ctx);
    if (r.cls == ExecClass::Barrier) {
      released = r.released;
      EXPECT_FALSE(r.waiting);
    }
  }
  EXPECT_FALSE(w0.waiting());
  while (w1.can_issue()) execute(w1, cta, ctx);
  while (w0.can_issue()) execute(w0, cta, ctx);
  EXPECT_TRUE(cta.finished());
  auto v = h.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(v[t], t ^ 63u);
  // Executing a finished warp is a usage error.
  expect_error(ErrorKind::Internal, [&] { execute(w0, cta, ctx); });
}

TEST(SimtApi, GuardedExitRetiresSomeLanes) {
  Harness h(kApiPtx);
  const uint64_t out = h.upload(std::vector<uint32_t>(32, 7));
  LaunchRequest req = h.request("partial_exit", dim(1), dim(32), Args().add(out));
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  bool saw_exit = false;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    if (r.cls == ExecClass::Exit && !saw_exit) {
      saw_exit = true;
      EXPECT_EQ(r.exited_lanes, 0x3FFull);
      EXPECT_FALSE(r.finished);
      EXPECT_EQ(w.live_mask(), 0xFFFFFC00ull);
      EXPECT_EQ(w.active_mask(), 0xFFFFFC00ull);
    }
  }
  EXPECT_EQ(cta.live_threads(), 0u);
  auto v = h.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t < 10 ? 7u : t + 1000u);
}

TEST(SimtApi, RecordClassesSpacesAndGenericLanes) {
  Harness h(kApiPtx);
  const uint64_t out = h.alloc(256);
  struct S {
    uint64_t a;
    uint32_t b, c;
  } s{1, 0xABCD, 2};
  LaunchRequest req = h.request("classes", dim(1), dim(32), Args().add(out).add(s));
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  std::vector<ExecClass> classes;
  bool checked_generic = false, checked_param = false;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    classes.push_back(r.cls);
    if (r.cls == ExecClass::Store && r.space == ir::StateSpace::Generic) {
      checked_generic = true;
      EXPECT_EQ(r.shared_lanes, 0xAAAAAAAAull);  // odd lanes hit the shared window
      EXPECT_EQ(r.local_lanes, 0u);
      EXPECT_EQ(r.addresses[1], kSharedWindowBase + 4);
      EXPECT_EQ(r.addresses[2], out + 8);
    }
    if (r.cls == ExecClass::Load && r.space == ir::StateSpace::Param && r.pc == 7) {
      checked_param = true;
      EXPECT_EQ(r.addresses[0], 8u + 8u);  // s is at offset 8 of the parameter buffer
    }
  }
  EXPECT_TRUE(checked_generic);
  EXPECT_TRUE(checked_param);
  const std::vector<ExecClass> expect = {
      ExecClass::Int,    ExecClass::Fp,        ExecClass::Fp,        ExecClass::Sfu,    ExecClass::Dp,
      ExecClass::Dp,     ExecClass::Int,       ExecClass::Load,      ExecClass::Int,    ExecClass::Int,
      ExecClass::Int,    ExecClass::Int,       ExecClass::Load,      ExecClass::Int,    ExecClass::Int,
      ExecClass::Int,    ExecClass::Int,       ExecClass::Store,     ExecClass::Atomic, ExecClass::Reduction,
      ExecClass::Nop,    ExecClass::Collective, ExecClass::Branch};
  ASSERT_GE(classes.size(), expect.size());
  for (size_t i = 0; i < expect.size(); ++i) EXPECT_EQ(static_cast<int>(classes[i]), static_cast<int>(expect[i])) << i;
  auto v = h.download<uint32_t>(out, 33);
  for (uint32_t t = 0; t < 32; t += 2) EXPECT_EQ(v[t], 0xABCDu) << t;
  EXPECT_EQ(v[32], 32u);  // red.global.add by every lane
  std::vector<uint32_t> sm(1);
  std::memcpy(sm.data(), cta.shared(), 4);
  EXPECT_EQ(sm[0], 32u);
}

TEST(SimtApi, UnsupportedInstructionFailsOnlyWhenExecuted) {
  Harness h(kApiPtx);
  const uint64_t out = h.alloc(256);
  h.run("deadcode", dim(1), dim(32), Args().add(uint32_t{0}).add(out));  // guard false everywhere
  const std::string msg = expect_error(ErrorKind::Ptx, [&] {
    h.run("deadcode", dim(1), dim(32), Args().add(uint32_t{1}).add(out));
  });
  EXPECT_NE(msg.find("test.ptx:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("kernel 'deadcode'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("atom.global.add.noftz.f16x2"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::functional::test
