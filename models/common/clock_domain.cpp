#include "models/common/clock_domain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <utility>
#include <vector>

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
  const sc_core::sc_time now = sim_time();
  return at > now ? at - now : sc_core::SC_ZERO_TIME;
}

// The modules of one clock period and their planned ticks. Its events are
// notified on a host module's process (the first live module of the period):
// a plain object cannot own a SystemC process, and every module of a period
// lives as long as the simulation.
class ClockDispatcher {
 public:
  explicit ClockDispatcher(const sc_core::sc_time& period) : clock_(period) {}

  uint32_t add(ClockedModule* m) {
    modules_.push_back(m);
    words_ = (modules_.size() + 63) / 64;
    // A module may plan a tick as soon as it is added: growing keeps the
    // planned bits (word-major layout, so a new word is appended).
    ring_.resize(kRing * words_, 0);
    due_.resize(words_, 0);
    return static_cast<uint32_t>(modules_.size() - 1);
  }
  void remove(uint32_t index) { modules_[index] = nullptr; }

  // Module `index` wants to tick at `cycle` (its planned_ is already `cycle`).
  void schedule(uint32_t index, uint64_t cycle) {
    // Outside run(), an edge at or before base_ has been processed already;
    // such a (never expected) wake goes to the heap and runs in the next
    // delta cycle instead of sitting in a bucket a ring turn away.
    const bool in_ring = cycle - base_ < kRing && (running_ || cycle > base_);
    if (in_ring) {
      const uint64_t b = cycle & (kRing - 1);
      ring_[(index / 64) * kRing + b] |= uint64_t(1) << (index % 64);
      ring_mask_ |= uint64_t(1) << b;
    } else {
      schedule_far(index, cycle);
    }
    if (running_ || cycle >= pending_) return;  // run() re-arms after its loop
    arm(cycle);
  }

  // Ticks every module due at the current edge, in construction order.
  void run() {
    pending_ = ClockedModule::kSleep;
    const uint64_t c = clock_.now();
    base_ = c;
    running_ = true;
    const uint64_t b = c & (kRing - 1);
    for (;;) {
      bool any = false;
      for (size_t w = 0; w < words_; ++w) {
        for (uint64_t bits = std::exchange(ring_[w * kRing + b], 0); bits != 0; bits &= bits - 1) {
          any |= take(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)), c);
        }
      }
      ring_mask_ &= ~(uint64_t(1) << (c & (kRing - 1)));
      while (!far_.empty() && far_.top().cycle <= c) {
        any |= take(far_.top().index, far_.top().cycle);
        far_.pop();
      }
      if (!any) break;
      // Ticks may wake modules for this same cycle (they land in the bucket
      // again and run in the next round). The due set is a bitmap over
      // construction indices, so walking it in bit order is that order.
      for (size_t w = 0; w < due_.size(); ++w) {
        for (uint64_t bits = std::exchange(due_[w], 0); bits != 0; bits &= bits - 1) {
          const size_t index = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
          if (ClockedModule* m = modules_[index]) m->run_tick(c);
        }
      }
    }
    running_ = false;
    uint64_t next = ClockedModule::kSleep;
    if (ring_mask_ != 0) {
      // Ring entries lie in (c, c + kRing): rotate so bit 0 is cycle c + 1.
      const unsigned shift = static_cast<unsigned>((c + 1) & (kRing - 1));
      const uint64_t rotated = shift == 0 ? ring_mask_ : (ring_mask_ >> shift) | (ring_mask_ << (kRing - shift));
      next = c + 1 + static_cast<uint64_t>(__builtin_ctzll(rotated));
    }
    if (!far_.empty()) next = std::min(next, far_.top().cycle);
    if (next != ClockedModule::kSleep) arm(next);
  }

 private:
  // Planned ticks less than kRing cycles after base_ (the cycle of the last
  // run: every entry in the ring lies in [base_, base_ + kRing), so a bucket
  // holds one cycle) go into a ring of per-cycle buckets, the others into a
  // heap. Almost every tick plans the next one a few cycles ahead. A bucket
  // is a bitmap over construction indices (a module planned twice for the
  // same cycle is one bit; a bit whose module was re-planned meanwhile is
  // stale and dropped by take(), as a stale heap entry is).
  static constexpr uint64_t kRing = 64;

  struct Entry {
    uint64_t cycle;
    uint32_t index;
    bool operator>(const Entry& o) const { return cycle != o.cycle ? cycle > o.cycle : index > o.index; }
  };

  // Adds module `index`, planned for cycle `planned` (at or before the
  // current one: a bucket bit or a due heap entry), to this round unless that
  // plan is stale (the module was re-planned or already ran). True when added.
  bool take(size_t index, uint64_t planned) {
    ClockedModule* m = modules_[index];
    if (m == nullptr || m->planned_ != planned) return false;
    m->planned_ = ClockedModule::kSleep;
    due_[index / 64] |= uint64_t(1) << (index % 64);
    return true;
  }

  // The rare paths of schedule() stay out of line, so that its common path
  // (inlined into every ClockedModule::plan) needs no stack frame.
  [[gnu::noinline]] void schedule_far(uint32_t index, uint64_t cycle) { far_.push({cycle, index}); }

  [[gnu::noinline]] void arm(uint64_t cycle) {
    ClockedModule* host = nullptr;
    for (ClockedModule* m : modules_) {
      if (m != nullptr) {
        host = m;
        break;
      }
    }
    if (host == nullptr) return;
    pending_ = cycle;
    host->host_wake_.notify(clock_.delay_until(cycle));
  }

  Clock clock_;
  std::vector<ClockedModule*> modules_;
  size_t words_ = 0;            // 64-bit words per module bitmap
  std::vector<uint64_t> ring_;  // word w of bucket b at [w * kRing + b]; bucket b = cycles == b (mod kRing)
  uint64_t ring_mask_ = 0;      // bit b: bucket b is not empty
  uint64_t base_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> far_;
  std::vector<uint64_t> due_;  // bit i: module i ticks in this round
  uint64_t pending_ = ClockedModule::kSleep;  // cycle of the armed host notification
  bool running_ = false;
};

namespace {

// One dispatcher per clock period, shared by the modules of that period.
std::shared_ptr<ClockDispatcher> dispatcher_for(const sc_core::sc_time& period) {
  static std::map<uint64_t, std::weak_ptr<ClockDispatcher>> registry;
  std::weak_ptr<ClockDispatcher>& slot = registry[period.value()];
  std::shared_ptr<ClockDispatcher> d = slot.lock();
  if (!d) {
    d = std::make_shared<ClockDispatcher>(period);
    slot = d;
  }
  return d;
}

}  // namespace

ClockedModule::ClockedModule(const sc_core::sc_module_name& name, const sc_core::sc_time& period)
    : sc_core::sc_module(name), clock_(period), dispatcher_(dispatcher_for(period)) {
  index_ = dispatcher_->add(this);
  SC_METHOD(host_process);
  sensitive << host_wake_;
  dont_initialize();
}

ClockedModule::~ClockedModule() { dispatcher_->remove(index_); }

void ClockedModule::host_process() { dispatcher_->run(); }

void ClockedModule::plan(uint64_t cycle) {
  if (ran_once_ && cycle <= last_cycle_) {
    cycle = last_cycle_ + 1;  // a cycle is evaluated at most once
  }
  if (planned_ <= cycle) {
    return;  // a tick at or before `cycle` is already scheduled
  }
  planned_ = cycle;
  dispatcher_->schedule(index_, cycle);
}

void ClockedModule::run_tick(uint64_t c) {
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
  const uint64_t next = tick(c);
  waiting_busy_ = next == kWaitBusy;
  if (next == kSleep || next == kWaitBusy) {
    sleeping_ = next == kSleep;
  } else {
    sleeping_ = false;
    wake_at(next > c ? next : c + 1);  // no-op if a wake_at() during tick() asked for earlier
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
