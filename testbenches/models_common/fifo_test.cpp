// Fifo (models/common/fifo.h) against std::deque through random operations:
// the memory-side queues rely on it keeping exactly a deque's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <utility>

#include "models/common/fifo.h"

namespace simtlm::models {
namespace {

void expect_same(const Fifo<int>& f, const std::deque<int>& d, int step) {
  ASSERT_EQ(f.size(), d.size()) << "step " << step;
  ASSERT_EQ(f.empty(), d.empty()) << "step " << step;
  for (std::size_t i = 0; i < d.size(); ++i) ASSERT_EQ(f[i], d[i]) << "step " << step << " index " << i;
  ASSERT_TRUE(std::equal(f.begin(), f.end(), d.begin(), d.end())) << "step " << step;
  if (!d.empty()) {
    ASSERT_EQ(f.front(), d.front());
    ASSERT_EQ(f.back(), d.back());
  }
}

TEST(Fifo, BehavesLikeADequeUnderRandomOperations) {
  std::mt19937 rng(7);
  Fifo<int> f;
  std::deque<int> d;
  for (int step = 0; step < 60000; ++step) {
    // Phases of growth and of draining (the dead prefix passes the
    // compaction threshold while the queue is not empty).
    const bool growing = (step / 400) % 2 == 0;
    unsigned op = rng() % 10;
    if (op < 7) op = growing ? (op < 5 ? 0 : 4) : (op < 2 ? 0 : 4);
    const int v = static_cast<int>(rng() % 1000);
    if (op < 4) {  // push
      f.push_back(v);
      d.push_back(v);
    } else if (op < 7) {
      if (!d.empty()) {
        f.pop_front();
        d.pop_front();
      }
    } else if (op == 7) {  // sorted insertion, as the response queues do
      const auto fpos = std::upper_bound(f.begin(), f.end(), v);
      const auto dpos = std::upper_bound(d.begin(), d.end(), v);
      ASSERT_EQ(fpos - f.begin(), dpos - d.begin());
      EXPECT_EQ(*f.insert(fpos, v), v);
      d.insert(dpos, v);
    } else if (op == 8) {  // erase in the middle
      if (!d.empty()) {
        const std::size_t i = rng() % d.size();
        const auto next = f.erase(f.begin() + static_cast<std::ptrdiff_t>(i));
        d.erase(d.begin() + static_cast<std::ptrdiff_t>(i));
        ASSERT_EQ(next - f.begin(), static_cast<std::ptrdiff_t>(i));
      }
    } else if (rng() % 500 == 0) {
      f.clear();
      d.clear();
    }
    expect_same(f, d, step);
  }
}

TEST(Fifo, InsertAtTheFrontReusesThePoppedPrefix) {
  Fifo<int> f;
  for (int i = 0; i < 4; ++i) f.push_back(i);
  f.pop_front();
  f.pop_front();
  f.insert(f.begin(), 9);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0], 9);
  EXPECT_EQ(f[1], 2);
  EXPECT_EQ(f[2], 3);
}

TEST(Fifo, EraseLoopStopsAtTheEndEvenWhenItEmptiesTheQueue) {
  Fifo<int> f;
  for (int i = 0; i < 5; ++i) f.push_back(i);
  f.pop_front();
  int erased = 0;
  for (auto it = f.begin(); it != f.end();) {
    it = f.erase(it);
    ++erased;
  }
  EXPECT_EQ(erased, 4);
  EXPECT_TRUE(f.empty());
  f.push_back(7);
  EXPECT_EQ(f.front(), 7);
  EXPECT_EQ(f.size(), 1u);
}


TEST(Fifo, InsertOrderedIsStableAndMatchesUpperBound) {
  std::mt19937 rng(11);
  Fifo<std::pair<int, int>> f;  // (key, arrival)
  std::deque<std::pair<int, int>> d;
  const auto key = [](const std::pair<int, int>& p) { return p.first; };
  for (int step = 0; step < 5000; ++step) {
    if (!d.empty() && rng() % 3 == 0) {
      f.pop_front();
      d.pop_front();
      continue;
    }
    // Mostly non-decreasing keys (the append path), sometimes earlier ones.
    const int k = (d.empty() ? 0 : d.back().first) + static_cast<int>(rng() % 4) - (rng() % 5 == 0 ? 6 : 0);
    f.insert_ordered({k, step}, key);
    d.insert(std::upper_bound(d.begin(), d.end(), k, [](int kv, const auto& x) { return kv < x.first; }),
             {k, step});
    ASSERT_TRUE(std::equal(f.begin(), f.end(), d.begin(), d.end())) << "step " << step;
  }
}

}  // namespace
}  // namespace simtlm::models
