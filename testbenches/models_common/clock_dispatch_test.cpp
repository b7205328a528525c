// ClockedModule dispatch: modules of one clock period tick at their planned
// edges, in construction order when they share an edge; wakes beyond the
// dispatcher's bucket ring, wakes for the same edge made during a tick, and
// modules of another period all run when asked; sleeping costs no ticks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "models/common/clock_domain.h"

namespace simtlm::models {
namespace {

sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

struct Log {
  std::vector<std::string> entries;  // "name@cycle"
};

// Ticks at the cycles in `plan` (each tick returns the next planned cycle)
// and records every tick; poke() wakes it from outside at a given cycle.
class Probe : public ClockedModule {
 public:
  Probe(const sc_core::sc_module_name& name, const sc_core::sc_time& period, Log& log, std::vector<uint64_t> plan)
      : ClockedModule(name, period), log_(log), plan_(std::move(plan)) {
    if (!plan_.empty()) wake_at(plan_.front());
  }
  void poke(uint64_t cycle) { wake_at(cycle); }
  // Another probe to wake for the current edge + `delta` during our next tick.
  void on_tick_wake(Probe* other, uint64_t delta) {
    other_ = other;
    delta_ = delta;
  }

 private:
  uint64_t tick(uint64_t cycle) override {
    log_.entries.push_back(std::string(basename()) + "@" + std::to_string(cycle));
    if (other_ != nullptr) {
      other_->poke(cycle + delta_);
      other_ = nullptr;
    }
    while (next_ < plan_.size() && plan_[next_] <= cycle) ++next_;
    return next_ < plan_.size() ? plan_[next_] : kSleep;
  }

  Log& log_;
  std::vector<uint64_t> plan_;
  size_t next_ = 0;
  Probe* other_ = nullptr;
  uint64_t delta_ = 0;
};

TEST(ClockDispatch, ModulesSharingAnEdgeTickInConstructionOrder) {
  Log log;
  Probe b("b", ns(1), log, {3, 5});
  Probe a("a", ns(1), log, {3, 4, 5});
  sc_core::sc_start(ns(20));
  const std::vector<std::string> want = {"b@3", "a@3", "a@4", "b@5", "a@5"};
  EXPECT_EQ(log.entries, want);
  EXPECT_EQ(a.ticks(), 3u);
  EXPECT_EQ(b.ticks(), 2u);
}

TEST(ClockDispatch, FarWakesAndLongSleepsTickExactlyThere) {
  // 64 cycles is the dispatcher's bucket ring: cover below, at and beyond it.
  Log log;
  Probe p("p", ns(1), log, {1, 63, 64, 65, 200, 1000, 1063, 1127});
  sc_core::sc_start(ns(2000));
  const std::vector<std::string> want = {"p@1", "p@63", "p@64", "p@65", "p@200", "p@1000", "p@1063", "p@1127"};
  EXPECT_EQ(log.entries, want);
  // Busy from the first tick while it had work planned, idle before it and
  // after the last one.
  uint64_t busy = 0, idle = 0;
  p.cycles_through_now(busy, idle);
  EXPECT_EQ(busy + idle, 2001u);
  EXPECT_EQ(busy, 1127u);
}

TEST(ClockDispatch, WakeForTheSameEdgeDuringATickRunsAtThatEdge) {
  Log log;
  Probe first("first", ns(1), log, {10});
  Probe second("second", ns(1), log, {});
  Probe later("later", ns(1), log, {});
  first.on_tick_wake(&second, 0);  // same edge: second has not run at 10 yet
  second.on_tick_wake(&later, 70);  // beyond the ring
  sc_core::sc_start(ns(200));
  const std::vector<std::string> want = {"first@10", "second@10", "later@80"};
  EXPECT_EQ(log.entries, want);
}

TEST(ClockDispatch, EarlierWakeOverridesAPlannedLaterTick) {
  Log log;
  Probe p("p", ns(1), log, {50});
  p.poke(20);
  sc_core::sc_start(ns(100));
  // The tick at 20 replans 50 (its plan), so 50 still runs once.
  const std::vector<std::string> want = {"p@20", "p@50"};
  EXPECT_EQ(log.entries, want);
}

TEST(ClockDispatch, ModulesOfDifferentPeriodsTickOnTheirOwnEdges) {
  Log log;
  Probe fast("fast", ns(1), log, {4, 6});
  Probe slow("slow", ns(1.5), log, {3, 4});  // edges at 4.5 ns and 6 ns
  sc_core::sc_start(ns(20));
  // By time: fast@4 (4 ns), slow@3 (4.5 ns), then 6 ns: fast@6 and slow@4.
  ASSERT_EQ(log.entries.size(), 4u);
  EXPECT_EQ(log.entries[0], "fast@4");
  EXPECT_EQ(log.entries[1], "slow@3");
  EXPECT_EQ(fast.ticks(), 2u);
  EXPECT_EQ(slow.ticks(), 2u);
}

}  // namespace
}  // namespace simtlm::models
