// Clock domains without sc_clock. A module owns a period; time is converted to
// integer cycle numbers of that period, and a clocked module runs one
// SC_METHOD that ticks at its own edges only while it has work (DESIGN.md,
// "Time").
//
// Edge convention used by every memory-side module: something that happens at
// time t (an arrival, an END_REQ, a response) is seen by a module at its first
// clock edge *strictly after* t, i.e. cycle floor(t / period) + 1. Arrivals
// exactly on an edge are therefore registered one edge later (they missed the
// setup of that edge). This makes the result independent of the delta-cycle
// order of processes that run at the same edge.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include <systemc>

namespace simtlm::models {

// Period of a clock given in MHz, rounded to the simulation time resolution.
sc_core::sc_time period_from_mhz(double mhz);

// The current simulation time. sc_core::sc_time_stamp() is an out-of-line
// library call that looks the simulation context up each time; the clocked
// modules ask for the time millions of times per run, so they read it from
// the context (one per process, created at elaboration) directly.
inline const sc_core::sc_time& sim_time() {
  static const sc_core::sc_simcontext* const context = sc_core::sc_get_curr_simcontext();
  return context->time_stamp();
}

class Clock {
 public:
  explicit Clock(const sc_core::sc_time& period);

  const sc_core::sc_time& period() const { return period_; }
  // Cycle number whose edge is at or before t: floor(t / period).
  uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / ticks_; }
  // Cycle number at the current simulation time (floor).
  uint64_t now() const { return cycle_of(sim_time()); }
  // First cycle at which something happening at time t is seen: floor(t/P)+1.
  uint64_t registration_cycle(const sc_core::sc_time& t) const { return cycle_of(t) + 1; }
  uint64_t registration_cycle_now() const { return now() + 1; }
  // Time of the edge of `cycle`.
  sc_core::sc_time time_of(uint64_t cycle) const { return sc_core::sc_time::from_value(cycle * ticks_); }
  // Delay from now until the edge of `cycle` (zero if the edge is not in the future).
  sc_core::sc_time delay_until(uint64_t cycle) const;
  bool on_edge() const { return sim_time().value() % ticks_ == 0; }

 private:
  sc_core::sc_time period_;
  uint64_t ticks_;  // period in units of the time resolution
};

class ClockDispatcher;

// Base of every clocked memory-side module. tick() is called at clock edges
// and returns the cycle of the next wanted tick, kSleep to sleep until
// wake_at() is called (typically from an arrival), or kWaitBusy to do the same
// while it still has work that cannot progress until something wakes it (a
// blocked lookup). A module that sleeps or waits is not evaluated at all; the
// cycles it slept are credited to idle_cycles() from timestamps, the cycles it
// ran, waited or deliberately skipped while it had work to busy_cycles().
//
// Dispatch: the modules of one clock period share a ClockDispatcher, which
// keeps their planned ticks in a queue and runs one SystemC method process
// per edge at which any of them has work; at that edge it calls the due
// modules' tick() in construction order. One timed SystemC event per busy
// edge instead of one per module tick (the kernel's event queue dominated
// the profile), and a fixed order among modules ticking at the same edge.
class ClockedModule : public sc_core::sc_module {
 public:
  static constexpr uint64_t kSleep = std::numeric_limits<uint64_t>::max();
  static constexpr uint64_t kWaitBusy = kSleep - 1;

  ~ClockedModule() override;

  const Clock& clock() const { return clock_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t idle_cycles() const { return idle_cycles_; }
  uint64_t ticks() const { return ticks_; }
  // Busy and idle cycles through the current cycle (for statistics read
  // between ticks): the cycles since the last tick are busy while the module
  // waits with work (kWaitBusy), idle otherwise.
  void cycles_through_now(uint64_t& busy, uint64_t& idle) const;

 protected:
  ClockedModule(const sc_core::sc_module_name& name, const sc_core::sc_time& period);

  // One evaluation at the edge of `cycle`. Returns the next cycle to run
  // (> cycle), kSleep or kWaitBusy.
  virtual uint64_t tick(uint64_t cycle) = 0;

  // Makes sure tick() runs at `cycle` (or earlier). `cycle` must be in the future.
  // Inline for the common case of a tick already planned at or before it.
  void wake_at(uint64_t cycle) {
    if (planned_ > cycle) plan(cycle);
  }
  // Wakes at the first edge strictly after now (the registration edge).
  void wake_next() { wake_at(clock_.registration_cycle_now()); }

 private:
  friend class ClockDispatcher;
  SC_HAS_PROCESS(ClockedModule);
  // The method process of the dispatcher's host module (see ClockDispatcher).
  void host_process();
  // Called by the dispatcher at the edge of cycle c (planned_ == c).
  void run_tick(uint64_t c);
  // wake_at() when no tick is planned at or before `cycle`.
  void plan(uint64_t cycle);

  Clock clock_;
  std::shared_ptr<ClockDispatcher> dispatcher_;
  uint32_t index_ = 0;          // construction order within the dispatcher
  // What plan() and run_tick() touch on every tick sits together here (the
  // large event object comes last).
  uint64_t last_cycle_ = 0;
  bool ran_once_ = false;
  bool sleeping_ = true;
  bool waiting_busy_ = false;  // the last tick returned kWaitBusy
  uint64_t planned_ = kSleep;  // next tick already scheduled (kSleep when none)
  uint64_t busy_cycles_ = 0;
  uint64_t idle_cycles_ = 0;
  uint64_t ticks_ = 0;
  sc_core::sc_event host_wake_;  // notified only while this module hosts the dispatcher
};

}  // namespace simtlm::models
