// Generic sectored, non-blocking cache module: the L1 data cache, the L2 slice
// and read-only caches are instances with different CacheParams.
//
//   target_socket    <- requester (SM/LD-ST unit, interconnect)   requests in, responses out
//   initiator_socket -> next level (interconnect, L2, DRAM)      fills/writes out, responses in
//
// Per clock cycle (in this order): one response from the next level is
// processed (fill, write acknowledgement, writeback acknowledgement; the
// oldest that can proceed); one
// request gets its tag lookup; a held request is admitted to the request
// queue; one request is sent to the next level; one response is sent to the
// requester. Timing formulas are in docs/memory-system.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/cache/cache_params.h"
#include "models/cache/mshr_table.h"
#include "models/cache/tag_array.h"
#include "models/common/at_initiator_port.h"
#include "models/common/at_target_port.h"
#include "models/common/clock_domain.h"
#include "models/common/fifo.h"
#include "models/common/mem_extension.h"
#include "models/common/payload_pool.h"
#include "simtlm/stats.h"

namespace simtlm::models {

// Counters of one cache. Reads and atomics that need data are classified as
// hits, misses (line absent: a line is allocated and filled), sector misses
// (line present, some sectors missing) or MSHR merges (joined an outstanding
// fill). Writes are classified as write hits (line present) or write misses.
struct CacheStats {
  uint64_t accesses = 0;          // requests that completed their tag lookup
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t atomics = 0;
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t sector_misses = 0;
  uint64_t mshr_merges = 0;
  uint64_t write_hits = 0;
  uint64_t write_misses = 0;
  // Every cycle a lookup could not proceed counts one reservation fail, and
  // one of the reasons below.
  uint64_t reservation_fails = 0;
  uint64_t fail_mshr_full = 0;
  uint64_t fail_merge_limit = 0;
  uint64_t fail_no_line = 0;       // every frame of the set has a fill outstanding
  uint64_t fail_miss_queue = 0;    // no room in the queue toward the next level
  uint64_t fail_response_queue = 0;
  uint64_t requests_held = 0;      // END_REQ delayed because the request queue was full
  uint64_t fill_requests = 0;      // fills sent to the next level
  uint64_t fills = 0;              // fills received
  uint64_t fill_sectors = 0;
  uint64_t evictions = 0;          // allocated lines replaced or invalidated by writes
  uint64_t write_invalidations = 0;
  uint64_t writebacks = 0;         // writeback transactions sent
  uint64_t writeback_sectors = 0;
  uint64_t forwarded = 0;          // requester transactions passed to the next level
  uint64_t responses = 0;          // responses sent to the requester
  uint64_t fill_stalls = 0;        // cycles an allocate-on-fill fill waited for a frame or the miss queue
  uint64_t busy_cycles = 0;        // see ClockedModule
  uint64_t idle_cycles = 0;
};

enum class CacheEventKind { Hit, Miss, SectorMiss, MshrMerge, Fill, Evict };
const char* to_string(CacheEventKind kind);

// What observers (CCWS victim tags, locality statistics) see.
struct CacheEvent {
  CacheEventKind kind = CacheEventKind::Hit;
  uint64_t line_addr = 0;
  uint32_t sectors = 0;         // sectors requested / filled / valid at eviction
  AccessKind access = AccessKind::Load;
  int32_t sm_id = -1;           // requester (Hit/Miss/SectorMiss/MshrMerge)
  int32_t warp_id = -1;
  int32_t owner_warp = -1;      // warp that allocated the line (Hit, Fill, Evict)
  uint64_t cycle = 0;
};
using CacheObserver = std::function<void(const CacheEvent&)>;

class Cache : public ClockedModule, private AtTargetPort::Listener, private AtInitiatorPort::Listener {
 private:
  AtTargetPort up_;
  AtInitiatorPort down_;

 public:
  using Params = CacheParams;
  using Stats = CacheStats;
  Cache(const sc_core::sc_module_name& name, const CacheParams& params);

  AtTargetPort::socket_type& target_socket;
  AtInitiatorPort::socket_type& initiator_socket;

  void add_observer(CacheObserver observer) { observers_.push_back(std::move(observer)); }

  const CacheParams& params() const { return p_; }
  const TagArray& tags() const { return tags_; }
  const MshrTable& mshrs() const { return mshrs_; }
  // Live counters (stable addresses for a statistics registry); only
  // busy_cycles/idle_cycles depend on the current time and are brought up to
  // date by each call.
  CacheStats& stats();
  // Registers the counters and the hit rate under `g` (e.g. gpu.l2[0]).
  void register_stats(const stats::Group& g);
  // One line of queue and port state for deadlock reports.
  std::string describe_state() const;
  // Lookup helper for tests and tools: the line holding addr, or nullptr.
  const CacheLine* probe(uint64_t addr) { return tags_.find(tags_.line_of(addr)); }

 private:
  struct Pending {
    tlm::tlm_generic_payload* trans;
    uint64_t ready;
  };
  enum class Fail { Mshr, Merge, NoLine, MissQueue, ResponseQueue };

  uint64_t tick(uint64_t cycle) override;
  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;

  // Tag lookup of one request; false = reservation fail (retry next cycle).
  bool lookup(tlm::tlm_generic_payload& trans, uint64_t cycle);
  // `ext` is the request's MemExtension (nullptr without one), looked up once
  // per lookup.
  bool read_access(tlm::tlm_generic_payload& trans, MemExtension* ext, uint64_t line, uint32_t mask,
                   bool atomic, uint64_t cycle);
  bool write_access(tlm::tlm_generic_payload& trans, const MemExtension* ext, uint64_t line, uint32_t mask,
                    WritePolicy policy, uint64_t cycle);
  bool bypass_access(tlm::tlm_generic_payload& trans, const MemExtension* ext, uint64_t line, uint64_t cycle);
  // Processes one response from the next level; false = retry next cycle
  // (an allocate-on-fill line found no frame or no room for its writeback).
  bool from_below(tlm::tlm_generic_payload& trans, uint64_t cycle);
  bool fill(tlm::tlm_generic_payload& trans, uint64_t cycle);
  // Chooses a frame for `line` (evicting its victim) at a miss or a fill;
  // nullptr (with the reason counted) when it cannot be done this cycle. An
  // evict-first line is installed as the next victim of its set.
  CacheLine* allocate_line(uint64_t line, int32_t sm, int32_t warp, uint64_t cycle, bool count_fail,
                           bool evict_first);
  static bool is_evict_first(const MemExtension* ext) { return ext != nullptr && ext->evict_first; }
  // A hit or merge on `l`: promotes it unless the access is evict-first.
  void use_line(CacheLine& l, const MemExtension* ext) {
    if (!is_evict_first(ext)) tags_.touch(l);
  }

  bool fail(Fail why);
  // Counts `cycles` more fails of the blocked lookup, for the reason it failed.
  void repeat_fail(uint64_t cycles);
  // Fails of the blocked front request for the cycles it was not retried,
  // through `cycle`.
  void credit_blocked_through(uint64_t cycle);
  // Free miss-queue entries. A lookup needs one; it may then add a fill and
  // a writeback, so the queue can exceed miss_queue by one entry.
  uint32_t outgoing_room() const {
    return outgoing_.size() >= p_.miss_queue ? 0 : p_.miss_queue - static_cast<uint32_t>(outgoing_.size());
  }
  // Responses waiting for the requester: the hit pipeline (hit_latency
  // stages, one lookup enters per cycle) in front of the response queue.
  bool response_room() const { return responses_.size() < p_.response_queue + p_.hit_latency; }
  void evict(CacheLine& line, uint64_t cycle);
  void send_fill(uint64_t line, uint32_t sectors, const MemExtension* requester);
  void send_writeback(uint64_t line, uint32_t sectors, int32_t sm, int32_t warp);
  void forward(tlm::tlm_generic_payload& trans);
  void respond(tlm::tlm_generic_payload& trans, uint64_t ready);
  void count_access(const tlm::tlm_generic_payload& trans, const MemExtension* ext);
  void notify(CacheEventKind kind, uint64_t line, uint32_t sectors, const tlm::tlm_generic_payload* trans,
              int32_t owner_warp, uint64_t cycle);

  CacheParams p_;
  TagArray tags_;
  MshrTable mshrs_;
  PayloadPool pool_;
  Fifo<Pending> requests_;     // accepted, waiting for the tag lookup
  Fifo<Pending> responses_;    // to the requester, ordered by ready cycle
  Fifo<tlm::tlm_generic_payload*> outgoing_;  // to the next level
  Fifo<Pending> from_below_;   // responses from the next level
  // What tick() reads every cycle stays next to the queues above (the
  // counters and observers, touched per access, come last).
  uint64_t response_port_free_ = 0;  // first cycle the response port may send (data_port_bytes)
  uint64_t next_request_id_ = 0;

  // A lookup that failed fails again, with the same reason, until the state it
  // depends on changes, and only tick() changes that state: responses from
  // below (tags, MSHRs, queue room), and for a full response or miss queue a
  // response or request leaving it. So the front request is retried only
  // after one of those (unblock_key() moved) and the cache does not tick just
  // to retry it; the fails of the cycles in between are still counted, one
  // per cycle as if retried.
  uint64_t unblock_key() const;
  uint64_t below_done_ = 0;      // responses from below processed
  uint64_t requests_sent_ = 0;   // requests sent to the next level
  uint64_t responses_sent_ = 0;  // responses sent to the requester
  bool lookup_blocked_ = false;
  uint64_t blocked_key_ = 0;
  uint64_t blocked_through_ = 0;  // fails counted through this cycle
  Fail last_fail_ = Fail::Mshr;

  std::vector<CacheObserver> observers_;
  CacheStats stats_;
};

}  // namespace simtlm::models
