// Parameters of the generic sectored cache (L1D, L2 slice, read-only caches).
// A plain struct (DRAMSys style): the platform builder fills it from the
// configuration tree; validate() names the first bad field.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

namespace simtlm {
class Config;
}

namespace simtlm::models {

enum class WritePolicy {
  WriteBack,     // writes mark sectors dirty; dirty sectors go down on eviction
  WriteThrough,  // writes update present lines and always go down
  WriteEvict,    // writes invalidate a present line and go down (Fermi L1D global stores)
};
enum class ReplacementPolicy { LRU, FIFO };
enum class SetIndex {
  Linear,  // (line number / index_divisor) % sets
  Xor,     // XOR fold of the line number's log2(sets)-bit fields (sets must be a power of two)
};
enum class AllocatePolicy {
  OnMiss,  // a line frame is chosen and reserved at the miss (GPGPU-Sim 'm')
  OnFill,  // the frame is chosen when the fill returns (GPGPU-Sim 'f'); the MSHR alone tracks the miss
};

const char* to_string(WritePolicy policy);
const char* to_string(ReplacementPolicy policy);
const char* to_string(SetIndex index);
const char* to_string(AllocatePolicy policy);
// Parse the names used in configuration files ("write_back", "write_through",
// "write_evict"; "lru", "fifo"; "linear", "xor"; "miss", "fill"). Return
// false for an unknown name.
bool parse_write_policy(const std::string& name, WritePolicy& out);
bool parse_replacement_policy(const std::string& name, ReplacementPolicy& out);
bool parse_set_index(const std::string& name, SetIndex& out);
bool parse_allocate_policy(const std::string& name, AllocatePolicy& out);

struct CacheParams {
  uint32_t sets = 32;
  uint32_t ways = 8;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;          // line_bytes / sector_bytes <= 32
  uint32_t mshrs = 32;                 // MSHR entries (one per line with a fill outstanding)
  uint32_t mshr_merge_limit = 8;       // requests one MSHR entry can hold (the first included)
  uint32_t hit_latency = 1;            // cycles from tag lookup to response ready
  uint32_t request_queue = 2;          // accepted requests waiting for the tag lookup
  uint32_t miss_queue = 8;             // requests waiting to go to the next level
  uint32_t response_queue = 8;         // ready responses waiting for the port (behind the hit pipeline)
  // Bytes of data the response port returns per cycle: a response carrying
  // B bytes of data holds the port ceil(B / data_port_bytes) cycles.
  // 0 = one response per cycle whatever its size.
  uint32_t data_port_bytes = 0;
  WritePolicy write_policy = WritePolicy::WriteBack;
  bool write_allocate = true;          // write misses allocate a line (ignored by WriteEvict)
  // Stores to the local state space use write-back (with write_allocate)
  // whatever write_policy says (Fermi L1D: global write-evict, local write-back).
  bool local_write_back = false;
  AllocatePolicy allocate_on = AllocatePolicy::OnMiss;
  ReplacementPolicy replacement = ReplacementPolicy::LRU;
  SetIndex set_index = SetIndex::Linear;
  // Line numbers are divided by this before taking the set index: set it to
  // the number of slices sharing the address space so that each slice spreads
  // its lines over all of its sets.
  uint32_t index_divisor = 1;
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
  // The level this cache reports to requesters as the one that supplied the
  // data (MemExtension::served_level): 1 = an SM's L1D, 2 = an L2 slice.
  uint8_t level = 0;

  uint32_t sectors_per_line() const { return line_bytes / sector_bytes; }
  uint64_t size_bytes() const { return static_cast<uint64_t>(sets) * ways * line_bytes; }
  // Throws simtlm::Error(Config) naming `who` and the offending field.
  void validate(const std::string& who) const;
};

// An L2 slice from gpu.l2.* (cache_config.cpp); Error(Config) for a policy
// value the cache does not implement.
CacheParams l2_params_from_config(const Config& cfg);

}  // namespace simtlm::models
