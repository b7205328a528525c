// Atomics and reductions: global and shared contention, a CAS spin lock,
// float adds, inc/dec wrap-around, min/max/and/or/xor/exch/cas, red.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/atomics_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kAtomFile = "functional/atomics_nvcc_sm75.ptx";

TEST(SimtAtomics, GlobalCounterContention) {
  Harness h(test_data::ptx(kAtomFile));
  const int ctas = 5, threads = 96;
  const uint64_t c = h.upload(std::vector<uint32_t>{0});
  const uint64_t tickets = h.alloc(ctas * threads * 4);
  h.run("counter", dim(ctas), dim(threads), Args().add(c).add(tickets));
  EXPECT_EQ(h.read<uint32_t>(c), static_cast<uint32_t>(ctas * threads));
  auto v = h.download<uint32_t>(tickets, ctas * threads);
  std::sort(v.begin(), v.end());
  for (uint32_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], i);  // every ticket exactly once
}

TEST(SimtAtomics, SharedHistogram) {
  Harness h(test_data::ptx(kAtomFile));
  const int n = 5000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000;
  const uint64_t din = h.upload(in);
  const uint64_t hist = h.upload(std::vector<int>(16, 0));
  h.run("histo", dim(4), dim(128), Args().add(din).add(hist).add(n));
  std::vector<int> ref(16, 0);
  for (int x : in) ref[x & 15]++;
  EXPECT_EQ(h.download<int>(hist, 16), ref);
}

TEST(SimtAtomics, CasSpinLock) {
  Harness h(test_data::ptx(kAtomFile));
  const int ctas = 3, threads = 64;
  const uint64_t lock = h.upload(std::vector<int>{0});
  const uint64_t total = h.upload(std::vector<int>{0});
  const uint64_t order = h.upload(std::vector<int>(ctas * threads, -1));
  h.run("lock_sum", dim(ctas), dim(threads), Args().add(lock).add(total).add(order));
  EXPECT_EQ(h.read<int>(total), ctas * threads);
  EXPECT_EQ(h.read<int>(lock), 0);
  auto v = h.download<int>(order, ctas * threads);
  std::sort(v.begin(), v.end());
  for (int i = 0; i < ctas * threads; ++i) EXPECT_EQ(v[i], i);  // each thread entered once
}

TEST(SimtAtomics, FloatAndDoubleAdd) {
  Harness h(test_data::ptx(kAtomFile));
  const uint64_t f = h.upload(std::vector<float>{1.0f});
  const uint64_t d = h.upload(std::vector<double>{-3.0});
  h.run("fatomics", dim(7), dim(50), Args().add(f).add(d));
  EXPECT_EQ(h.read<float>(f), 1.0f + 350 * 0.5f);
  EXPECT_EQ(h.read<double>(d), -3.0 + 350 * 0.25);
}

TEST(SimtAtomics, IntegerOperationsAndWrapAround) {
  Harness h(test_data::ptx(kAtomFile));
  const uint32_t and_init = 0xFFFFFFFFu;
  std::vector<uint32_t> u = {0, 0, 1000, 0, and_init, 0, 0, 12345};
  std::vector<int> s = {0, -100};
  std::vector<uint64_t> w = {0, 5};
  const uint64_t du = h.upload(u);
  const uint64_t ds = h.upload(s);
  const uint64_t dw = h.upload(w);
  const uint32_t threads = 20;
  h.run("misc", dim(1), dim(threads), Args().add(du).add(ds).add(dw));

  // CPU reference applying the operations in thread order.
  uint32_t inc = 0, dec = 0, umin = 1000, umax = 0, band = and_init, bor = 0, bxor = 0, exch = 12345;
  int smin = 0, smax = -100;
  uint64_t cas = 0, add64 = 5;
  for (uint32_t t = 0; t < threads; ++t) {
    inc = inc >= 5u ? 0 : inc + 1;
    dec = (dec == 0 || dec > 3u) ? 3u : dec - 1;
    smin = std::min(smin, static_cast<int>(t) - 10);
    smax = std::max(smax, static_cast<int>(t) - 10);
    umin = std::min(umin, t + 7);
    umax = std::max(umax, t * 3);
    band &= ~(1u << t);
    bor |= 1u << t;
    bxor ^= t;
    exch = t;
    if (cas == t) cas = t + 1;
    add64 += 1ull << 33;
  }
  const std::vector<uint32_t> ru = {inc, dec, umin, umax, band, bor, bxor, exch};
  EXPECT_EQ(h.download<uint32_t>(du, 8), ru);
  EXPECT_EQ(h.download<int>(ds, 2), (std::vector<int>{smin, smax}));
  EXPECT_EQ(h.download<uint64_t>(dw, 2), (std::vector<uint64_t>{cas, add64}));
}

// testbenches/data/functional/atomics_hand.ptx (its header says what each kernel does).
const char* const kAtomHandFile = "functional/atomics_hand.ptx";

TEST(SimtAtomics, OldValuesRedAndGenericShared) {
  Harness h(test_data::ptx(kAtomHandFile));
  const uint32_t threads = 40;
  const uint64_t p = h.upload(std::vector<uint32_t>(6, 0));
  const uint64_t out = h.alloc(threads * 4);
  h.run("oldvals", dim(1), dim(threads), Args().add(p).add(out));
  auto v = h.download<uint32_t>(out, threads);
  uint32_t inc = 0;
  for (uint32_t t = 0; t < threads; ++t) {  // lane order, warp order
    EXPECT_EQ(v[t], inc) << t;
    inc = inc >= 2 ? 0 : inc + 1;
  }
  auto m = h.download<uint32_t>(p, 2);
  EXPECT_EQ(m[0], inc);
  EXPECT_EQ(m[1], threads * (threads - 1) / 2);
  EXPECT_EQ(h.read<int64_t>(p + 8), -static_cast<int64_t>(threads - 1));
  EXPECT_EQ(h.read<uint64_t>(p + 16), 3u * threads);
}

}  // namespace
}  // namespace simtlm::functional::test
