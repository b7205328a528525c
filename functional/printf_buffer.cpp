// Printf output buffer (see printf_buffer.h). Kept calls form a max-heap in
// the output order: when the text exceeds the capacity the latest call in
// that order goes, and every call that arrives later but sorts after a
// dropped one is dropped on arrival. What remains is exactly the longest
// prefix, in output order, of all calls that fits, whatever order the calls
// arrived in.
#include "functional/printf_buffer.h"

#include <algorithm>
#include <tuple>

namespace simtlm::functional {

bool PrintfBuffer::before(const Record& a, const Record& b) {
  return std::tie(a.cta, a.thread, a.arrival) < std::tie(b.cta, b.thread, b.arrival);
}

void PrintfBuffer::add(uint64_t cta, uint32_t thread, std::string text) {
  Record r{cta, thread, calls_++, std::move(text)};
  if (evicted_ && before(first_evicted_, r)) {
    ++dropped_;
    return;
  }
  bytes_ += r.text.size();
  heap_.push_back(std::move(r));
  std::push_heap(heap_.begin(), heap_.end(), before);
  while (bytes_ > capacity_) {
    std::pop_heap(heap_.begin(), heap_.end(), before);
    bytes_ -= heap_.back().text.size();
    first_evicted_ = std::move(heap_.back());
    first_evicted_.text.clear();
    evicted_ = true;
    heap_.pop_back();
    ++dropped_;
  }
}

std::string PrintfBuffer::text() const {
  std::vector<const Record*> order;
  order.reserve(heap_.size());
  for (const Record& r : heap_) order.push_back(&r);
  std::sort(order.begin(), order.end(), [](const Record* a, const Record* b) { return before(*a, *b); });
  std::string out;
  out.reserve(bytes_);
  for (const Record* r : order) out += r->text;
  return out;
}

}  // namespace simtlm::functional
