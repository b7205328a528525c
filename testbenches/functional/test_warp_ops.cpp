// Warp collectives: shfl.sync in every mode (with widths, clamps, the
// predicate output, partial warps), vote.sync all/any/uni/ballot with inactive
// lanes, activemask; the same results at warp width 64 (32-lane segments).
#include <gtest/gtest.h>

#include <vector>

#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/warp_ops_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kWarpFile = "functional/warp_ops_nvcc_sm75.ptx";

// CUDA programming-guide semantics of the shuffles (own value when the source
// lane is outside the segment or does not exist).
struct ShflRef {
  const std::vector<int>& v;
  int warp_threads;  // threads present in this 32-lane warp
  int base;          // thread index of lane 0
  int own(int l) const { return v[base + l]; }
  int at(int l, int src) const { return src < warp_threads ? v[base + src] : own(l); }
  int down(int l, int d, int w) const { return (l % w) + d < w ? at(l, l + d) : own(l); }
  int up(int l, int d, int w) const { return (l % w) >= d ? at(l, l - d) : own(l); }
  int bfly(int l, int m, int w) const { return ((l ^ m) / w == l / w) ? at(l, l ^ m) : own(l); }
  int idx(int l, int s, int w) const { return at(l, (l / w) * w + s % w); }
};

void check_shfl_modes(int threads, unsigned warp_size) {
  Harness h(test_data::ptx(kWarpFile));
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = t * 1000 + 7;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 7 * 4);
  h.run("shfl_modes", dim(1), dim(threads), Args().add(din).add(dout), warp_size);
  auto o = h.download<int>(dout, threads * 7);
  for (int t = 0; t < threads; ++t) {
    const int base = t & ~31;
    ShflRef r{in, std::min(32, threads - base), base};
    const int l = t & 31;
    EXPECT_EQ(o[t * 7 + 0], r.down(l, 3, 32)) << "down t=" << t;
    EXPECT_EQ(o[t * 7 + 1], r.up(l, 5, 32)) << "up t=" << t;
    EXPECT_EQ(o[t * 7 + 2], r.bfly(l, 6, 32)) << "xor t=" << t;
    EXPECT_EQ(o[t * 7 + 3], r.idx(l, (t * 7) & 31, 32)) << "idx t=" << t;
    EXPECT_EQ(o[t * 7 + 4], r.idx(l, 2, 8)) << "idx/8 t=" << t;
    EXPECT_EQ(o[t * 7 + 5], r.up(l, 1, 8)) << "up/8 t=" << t;
    EXPECT_EQ(o[t * 7 + 6], r.down(l, 4, 16)) << "down/16 t=" << t;
  }
}

TEST(SimtWarpOps, ShflAllModes) { check_shfl_modes(64, 32); }

TEST(SimtWarpOps, ShflPartialWarp) { check_shfl_modes(52, 32); }

TEST(SimtWarpOps, ShflWidth64BehavesAsTwo32LaneSegments) {
  check_shfl_modes(64, 64);
  check_shfl_modes(100, 64);
}

TEST(SimtWarpOps, WarpReduceSameAtWidths32And64) {
  const int threads = 256;
  std::vector<float> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = static_cast<float>((t * 29) % 64) * 0.5f;
  std::vector<float> ref(threads / 32, 0.0f);
  for (int t = 0; t < threads; ++t) ref[t / 32] += in[t];  // exact: multiples of 0.5
  for (unsigned w : {32u, 64u}) {
    Harness h(test_data::ptx(kWarpFile));
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.alloc(ref.size() * 4);
    h.run("warp_reduce", dim(2), dim(128), Args().add(din).add(dout), w);
    EXPECT_EQ(h.download<float>(dout, ref.size()), ref) << "W=" << w;
  }
}

TEST(SimtWarpOps, VotesWithInactiveLanes) {
  Harness h(test_data::ptx(kWarpFile));
  const int threads = 64;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t % 3 == 0) ? 0 : (t * 11) % 60 + 1;
  // Warp 1: every active lane > 5 and odd, so all/uni hold there.
  for (int t = 32; t < 64; ++t) in[t] = (t % 3 == 0) ? 0 : 7 + 2 * (t % 5);
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 5 * 4);
  h.run("votes", dim(1), dim(threads), Args().add(din).add(dout));
  auto o = h.download<uint32_t>(dout, threads * 5);
  for (int w = 0; w < 2; ++w) {
    uint32_t m = 0, ballot = 0;
    bool all = true, any = false, odd_all = true, odd_none = true;
    for (int l = 0; l < 32; ++l) {
      const int x = in[w * 32 + l];
      if (x == 0) continue;
      m |= 1u << l;
      all = all && x > 5;
      any = any || x > 50;
      odd_all = odd_all && (x & 1);
      odd_none = odd_none && !(x & 1);
      if (x > 3) ballot |= 1u << l;
    }
    for (int l = 0; l < 32; ++l) {
      const int t = w * 32 + l;
      if (in[t] == 0) {
        for (int k = 0; k < 5; ++k) EXPECT_EQ(o[t * 5 + k], 0u) << t;
        continue;
      }
      EXPECT_EQ(o[t * 5 + 0], all ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 1], any ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 2], (odd_all || odd_none) ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 3], ballot) << t;
      EXPECT_EQ(o[t * 5 + 4], m) << t;
    }
  }
  EXPECT_EQ(o[34 * 5 + 0], 1u);  // warp 1: all > 5
  EXPECT_EQ(o[34 * 5 + 2], 1u);  // warp 1: uniform (all odd)
  EXPECT_EQ(o[34 * 5 + 1], 0u);  // warp 1: none > 50
}

// testbenches/data/functional/shfl_predicates.ptx (its header says what each kernel does).
const char* const kShflPredFile = "functional/shfl_predicates.ptx";

TEST(SimtWarpOps, ShflPredicateClampAndPartialMemberBallot) {
  for (uint32_t threads : {32u, 24u}) {
    Harness h(test_data::ptx(kShflPredFile));
    const uint64_t out = h.alloc(threads * 32);
    h.run("shflpred", dim(1), dim(threads), Args().add(out));
    auto o = h.download<uint32_t>(out, threads * 8);
    for (uint32_t l = 0; l < threads; ++l) {
      const uint32_t* r = &o[l * 8];
      const bool pdown = l + 5 <= 31;
      const bool src_exists = l + 5 < threads;
      EXPECT_EQ(r[0], pdown && src_exists ? (l + 5) * 10 : l * 10) << l;
      EXPECT_EQ(r[1], pdown ? 1u : 0u) << l;
      const bool pup = static_cast<int>(l) - 3 >= static_cast<int>(l & 0x18);
      EXPECT_EQ(r[2], pup ? (l - 3) * 10 : l * 10) << l;
      EXPECT_EQ(r[3], pup ? 1u : 0u) << l;
      if (l < 16) {
        EXPECT_EQ(r[4], 0xFC00u) << l;
      }
    }
  }
}

}  // namespace
}  // namespace simtlm::functional::test
