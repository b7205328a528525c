// Divergence and reconvergence: if/else, nesting, loops with divergent trip
// counts, early return, divergent returns of an inlined .func, brx.idx, and
// the SIMT stack seen through the per-instruction API.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/divergence_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kDivFile = "functional/divergence_nvcc_sm75.ptx";

int nested_ref(int t) {
  int v = 0;
  if (t < 16) {
    v = (t & 1) ? 1 : 2;
    if (t < 4) v += 10;
  } else {
    v = t % 3 == 0 ? 3 : t % 3 == 1 ? 4 : 5;
  }
  return v * 1000 + t;
}

int classify_ref(int x) {
  if (x < 0) return -1;
  if (x == 0) return 0;
  int r = 1;
  while (x > 9) {
    x /= 10;
    r++;
  }
  return r;
}

TEST(SimtControl, IfElse) {
  Harness h(test_data::ptx(kDivFile));
  const uint64_t out = h.alloc(64 * 4);
  h.run("ifelse", dim(1), dim(64), Args().add(out));
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) {
    int e = t + 100;
    if (t & 1) {
      e = 0;
      for (int i = 0; i < t; ++i) e += i ^ t;
    }
    EXPECT_EQ(v[t], e + 1) << t;
  }
}

TEST(SimtControl, NestedDivergence) {
  Harness h(test_data::ptx(kDivFile));
  const uint64_t out = h.alloc(64 * 4);
  h.run("nested", dim(1), dim(64), Args().add(out));
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], nested_ref(t)) << t;
}

TEST(SimtControl, LoopWithDivergentTripCounts) {
  Harness h(test_data::ptx(kDivFile));
  const int n = 96;  // 2 CTAs of 48 threads: partial second warp
  std::vector<int> trips(n);
  for (int t = 0; t < n; ++t) trips[t] = (t * 37 + 11) % 53;
  trips[5] = 0;
  trips[70] = 400;  // hits the break
  const uint64_t in = h.upload(trips);
  const uint64_t out = h.alloc(n * 4);
  h.run("loop_trips", dim(2), dim(48), Args().add(in).add(out));
  auto v = h.download<int>(out, n);
  for (int t = 0; t < n; ++t) {
    int s = 0;
    for (int i = 0; i < trips[t]; ++i) {
      s += i * t;
      if (s > 100000) break;
    }
    EXPECT_EQ(v[t], s) << t;
  }
}

TEST(SimtControl, EarlyReturn) {
  Harness h(test_data::ptx(kDivFile));
  const int threads = 128, n = 70;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t % 7 == 3) ? -t : t * 2654435 % 100000;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.upload(std::vector<int>(threads, 0x7777));
  h.run("early_return", dim(2), dim(64), Args().add(din).add(dout).add(n));
  auto v = h.download<int>(dout, threads);
  for (int t = 0; t < threads; ++t) {
    int expect = 0x7777;
    if (t < n) expect = in[t] < 0 ? -1 : __builtin_popcount(static_cast<unsigned>(in[t]));
    EXPECT_EQ(v[t], expect) << t;
  }
}

TEST(SimtControl, DivergentReturnInInlinedFunction) {
  Harness h(test_data::ptx(kDivFile));
  std::vector<int> in(64);
  for (int t = 0; t < 64; ++t) in[t] = (t % 5 == 0) ? -t : (t % 5 == 1 ? 0 : t * t * t * 17);
  in[2] = 5;
  in[3] = 7;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(64 * 4);
  h.run("func_ret", dim(1), dim(64), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], classify_ref(in[t]) * 10 + classify_ref(in[t] - 5)) << t;
}

TEST(SimtControl, SwitchCompareTree) {
  Harness h(test_data::ptx(kDivFile));
  std::vector<int> in(64);
  for (int t = 0; t < 64; ++t) in[t] = (t * 5) % 9 - 1;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(64 * 4);
  h.run("sw", dim(1), dim(64), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 64);
  const int table[] = {11, 22, 33, 44, 55, 66, 77};
  for (int t = 0; t < 64; ++t) {
    const int r = in[t] >= 0 && in[t] <= 6 ? table[in[t]] : -1;
    EXPECT_EQ(v[t], r + t) << t;
  }
}

// testbenches/data/functional/brx_idx_switch.ptx (its header says what each kernel does).
const char* const kBrxFile = "functional/brx_idx_switch.ptx";

TEST(SimtControl, BrxIdxSwitch) {
  Harness h(test_data::ptx(kBrxFile));
  std::vector<int> in(40);
  for (int t = 0; t < 40; ++t) in[t] = (t * 3) % 4;
  in[13] = 2;  // guard false for thread 13: falls through to L0
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(40 * 4);
  h.run("brx", dim(1), dim(40), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 40);
  for (int t = 0; t < 40; ++t) {
    const int idx = t == 13 ? 0 : in[t];
    const int r = idx == 0 ? 100 : idx == 1 ? 200 : idx == 2 ? 300 : 400 + t;
    EXPECT_EQ(v[t], r + t) << t;
  }
}

TEST(SimtControl, BrxIdxOutOfRangeFaults) {
  Harness h(test_data::ptx(kBrxFile));
  std::vector<int> in(32, 1);
  in[9] = 4;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(32 * 4);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("brx", dim(1), dim(32), Args().add(din).add(dout));
  });
  EXPECT_NE(msg.find("brx.idx index 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (9,0,0)"), std::string::npos) << msg;
}

// testbenches/data/functional/divergent_loop_exit.ptx (its header says what each kernel does).
const char* const kLoopFile = "functional/divergent_loop_exit.ptx";

TEST(SimtControl, StackStaysBoundedInDivergentLoop) {
  Harness h(test_data::ptx(kLoopFile));
  const uint64_t out = h.alloc(64 * 4);
  LaunchRequest req = h.request("countdown", dim(1), dim(64), Args().add(out), 64);
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  size_t max_depth = 0;
  unsigned divergent_branches = 0;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    if (r.cls == ExecClass::Branch && r.diverged) ++divergent_branches;
    if (!w.finished()) max_depth = std::max(max_depth, w.stack().size());
  }
  EXPECT_LE(max_depth, 2u);
  EXPECT_GT(divergent_branches, 10u);
  auto v = h.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t r = 0;
    do r += 3; while (r < t);
    EXPECT_EQ(v[t], r) << t;
  }
}

TEST(SimtControl, ExecRecordOfBranchesAndExit) {
  Harness h(test_data::ptx(kDivFile));
  const uint64_t out = h.alloc(32 * 4);
  LaunchRequest req = h.request("ifelse", dim(1), dim(32), Args().add(out));
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  bool saw_divergence = false, saw_store = false, saw_exit = false;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    ASSERT_NE(r.inst, nullptr);
    EXPECT_EQ(r.active_mask & ~0xFFFFFFFFull, 0u);
    if (r.cls == ExecClass::Branch && r.diverged) {
      saw_divergence = true;
      EXPECT_TRUE(r.taken);
      EXPECT_NE(w.active_mask(), 0xFFFFFFFFull);  // one path runs alone
    }
    if (r.cls == ExecClass::Store) {
      saw_store = true;
      EXPECT_EQ(r.exec_mask, 0xFFFFFFFFull);  // reconverged before the store
      EXPECT_EQ(r.space, ir::StateSpace::Global);
      EXPECT_EQ(r.access_bytes, 4u);
      for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r.addresses[l], out + 4 * l);
    }
    if (r.cls == ExecClass::Exit) {
      saw_exit = true;
      EXPECT_EQ(r.exited_lanes, 0xFFFFFFFFull);
      EXPECT_TRUE(r.finished);
    }
  }
  EXPECT_TRUE(saw_divergence);
  EXPECT_TRUE(saw_store);
  EXPECT_TRUE(saw_exit);
  EXPECT_TRUE(cta.finished());
}

// A register read before any write reads 0 in every launch: `dirty` leaves
// other values in the register storage of its warps, and `guarded` then reads
// %r2, written only by even threads, in every thread. Its warps are built
// with the same shapes, so their (not value-initialised) register storage is
// likely the storage `dirty` left; only the registers live at entry are zeroed.
TEST(SimtControl, RegistersReadBeforeWrittenAreZeroInEveryLaunch) {
  Harness h(test_data::ptx("functional/uninitialised_registers.ptx"));
  const uint32_t threads = 256;
  const uint64_t out = h.alloc(threads * 4);
  for (int round = 0; round < 3; ++round) {
    h.run("dirty", dim(4), dim(threads), Args().add(out));
    h.run("guarded", dim(4), dim(threads), Args().add(out));
    const auto v = h.download<uint32_t>(out, threads);
    for (uint32_t t = 0; t < threads; ++t) {
      EXPECT_EQ(v[t], t % 2 == 0 ? t + 1000 : 0u) << "thread " << t << " round " << round;
    }
  }
}

}  // namespace
}  // namespace simtlm::functional::test
