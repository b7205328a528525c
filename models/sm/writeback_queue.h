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
    for (;;) {
      if (overflow_due_now() || pos_ < buckets_[cur_ & kMask].size()) return true;
      const uint64_t n = next();
      if (n > c) {
        if (c > cur_) cur_ = c;  // nothing is left before c: the window starts there
        return false;
      }
      cur_ = n;
    }
  }
  // The next event; only after due() said so.
  Event pop() {
    if (overflow_due_now()) {
      const Event e = overflow_.top().e;
      overflow_.pop();
      return e;
    }
    std::vector<Event>& b = buckets_[cur_ & kMask];
    const Event e = b[pos_++];
    if (pos_ == b.size()) {  // drained: the bucket is free for cycle cur_ + kBuckets
      b.clear();
      pos_ = 0;
      mask_[(cur_ & kMask) / 64] &= ~(1ull << (cur_ % 64));
    }
    return e;
  }
  // The cycle of the earliest event, or ~0 when there is none.
  uint64_t next() const {
    const uint64_t heap = overflow_.empty() ? ~0ull : overflow_.top().e.cycle;
    const uint64_t wheel = next_in_window();
    return wheel < heap ? wheel : heap;
  }

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
    }
  }
  bool overflow_due_now() const { return !overflow_.empty() && overflow_.top().e.cycle == cur_; }
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
  uint64_t cur_ = 0;   // the cycle being drained: every event is at or after it
  std::size_t pos_ = 0;  // events of cur_'s bucket already popped
  std::priority_queue<Overflow, std::vector<Overflow>, std::greater<Overflow>> overflow_;
  uint64_t seq_ = 0;
};

}  // namespace simtlm::models
