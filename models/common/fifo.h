// A first-in first-out queue over one vector and a moving head index: the
// memory-side modules' queues (requests, responses, packets) are short and
// pushed/popped on almost every tick, where std::deque's segmented storage
// cost several percent of a simulation. Elements stay contiguous, so the
// queue offers random access, sorted insertion and erasure in the middle
// with ordinary vector iterators.
//
// pop_front() only advances the head; the storage is reset when the queue
// empties and compacted when the dead prefix is at least half of it, so a
// queue that never drains still uses memory proportional to its length.
// Iterators are invalidated by every modification, as for a vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace simtlm::models {

template <class T>
class Fifo {
 public:
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }

  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  T& back() { return items_.back(); }
  const T& back() const { return items_.back(); }
  T& operator[](std::size_t i) { return items_[head_ + i]; }
  const T& operator[](std::size_t i) const { return items_[head_ + i]; }

  iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  const_iterator end() const { return items_.end(); }

  void push_back(const T& v) { items_.push_back(v); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    return items_.emplace_back(std::forward<Args>(args)...);
  }
  void pop_front() {
    ++head_;
    if (head_ == items_.size()) {
      clear();
    } else if (head_ >= kCompactFrom && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // Removes the element at `pos` (keeping the order); returns the next one.
  iterator erase(iterator pos) { return items_.erase(pos); }
  // Inserts `v` after every element whose key(...) is not greater than
  // key(v), keeping a queue ordered by key stable for equal keys. Queues
  // ordered by a ready cycle almost always receive the latest one last, so
  // that case is an append without a search.
  template <class Key>
  void insert_ordered(const T& v, Key key) {
    const auto k = key(v);
    if (empty() || key(back()) <= k) {
      push_back(v);
      return;
    }
    insert(std::upper_bound(begin(), end(), k, [&](const auto& kv, const T& x) { return kv < key(x); }), v);
  }
  // Inserts before `pos`; returns the inserted element.
  iterator insert(iterator pos, const T& v) {
    if (pos == begin() && head_ > 0) {  // room in the dead prefix
      --head_;
      items_[head_] = v;
      return begin();
    }
    return items_.insert(pos, v);
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }

 private:
  // Below this many dead elements the prefix is left alone (compaction would
  // cost more than the memory it returns).
  static constexpr std::size_t kCompactFrom = 64;

  std::vector<T> items_;
  std::size_t head_ = 0;  // index of the front element in items_
};

}  // namespace simtlm::models
