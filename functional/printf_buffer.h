// The output of a launch's printf calls, collected while it runs and written
// out after it completes (as CUDA does), in an order that does not depend on
// the backend, the warp size or the scheduling:
//   by linear CTA id (x fastest), then by the thread's linear index in its CTA
//   (= warp, then lane), then in the thread's program order.
// Like CUDA's printf FIFO (cudaLimitPrintfFifoSize, 1 MB by default) the
// buffer has a capacity: the calls that fit, in that order, are kept (their
// formatted text counts) and the rest dropped and counted; which calls are
// kept is deterministic too. Memory stays within the capacity (plus one call).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtlm::functional {

class PrintfBuffer {
 public:
  explicit PrintfBuffer(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  // One call's formatted text from thread `thread` (linear index in its CTA)
  // of CTA `cta` (linear id). Calls of one thread arrive in program order.
  void add(uint64_t cta, uint32_t thread, std::string text);

  // The kept calls' text in the documented order.
  std::string text() const;
  uint64_t calls() const { return calls_; }      // every call made
  uint64_t dropped() const { return dropped_; }  // calls beyond the capacity
  uint64_t capacity() const { return capacity_; }

 private:
  struct Record {
    uint64_t cta;
    uint32_t thread;
    uint64_t arrival;  // orders one thread's calls (program order)
    std::string text;
  };
  static bool before(const Record& a, const Record& b);

  uint64_t capacity_;
  uint64_t bytes_ = 0;
  uint64_t calls_ = 0;
  uint64_t dropped_ = 0;
  bool evicted_ = false;
  Record first_evicted_{};   // the earliest call dropped so far (all later ones are dropped too)
  std::vector<Record> heap_;  // max-heap in the output order
};

}  // namespace simtlm::functional
