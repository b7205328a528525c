// The bench of the generic cache's module tests (cache_test.cpp,
// cache_write_test.cpp): a TestInitiator drives the cache, whose next level
// is a FixedLatencyMemory, with the timing constants the expected times are
// derived from.
#pragma once

#include <systemc>

#include "models/cache/cache.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models::cache_bench {

using tb::FixedLatencyMemory;
using tb::ns;
using tb::TestInitiator;

inline constexpr double kP = 1.0;    // cache clock period (ns)
inline constexpr double kL = 10.0;   // memory latency (ns)
inline constexpr uint64_t kLc = 10;  // memory latency in cache cycles (kL / kP)

inline sc_core::sc_time cyc(uint64_t n) { return ns(kP * static_cast<double>(n)); }

inline CacheParams base_params() {
  CacheParams p;
  p.sets = 32;
  p.ways = 4;
  p.line_bytes = 128;
  p.sector_bytes = 32;
  p.mshrs = 8;
  p.mshr_merge_limit = 8;
  p.hit_latency = 1;
  p.request_queue = 2;
  p.miss_queue = 8;
  p.response_queue = 8;
  p.write_policy = WritePolicy::WriteBack;
  p.write_allocate = true;
  p.clock_period = ns(kP);
  return p;
}

struct Bench {
  TestInitiator init{"init"};
  Cache cache;
  FixedLatencyMemory mem;
  explicit Bench(const CacheParams& p, std::size_t mem_outstanding = 1u << 20)
      : cache("cache", p), mem("mem", ns(kL), mem_outstanding) {
    init.socket.bind(cache.target_socket);
    cache.initiator_socket.bind(mem.socket);
  }
  void run(double until_ns = 2000) { sc_core::sc_start(ns(until_ns)); }
};

// Cycle at which a miss whose lookup is at cycle `lookup` gets its fill back.
inline uint64_t fill_cycle(uint64_t lookup) { return lookup + kLc + 1; }

}  // namespace simtlm::models::cache_bench
