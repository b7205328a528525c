// The writeback queue of the SM: ALU results due after their latency, the
// fixed-latency parts of memory instructions (shared memory, constant cache,
// parameters) when their passes are done, and the release of destinations
// whose register write was delayed by a write-port conflict.
//
// Events come out in (cycle, push order). Nearly every event is due within a
// few dozen cycles of its push, so the queue is a calendar: one bucket per
// cycle of a window of kBuckets cycles starting at the cycle being drained,
// with a bit per non-empty bucket, and a heap only for the rare event beyond
// the window. A heap of every event cost O(log n) per push and pop and was the
// SM's largest single item of host work after the functional executor on
// hotspot (docs/performance.md).
//
// Why the order is exact: the window only moves forward, so an event that went
// to the overflow heap for cycle X was pushed when X was still beyond the
// window, i.e. before any event for X could be pushed into X's bucket. At each
// cycle, the heap's events therefore come first (in push order, which the heap
// keeps through a sequence number), then the bucket's (in push order).
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "models/sm/inst_timing.h"

namespace simtlm::models {

class WritebackQueue {
 public:
  // Event::op of an ALU event whose delayed register write is done.
  static constexpr uint32_t kWritten = 1;

  struct Event {
    uint64_t cycle;
    uint32_t slot;  // ALU writeback: warp slot; memory piece: kNoSlot
    uint32_t op;    // memory piece: memory operation id; ALU: kWritten when only the release is left
    const InstTiming* info;
  };

  void alu(uint64_t cycle, uint32_t slot, const InstTiming& info) { push({cycle, slot, 0, &info}); }
  void memory_piece(uint64_t cycle, uint32_t op, const InstTiming& info) { push({cycle, ~0u, op, &info}); }
  // The destinations of warp `slot` are released at `cycle` (their write to
  // the register file was delayed by a write-port conflict).
  void release(uint64_t cycle, uint32_t slot, const InstTiming& info) { push({cycle, slot, kWritten, &info}); }

  // True when an event is due at or before `c`; moves the window to it. `c`
  // never goes back (it is the SM's clock).
  bool due(uint64_t c) {
    if (next_ > c) {
      if (c > cur_) cur_ = c;  // nothing is left before c: the window starts there
      return false;
    }
    cur_ = next_;
    return true;
  }
  // The next event; only after due() said so.
  Event pop() {
    Event e;
    std::vector<Event>& b = buckets_[cur_ & kMask];
    if (overflow_next_ == cur_) {
      e = overflow_.top().e;
      overflow_.pop();
      overflow_next_ = overflow_.empty() ? ~0ull : overflow_.top().e.cycle;
      if (overflow_next_ == cur_ || pos_ < b.size()) return e;
    } else {
      e = b[pos_++];
      if (pos_ < b.size()) return e;
      b.clear();  // drained: the bucket is free for cycle cur_ + kBuckets
      pos_ = 0;
      mask_[(cur_ & kMask) / 64] &= ~(1ull << (cur_ % 64));
      if (overflow_next_ == cur_) return e;
    }
    // Nothing is left at cur_: find the next cycle with an event, once per
    // cycle that has events (not once per call of due()).
    const uint64_t wheel = next_in_window();
    next_ = wheel < overflow_next_ ? wheel : overflow_next_;
    return e;
  }
  // The cycle of the earliest event, or ~0 when there is none.
  uint64_t next() const { return next_; }

 private:
  static constexpr unsigned kWords = 2;  // 128 cycles: every preset latency but the longest fits
  static constexpr unsigned kBuckets = 64 * kWords;
  static constexpr uint64_t kMask = kBuckets - 1;

  struct Overflow {
    Event e;
    uint64_t seq;
    bool operator>(const Overflow& o) const { return e.cycle != o.e.cycle ? e.cycle > o.e.cycle : seq > o.seq; }
  };

  void push(const Event& e) {
    // Events are never due before the cycle being drained (the SM pushes at
    // or after its current cycle), so e.cycle >= cur_.
    assert(e.cycle >= cur_);
    if (e.cycle - cur_ < kBuckets) {
      const uint64_t i = e.cycle & kMask;
      buckets_[i].push_back(e);
      mask_[i / 64] |= 1ull << (i % 64);
    } else {
      overflow_.push({e, seq_++});
      overflow_next_ = overflow_.top().e.cycle;
    }
    if (e.cycle < next_) next_ = e.cycle;
  }
  // The earliest cycle with a non-empty bucket: bit i of the mask words is the
  // bucket of the window's cycle whose index is i, searched from cur_ onwards.
  uint64_t next_in_window() const {
    const unsigned start = static_cast<unsigned>(cur_ & kMask);
    for (unsigned step = 0; step <= kWords; ++step) {
      const unsigned w = (start / 64 + step) % kWords;
      uint64_t m = mask_[w];
      if (step == 0) m &= ~0ull << (start % 64);
      if (step == kWords) m &= (start % 64) ? (~0ull >> (64 - start % 64)) : 0;
      if (m) {
        const unsigned index = w * 64 + static_cast<unsigned>(__builtin_ctzll(m));
        return cur_ + ((index - start) & kMask);
      }
    }
    return ~0ull;
  }

  std::array<std::vector<Event>, kBuckets> buckets_;
  std::array<uint64_t, kWords> mask_{};
  uint64_t cur_ = 0;        // the cycle being drained: every event is at or after it
  std::size_t pos_ = 0;     // events of cur_'s bucket already popped
  uint64_t next_ = ~0ull;   // the earliest event's cycle
  uint64_t overflow_next_ = ~0ull;  // the overflow heap's earliest cycle
  std::priority_queue<Overflow, std::vector<Overflow>, std::greater<Overflow>> overflow_;
  uint64_t seq_ = 0;
};

}  // namespace simtlm::models
