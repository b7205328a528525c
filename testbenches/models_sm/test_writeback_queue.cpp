// The SM's writeback queue (models/sm/writeback_queue.h) against the order it
// promises — by cycle, then by push order — computed independently by a
// stable sort of everything pushed. The mix covers what the calendar handles
// specially: events beyond its window (the overflow heap), a heap event and a
// bucket event for the same cycle, clock jumps longer than the window, and
// events pushed for the cycle being drained.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "models/sm/writeback_queue.h"

namespace simtlm::models {
namespace {

struct Pushed {
  uint64_t cycle;
  uint32_t id;  // push order, carried in Event::slot
};

// Runs a clock from 0: at each visited cycle it drains everything due, then
// pushes new events at offsets drawn by `offset`; returns the drained order and
// fills `pushed` with everything pushed.
template <typename Offset>
std::vector<uint32_t> drive(uint64_t cycles, uint64_t max_step, Offset offset, std::vector<Pushed>& pushed) {
  std::mt19937_64 rng(7);
  WritebackQueue q;
  const InstTiming info{};
  std::vector<uint32_t> drained;
  uint64_t c = 0;
  while (c < cycles) {
    while (q.due(c)) {
      const WritebackQueue::Event e = q.pop();
      EXPECT_LE(e.cycle, c);
      drained.push_back(e.slot);
    }
    const unsigned n = static_cast<unsigned>(rng() % 4);
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t at = c + offset(rng);
      const auto id = static_cast<uint32_t>(pushed.size());
      pushed.push_back({at, id});
      q.alu(at, id, info);
    }
    EXPECT_GE(q.next(), c) << "an event is never due in the past";
    c += 1 + rng() % max_step;
  }
  while (q.next() != ~0ull) {  // drain the rest at the cycles they are due
    c = std::max(c, q.next());
    while (q.due(c)) drained.push_back(q.pop().slot);
  }
  return drained;
}

std::vector<uint32_t> reference_order(std::vector<Pushed> pushed) {
  std::stable_sort(pushed.begin(), pushed.end(), [](const Pushed& a, const Pushed& b) { return a.cycle < b.cycle; });
  std::vector<uint32_t> order;
  for (const Pushed& p : pushed) order.push_back(p.id);
  return order;
}

TEST(WritebackQueue, ShortLatenciesComeOutByCycleThenPushOrder) {
  std::vector<Pushed> pushed;
  const auto drained = drive(20000, 1, [](std::mt19937_64& r) { return 1 + r() % 30; }, pushed);
  ASSERT_GT(pushed.size(), 10000u);
  EXPECT_EQ(drained, reference_order(pushed));
}

TEST(WritebackQueue, LatenciesBeyondTheWindowAndClockJumpsKeepTheOrder) {
  std::vector<Pushed> pushed;
  // Offsets up to 600 cycles (most beyond the 128-cycle window), the clock
  // jumping up to 300 cycles, and zero offsets (pushed for the cycle just drained).
  const auto drained = drive(200000, 300, [](std::mt19937_64& r) { return r() % 600 < 20 ? 0 : r() % 600; }, pushed);
  ASSERT_GT(pushed.size(), 1000u);
  EXPECT_EQ(drained, reference_order(pushed));
}

TEST(WritebackQueue, AnOverflowEventPrecedesABucketEventOfItsCycle) {
  WritebackQueue q;
  const InstTiming info{};
  q.alu(500, 1, info);  // beyond the window at cycle 0: the overflow heap
  ASSERT_FALSE(q.due(450));
  q.alu(500, 2, info);  // now within the window: the bucket
  q.alu(499, 3, info);
  EXPECT_EQ(q.next(), 499u);
  ASSERT_TRUE(q.due(500));
  EXPECT_EQ(q.pop().slot, 3u);
  ASSERT_TRUE(q.due(500));
  EXPECT_EQ(q.pop().slot, 1u);
  ASSERT_TRUE(q.due(500));
  EXPECT_EQ(q.pop().slot, 2u);
  EXPECT_FALSE(q.due(500));
  EXPECT_EQ(q.next(), ~0ull);
}

TEST(WritebackQueue, KindsOfEventsKeepTheirFields) {
  WritebackQueue q;
  const InstTiming info{};
  q.memory_piece(3, 42, info);
  q.release(3, 5, info);
  ASSERT_TRUE(q.due(3));
  const WritebackQueue::Event piece = q.pop();
  EXPECT_EQ(piece.slot, ~0u);
  EXPECT_EQ(piece.op, 42u);
  EXPECT_EQ(piece.info, &info);
  ASSERT_TRUE(q.due(3));
  const WritebackQueue::Event written = q.pop();
  EXPECT_EQ(written.slot, 5u);
  EXPECT_EQ(written.op, WritebackQueue::kWritten);
}

}  // namespace
}  // namespace simtlm::models
