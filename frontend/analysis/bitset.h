// Dense bit sets over register indices, used by the dataflow analyses.
// Liveness keeps one set per instruction, so sets are views into one flat
// array of 64-bit words (no allocation per set); `RegBits` owns storage for
// the few standalone sets a walk needs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::frontend::analysis {

inline size_t words_for_bits(size_t bits) { return (bits + 63) / 64; }

// Read-only view of `words` 64-bit words.
class BitsView {
 public:
  BitsView() = default;
  BitsView(const uint64_t* data, size_t words) : data_(data), words_(words) {}

  bool test(size_t i) const { return (data_[i >> 6] >> (i & 63)) & 1u; }
  size_t words() const { return words_; }
  const uint64_t* data() const { return data_; }
  size_t count() const {
    size_t n = 0;
    for (size_t w = 0; w < words_; ++w) n += static_cast<size_t>(__builtin_popcountll(data_[w]));
    return n;
  }
  bool none() const {
    for (size_t w = 0; w < words_; ++w)
      if (data_[w]) return false;
    return true;
  }
  // Calls f(index) for every set bit, in increasing order.
  template <typename F>
  void for_each(F&& f) const {
    for (size_t w = 0; w < words_; ++w) {
      uint64_t bits = data_[w];
      while (bits) {
        unsigned b = static_cast<unsigned>(__builtin_ctzll(bits));
        f(w * 64 + b);
        bits &= bits - 1;
      }
    }
  }
  std::vector<uint32_t> to_vector() const {
    std::vector<uint32_t> out;
    for_each([&](size_t i) { out.push_back(static_cast<uint32_t>(i)); });
    return out;
  }
  bool operator==(const BitsView& o) const {
    return words_ == o.words_ && std::equal(data_, data_ + words_, o.data_);
  }

 private:
  const uint64_t* data_ = nullptr;
  size_t words_ = 0;
};

// An owning, fixed-size bit set.
class RegBits {
 public:
  RegBits() = default;
  explicit RegBits(size_t bits) : bits_(bits), w_(words_for_bits(bits), 0) {}

  size_t size() const { return bits_; }
  void set(size_t i) { w_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(size_t i) { w_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  bool test(size_t i) const { return (w_[i >> 6] >> (i & 63)) & 1u; }
  void clear() { std::fill(w_.begin(), w_.end(), 0); }
  void assign(BitsView v) { std::copy(v.data(), v.data() + v.words(), w_.begin()); }
  // this |= v; returns true when a bit changed.
  bool merge(BitsView v) {
    bool changed = false;
    for (size_t w = 0; w < w_.size(); ++w) {
      uint64_t n = w_[w] | v.data()[w];
      changed |= n != w_[w];
      w_[w] = n;
    }
    return changed;
  }
  void subtract(BitsView v) {
    for (size_t w = 0; w < w_.size(); ++w) w_[w] &= ~v.data()[w];
  }
  BitsView view() const { return BitsView(w_.data(), w_.size()); }
  operator BitsView() const { return view(); }
  uint64_t* data() { return w_.data(); }

 private:
  size_t bits_ = 0;
  std::vector<uint64_t> w_;
};

}  // namespace simtlm::frontend::analysis
