// Cache statistics: the counters of one cache instance (an SM's L1D, an L2
// slice) and its hit-rate formula, registered under the group its owner gives.
#include "models/cache/cache.h"

namespace simtlm::models {

void Cache::register_stats(const stats::Group& g) {
  CacheStats& s = stats();
  g.counter("accesses", &s.accesses, "requests", "requests that completed their tag lookup");
  g.counter("reads", &s.reads, "requests", "read requests");
  g.counter("writes", &s.writes, "requests", "write requests");
  g.counter("atomics", &s.atomics, "requests", "atomic requests");
  g.counter("hits", &s.hits, "requests", "read hits");
  g.counter("misses", &s.misses, "requests", "read misses (line absent)");
  g.counter("sector_misses", &s.sector_misses, "requests", "read misses on a present line (sectors missing)");
  g.counter("mshr_merges", &s.mshr_merges, "requests", "reads merged into an outstanding fill");
  g.counter("write_hits", &s.write_hits, "requests", "writes to a present line");
  g.counter("write_misses", &s.write_misses, "requests", "writes to an absent line");
  g.counter("reservation_fails", &s.reservation_fails, "cycles", "lookups that could not proceed");
  g.counter("fail_mshr_full", &s.fail_mshr_full, "cycles", "reservation fails: MSHRs full");
  g.counter("fail_merge_limit", &s.fail_merge_limit, "cycles", "reservation fails: MSHR merge limit");
  g.counter("fail_no_line", &s.fail_no_line, "cycles", "reservation fails: no replaceable line");
  g.counter("fail_miss_queue", &s.fail_miss_queue, "cycles", "reservation fails: miss queue full");
  g.counter("fail_response_queue", &s.fail_response_queue, "cycles", "reservation fails: response queue full");
  g.counter("requests_held", &s.requests_held, "requests", "END_REQ delayed: request queue full");
  g.counter("fill_requests", &s.fill_requests, "requests", "fills sent to the next level");
  g.counter("fills", &s.fills, "requests", "fills received");
  g.counter("fill_sectors", &s.fill_sectors, "sectors", "sectors filled");
  g.counter("evictions", &s.evictions, "lines", "lines evicted");
  g.counter("write_invalidations", &s.write_invalidations, "lines", "lines invalidated by writes");
  g.counter("writebacks", &s.writebacks, "requests", "writebacks sent");
  g.counter("writeback_sectors", &s.writeback_sectors, "sectors", "dirty sectors written back");
  g.counter("forwarded", &s.forwarded, "requests", "requests passed to the next level");
  g.counter("responses", &s.responses, "responses", "responses sent to the requester");
  g.counter("fill_stalls", &s.fill_stalls, "cycles", "allocate-on-fill fills waiting");
  g.counter("busy_cycles", &s.busy_cycles, "cycles", "cycles with work");
  g.counter("idle_cycles", &s.idle_cycles, "cycles", "cycles asleep");
  g.formula("hit_rate", "@hits / (@hits + @misses + @sector_misses + @mshr_merges)", "ratio",
            "read hits / reads that looked up");
}

}  // namespace simtlm::models
