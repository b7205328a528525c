// The per-instruction interface the timing model drives: stepping warps by
// hand through barriers, exec records (classes, masks, generic-address lane
// sets, exits), deferred errors of unsupported instructions.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/api_stepping.ptx (its header says what each kernel does).
const char* const kApiFile = "functional/api_stepping.ptx";

TEST(SimtApi, SteppingWarpsThroughABarrier) {
  Harness h(test_data::ptx(kApiFile));
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
  Harness h(test_data::ptx(kApiFile));
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
  Harness h(test_data::ptx(kApiFile));
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
  Harness h(test_data::ptx(kApiFile));
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
