#include "models/common/clock_domain.h"

#include <algorithm>
#include <cmath>

#include "simtlm/error.h"

namespace simtlm::models {

sc_core::sc_time period_from_mhz(double mhz) {
  if (!(mhz > 0.0)) {
    throw Error(ErrorKind::Config, "clock frequency must be positive (got " + std::to_string(mhz) + " MHz)");
  }
  const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  const double period_ps = 1e6 / mhz;
  const auto units = static_cast<uint64_t>(std::llround(period_ps / res_ps));
  return sc_core::sc_time::from_value(units == 0 ? 1 : units);
}

Clock::Clock(const sc_core::sc_time& period) : period_(period), ticks_(period.value()) {
  if (ticks_ == 0) {
    throw Error(ErrorKind::Config, "clock period must be positive");
  }
}

sc_core::sc_time Clock::delay_until(uint64_t cycle) const {
  const sc_core::sc_time at = time_of(cycle);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return at > now ? at - now : sc_core::SC_ZERO_TIME;
}

ClockedModule::ClockedModule(const sc_core::sc_module_name& name, const sc_core::sc_time& period)
    : sc_core::sc_module(name), clock_(period) {
  SC_METHOD(process);
  sensitive << wake_;
  dont_initialize();
}

void ClockedModule::wake_at(uint64_t cycle) {
  if (ran_once_ && cycle <= last_cycle_) {
    cycle = last_cycle_ + 1;  // a cycle is evaluated at most once
  }
  if (planned_ <= cycle) {
    return;  // a tick at or before `cycle` is already scheduled
  }
  planned_ = cycle;
  wake_.notify(clock_.delay_until(cycle));
}

void ClockedModule::process() {
  const uint64_t c = clock_.now();
  if (!clock_.on_edge() || (ran_once_ && c <= last_cycle_)) {
    // A stale wake-up (its tick was already done by an earlier trigger):
    // keep whatever was planned.
    if (planned_ != kSleep && planned_ > c) {
      next_trigger(clock_.delay_until(planned_), wake_);
    }
    return;
  }
  if (ran_once_) {
    const uint64_t gap = c - last_cycle_ - 1;
    (sleeping_ ? idle_cycles_ : busy_cycles_) += gap;
  } else {
    idle_cycles_ += c;
  }
  ++busy_cycles_;
  ++ticks_;
  last_cycle_ = c;
  ran_once_ = true;
  planned_ = kSleep;
  const uint64_t next = tick(c);
  waiting_busy_ = next == kWaitBusy;
  if (next == kSleep || next == kWaitBusy) {
    sleeping_ = next == kSleep;  // static sensitivity: wake_ only
  } else {
    // A wake_at() made during tick() may already have asked for an earlier edge.
    sleeping_ = false;
    planned_ = std::min(planned_, next > c ? next : c + 1);
    next_trigger(clock_.delay_until(planned_), wake_);
  }
}

void ClockedModule::cycles_through_now(uint64_t& busy, uint64_t& idle) const {
  busy = busy_cycles_;
  idle = idle_cycles_;
  const uint64_t through = clock_.now() + 1;  // cycles 0..now
  const uint64_t accounted = busy + idle;
  // A module between ticks counts as idle here unless it waits with work (its
  // next tick settles the gap either way).
  if (through > accounted) (waiting_busy_ ? busy : idle) += through - accounted;
}

}  // namespace simtlm::models
