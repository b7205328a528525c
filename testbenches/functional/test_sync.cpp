// Barriers: bar.sync across warps, barriers that count only live threads,
// bar.red.popc/and/or, named barriers with thread counts and bar.arrive,
// dynamic shared memory, deadlock reports, warp widths.
#include <gtest/gtest.h>

#include <vector>

#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/sync_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kSyncFile = "functional/sync_nvcc_sm75.ptx";

TEST(SimtSync, ReverseThroughSharedMemory) {
  Harness h(test_data::ptx(kSyncFile));
  const int threads = 256, ctas = 3;
  std::vector<int> data(threads * ctas);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i * 7 + 1);
  const uint64_t d = h.upload(data);
  h.run("reverse", dim(ctas), dim(threads), Args().add(d));
  auto v = h.download<int>(d, data.size());
  for (int b = 0; b < ctas; ++b)
    for (int t = 0; t < threads; ++t) EXPECT_EQ(v[b * threads + t], data[b * threads + threads - 1 - t]);
}

void check_exit_then_sync(int n, unsigned warp_size) {
  Harness h(test_data::ptx(kSyncFile));
  const uint64_t out = h.upload(std::vector<int>(64, -5));
  h.run("exit_then_sync", dim(1), dim(64), Args().add(out).add(n), warp_size);
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], t < n ? 2 * (n - 1 - t) : -5) << "n=" << n << " t=" << t;
}

TEST(SimtSync, BarrierCountsOnlyLiveThreadsPartialWarp) { check_exit_then_sync(40, 32); }

// Warp 1 exits entirely while warp 0 already waits: the exit must release it.
TEST(SimtSync, BarrierReleasedWhenWaitedForWarpExits) { check_exit_then_sync(20, 32); }

TEST(SimtSync, BarrierWithExitsAtOtherWidths) {
  check_exit_then_sync(20, 8);
  check_exit_then_sync(37, 64);
  check_exit_then_sync(5, 1);
}

TEST(SimtSync, BarRedPopcAndOr) {
  Harness h(test_data::ptx(kSyncFile));
  const int threads = 96;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t * 13) % 40 + 1;  // all > 0, none > 1000
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 4);
  h.run("popc_red", dim(1), dim(threads), Args().add(din).add(dout));
  int count = 0;
  for (int t = 0; t < threads; ++t) count += in[t] > 10;
  auto v = h.download<int>(dout, threads);
  for (int t = 0; t < threads; ++t) EXPECT_EQ(v[t], count * 100 + 10 + 0) << t;

  in[50] = -3;    // and becomes false
  in[17] = 5000;  // or becomes true
  Harness h2(test_data::ptx(kSyncFile));
  const uint64_t din2 = h2.upload(in);
  const uint64_t dout2 = h2.alloc(threads * 4);
  h2.run("popc_red", dim(1), dim(threads), Args().add(din2).add(dout2));
  count = 0;
  for (int t = 0; t < threads; ++t) count += in[t] > 10;
  v = h2.download<int>(dout2, threads);
  for (int t = 0; t < threads; ++t) EXPECT_EQ(v[t], count * 100 + 0 + 1) << t;
}

float tree_ref(const std::vector<float>& in, int base, int n) {
  std::vector<float> b(in.begin() + base, in.begin() + base + n);
  for (int s = n / 2; s > 0; s >>= 1)
    for (int t = 0; t < s; ++t) b[t] += b[t + s];
  return b[0];
}

TEST(SimtSync, DynamicSharedTreeReductionAllWidths) {
  const int threads = 128, ctas = 3;
  std::vector<float> in(threads * ctas);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 37) % 101) * 0.25f;
  for (unsigned w : {1u, 8u, 32u, 64u, 48u}) {
    Harness h(test_data::ptx(kSyncFile));
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.alloc(ctas * 4);
    h.run("smem_tree", dim(ctas), dim(threads), Args().add(din).add(dout), w, threads * 4);
    auto v = h.download<float>(dout, ctas);
    for (int b = 0; b < ctas; ++b) EXPECT_EQ(v[b], tree_ref(in, b * threads, threads)) << "W=" << w;
  }
}

TEST(SimtSync, DynamicSharedTooSmallFaults) {
  Harness h(test_data::ptx(kSyncFile));
  const uint64_t din = h.upload(std::vector<float>(64, 1.0f));
  const uint64_t dout = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("smem_tree", dim(1), dim(64), Args().add(din).add(dout), 32, 32 * 4);
  });
  EXPECT_NE(msg.find("out-of-bounds shared store"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (32,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the CTA's shared memory is 128 bytes"), std::string::npos) << msg;
}

// testbenches/data/functional/named_barriers.ptx (its header says what each kernel does).
const char* const kNamedFile = "functional/named_barriers.ptx";

TEST(SimtSync, NamedBarrierArriveAndSyncWithCount) {
  Harness h(test_data::ptx(kNamedFile));
  const uint64_t out = h.alloc(64 * 4);
  h.run("prodcons", dim(2), dim(128), Args().add(out));
  auto v = h.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(v[t], t * 7) << t;
}

TEST(SimtSync, DeadlockOnDifferentBarriers) {
  Harness h(test_data::ptx(kNamedFile));
  const uint64_t out = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Deadlock, [&] {
    h.run("twobarriers", dim(2), dim(64), Args().add(out));
  });
  EXPECT_NE(msg.find("kernel 'twobarriers'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("CTA (0,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 0 waits at barrier 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 1 waits at barrier 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("32 of 64 threads arrived"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bar.sync 0"), std::string::npos) << msg;
}

// bar executes per warp: half a warp reaching the barrier arrives for the
// whole warp (lanes parked on the other path count), as on hardware.
TEST(SimtSync, BarrierInsideDivergentBranchCountsWholeWarp) {
  Harness h(test_data::ptx(kNamedFile));
  const uint64_t out = h.alloc(4);
  const LaunchCounters c = h.run("halfwarp", dim(2), dim(64), Args().add(out));
  EXPECT_EQ(c.ctas, 2u);
}

TEST(SimtSync, DeadlockWhenCountExceedsThreads) {
  Harness h(test_data::ptx(kNamedFile));
  const uint64_t out = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Deadlock, [&] {
    h.run("counted", dim(1), dim(64), Args().add(out));
  });
  EXPECT_NE(msg.find("kernel 'counted'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 1 waits at barrier 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("64 of 96 threads arrived"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::functional::test
