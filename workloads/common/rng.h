// Deterministic input generation for workload drivers. The standard library's
// distributions (std::uniform_real_distribution, ...) are implementation-defined
// and differ between libstdc++/libc++/MSVC, so every value here is derived from
// the integer bits of a SplitMix64 stream with fully specified arithmetic: the
// same seed gives the same inputs on every platform and compiler.
#pragma once

#include <cstdint>

namespace simtlm::workloads {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }

  // Integer in [0, n) for 0 < n <= 2^32 by multiply-shift (the bias, below
  // 2^-32 relative, does not matter for test inputs; determinism does).
  uint32_t below(uint64_t n) { return static_cast<uint32_t>((uint64_t(next_u32()) * n) >> 32); }
  // Integer in [lo, hi] (inclusive), lo <= hi.
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo) + 1)); }

  // Float in [0, 1) with 24 random mantissa bits: exact in binary32, so the
  // value does not depend on the host's floating-point evaluation.
  float unit_float() { return float(next_u64() >> 40) * (1.0f / 16777216.0f); }
  // Float in [lo, hi). Computed in double and rounded once; both operations are
  // IEEE-exact or correctly rounded, hence reproducible.
  float uniform(float lo, float hi) {
    return float(double(lo) + (double(hi) - double(lo)) * double(next_u64() >> 40) / 16777216.0);
  }

 private:
  uint64_t state_;
};

// Independent streams for different arrays of one workload: seeds derived from
// the user seed and a per-stream tag, so adding a stream does not shift others.
inline uint64_t stream_seed(uint64_t seed, uint64_t tag) {
  SplitMix64 mix(seed ^ (tag * 0xD1B54A32D192ED03ull));
  return mix.next_u64();
}

}  // namespace simtlm::workloads
