// Module tests of the generic cache: a TestInitiator drives the cache, whose
// next level is a FixedLatencyMemory. Every expected time is derived from the
// parameters with the timing rules of docs/memory-system.md:
//   - a request sent at time T (on an edge) is looked up at cycle T/P + 1;
//   - a hit is answered hit_latency cycles after its lookup;
//   - a fill request leaves in its lookup cycle, the memory answers L later,
//     and the fill is processed (and its waiters answered) at the next edge;
//   - at most one response per cycle goes back to the requester.
#include <gtest/gtest.h>

#include <systemc>

#include "models/cache/cache.h"
#include "simtlm/error.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models {
namespace {

using tb::FixedLatencyMemory;
using tb::ns;
using tb::TestInitiator;

constexpr double kP = 1.0;    // cache clock period (ns)
constexpr double kL = 10.0;   // memory latency (ns)
constexpr uint64_t kLc = 10;  // memory latency in cache cycles (kL / kP)

sc_core::sc_time cyc(uint64_t n) { return ns(kP * static_cast<double>(n)); }

CacheParams base_params() {
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
uint64_t fill_cycle(uint64_t lookup) { return lookup + kLc + 1; }

TEST(Cache, ReadHitLatencyIsRegistrationPlusHitLatency) {
  CacheParams p = base_params();
  p.hit_latency = 3;
  Bench b(p);
  b.init.read(ns(0), 0x1000);
  const uint64_t t = 100;  // second read, long after the first completed
  b.init.read(cyc(t), 0x1000);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[1].responded_at, cyc(t + 1 + p.hit_latency));
  EXPECT_EQ(b.cache.stats().hits, 1u);
  EXPECT_EQ(b.cache.stats().misses, 1u);
  EXPECT_EQ(b.mem.seen.size(), 1u);
}

TEST(Cache, HitLatencyIsPipelinedBeyondTheResponseQueue) {
  // The hit latency is a pipeline in front of the response queue: with a
  // 2-entry response queue and a 20-cycle hit latency, 8 back-to-back hits
  // still come back one per cycle (the queue alone would admit 2 per 20).
  CacheParams p = base_params();
  p.hit_latency = 20;
  p.response_queue = 2;
  Bench b(p);
  constexpr int kLines = 8;
  for (int i = 0; i < kLines; ++i) b.init.read(cyc(50 * i), 0x4000 + 128 * i, 32);  // warm
  const uint64_t t = 1000;
  for (int i = 0; i < kLines; ++i) b.init.read(cyc(t), 0x4000 + 128 * i, 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.cache.stats().hits, uint64_t(kLines));
  EXPECT_EQ(b.cache.stats().reservation_fails, 0u);
  for (int i = 0; i < kLines; ++i) {
    // Request i is accepted at t + i (one lookup per cycle drains the queue),
    // looked up at t + i + 1 and answered hit_latency later.
    EXPECT_EQ(b.init[kLines + i].responded_at, cyc(t + i + 1 + p.hit_latency)) << "hit " << i;
  }
}

TEST(Cache, ReadMissFillResponseTiming) {
  Bench b(base_params());
  b.init.read(ns(0), 0x2040, 32);  // sector 2 of line 0x2000
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // lookup at 1, fill request leaves at 1, memory answers at 1 + L, fill seen at 2 + L.
  EXPECT_EQ(b.init[0].responded_at, cyc(fill_cycle(1)));
  ASSERT_EQ(b.mem.seen.size(), 1u);
  EXPECT_EQ(b.mem.seen[0].at, cyc(1));
  EXPECT_EQ(b.mem.seen[0].addr, 0x2000u);
  EXPECT_EQ(b.mem.seen[0].kind, AccessKind::Fill);
  EXPECT_EQ(b.mem.seen[0].mask, 0x4u);
  EXPECT_EQ(b.init[0].status, tlm::TLM_OK_RESPONSE);
}

TEST(Cache, SectorMissFetchesOnlyMissingSectors) {
  Bench b(base_params());
  b.init.read(ns(0), 0x0, 32);      // sector 0: miss
  b.init.read(cyc(20), 0x20, 64);   // sectors 1,2: sector miss
  b.init.read(cyc(40), 0x0, 96);    // sectors 0..2: hit
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 2u);
  EXPECT_EQ(b.mem.seen[0].mask, 0x1u);
  EXPECT_EQ(b.mem.seen[1].mask, 0x6u);
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(20 + 1)));
  EXPECT_EQ(b.init[2].responded_at, cyc(40 + 1 + 1));
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.sector_misses, 1u);
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.fills, 2u);
  EXPECT_EQ(s.fill_sectors, 3u);
}

TEST(Cache, MshrMergeSendsOneFillForNRequests) {
  Bench b(base_params());
  const unsigned n = 4;
  for (unsigned i = 0; i < n; ++i) b.init.read(ns(0), 0x4000, 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 1u);
  // The first lookup (cycle 1) sends the fill; all n wait on it and are
  // answered one per cycle from the fill cycle on.
  const uint64_t f = fill_cycle(1);
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_EQ(b.init[i].responded_at, cyc(f + i)) << "request " << i;
  }
  EXPECT_EQ(b.cache.stats().misses, 1u);
  EXPECT_EQ(b.cache.stats().mshr_merges, n - 1);
  EXPECT_EQ(b.cache.stats().fills, 1u);
}

TEST(Cache, MshrMergeFetchesSectorsNotYetRequested) {
  Bench b(base_params());
  b.init.read(ns(0), 0x0, 32);   // sector 0, lookup at 1
  b.init.read(ns(0), 0x20, 32);  // sector 1, lookup at 2: merges, fetches sector 1
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 2u);
  EXPECT_EQ(b.mem.seen[0].mask, 0x1u);
  EXPECT_EQ(b.mem.seen[1].mask, 0x2u);
  EXPECT_EQ(b.init[0].responded_at, cyc(fill_cycle(1)));
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(2)));
  EXPECT_EQ(b.cache.stats().mshr_merges, 1u);
  EXPECT_EQ(b.cache.stats().fill_requests, 2u);
}

TEST(Cache, MshrMergeLimitStallsFurtherRequests) {
  CacheParams p = base_params();
  p.mshr_merge_limit = 2;
  Bench b(p);
  for (int i = 0; i < 3; ++i) b.init.read(ns(0), 0x0, 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // Lookups: #0 at 1 (miss), #1 at 2 (merge, entry full), #2 fails from
  // cycle 3 until the fill is processed at F, then hits at F.
  const uint64_t f = fill_cycle(1);
  EXPECT_EQ(b.cache.stats().fail_merge_limit, f - 3);
  EXPECT_EQ(b.cache.stats().reservation_fails, f - 3);
  EXPECT_EQ(b.init[0].responded_at, cyc(f));
  EXPECT_EQ(b.init[1].responded_at, cyc(f + 1));
  // #2's hit is ready at F + hit_latency but the response port sends one per cycle.
  EXPECT_EQ(b.init[2].responded_at, cyc(std::max<uint64_t>(f + p.hit_latency, f + 2)));
  EXPECT_EQ(b.mem.seen.size(), 1u);
  EXPECT_EQ(b.cache.stats().hits, 1u);
}

TEST(Cache, BlockedLookupWaitsWithoutTickingButCountsEveryCycle) {
  // Same traffic as above: #2 cannot merge from cycle 3 until the fill is
  // processed at F. Nothing the lookup depends on changes before F, so the
  // cache does not tick for it, yet each blocked cycle counts one fail and is
  // a busy cycle (the cache has work the whole time).
  CacheParams p = base_params();
  p.mshr_merge_limit = 2;
  Bench b(p);
  for (int i = 0; i < 3; ++i) b.init.read(ns(0), 0x0, 32);
  b.run(30);
  const uint64_t f = fill_cycle(1);
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.cache.stats().reservation_fails, f - 3);
  // Ticks: lookups at 1, 2, the first failing one at 3, then from F on.
  EXPECT_LE(b.cache.ticks(), 3 + 4u);
  EXPECT_LT(b.cache.ticks(), f - 3);
  EXPECT_GE(b.cache.stats().busy_cycles, f);
}

TEST(Cache, BlockedLookupCountsFailsWhenStatisticsAreReadMidBlock) {
  CacheParams p = base_params();
  p.mshr_merge_limit = 2;
  Bench b(p);
  for (int i = 0; i < 3; ++i) b.init.read(ns(0), 0x0, 32);
  // Stop in the middle of the block (at the edge of cycle 8: fails at 3..7
  // have happened; cycle 8's is counted by its own lookup).
  b.run(8 * kP);
  EXPECT_EQ(b.cache.stats().reservation_fails, 8u - 3u);
  EXPECT_EQ(b.cache.stats().fail_merge_limit, 8u - 3u);
  // The deadlock-report line names the blocked head and why.
  const std::string state = b.cache.describe_state();
  EXPECT_NE(state.find("1 request(s) waiting for lookup (head blocked: MSHR merge limit)"), std::string::npos)
      << state;
  EXPECT_NE(state.find("1 MSHR(s) in use"), std::string::npos) << state;
  b.run(30);
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.cache.stats().reservation_fails, fill_cycle(1) - 3);
}

TEST(Cache, LookupBlockedOnAFullResponseQueueResumesWhenAResponseLeaves) {
  // No fill is outstanding: only responses leaving the queue (the requester
  // takes one every 10 cycles) can unblock the hits behind a full queue.
  CacheParams p = base_params();
  p.hit_latency = 1;
  p.response_queue = 1;
  Bench b(p);
  b.init.response_hold = cyc(10);
  constexpr int kHits = 6;
  b.init.read(ns(0), 0x3000, 32);  // warm the line
  for (int i = 0; i < kHits; ++i) b.init.read(cyc(100), 0x3000, 32);
  b.run(1000);
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.cache.stats().hits, uint64_t(kHits));
  EXPECT_GT(b.cache.stats().fail_response_queue, 0u);
  EXPECT_EQ(b.cache.stats().fail_response_queue, b.cache.stats().reservation_fails);
}

TEST(Cache, LookupBlockedOnAFullMissQueueResumesWhenARequestLeaves) {
  // The memory accepts each request 5 cycles after it was offered and answers
  // 100 cycles later. With a one-entry miss queue the third miss blocks until
  // the second fill request leaves for the memory, long before any fill is
  // back: it must be looked up again then, not when the first fill returns.
  CacheParams p = base_params();
  p.miss_queue = 1;
  TestInitiator init{"init"};
  Cache cache("cache", p);
  FixedLatencyMemory mem("mem", cyc(100));
  mem.accept_delay = cyc(5);
  init.socket.bind(cache.target_socket);
  cache.initiator_socket.bind(mem.socket);
  for (uint64_t i = 0; i < 3; ++i) init.read(ns(0), i * 128, 32);
  sc_core::sc_start(cyc(400));
  ASSERT_TRUE(init.all_responded());
  EXPECT_GT(cache.stats().fail_miss_queue, 0u);
  ASSERT_EQ(mem.seen.size(), 3u);
  // Accepted at about 5 and 10 (one request in flight on the socket at a
  // time); the third right after: well before the first fill (about 100).
  EXPECT_LT(mem.seen[2].at, cyc(30));
}

TEST(Cache, MshrFullDelaysEndReqAndCountsReservationFails) {
  CacheParams p = base_params();
  p.mshrs = 2;
  p.request_queue = 1;
  Bench b(p);
  for (uint64_t i = 0; i < 4; ++i) b.init.read(ns(0), i * 128, 32);  // 4 different lines
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // #0 looked up at 1, #1 admitted (END_REQ) at 1 and looked up at 2, #2
  // admitted at 2 and blocked (both MSHRs busy) from cycle 3 until the first
  // fill frees an entry at F = fill_cycle(1); #3 is admitted only then.
  const uint64_t f = fill_cycle(1);
  EXPECT_EQ(b.init[0].accepted_at, cyc(0));
  EXPECT_EQ(b.init[1].accepted_at, cyc(1));
  EXPECT_EQ(b.init[2].accepted_at, cyc(2));
  EXPECT_EQ(b.init[3].accepted_at, cyc(f));
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.fail_mshr_full, f - 3);
  EXPECT_EQ(s.reservation_fails, f - 3);
  EXPECT_EQ(s.requests_held, 3u);
  EXPECT_EQ(b.init[0].responded_at, cyc(f));
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(2)));
  EXPECT_EQ(b.init[2].responded_at, cyc(fill_cycle(f)));      // looked up at F
  EXPECT_EQ(b.init[3].responded_at, cyc(fill_cycle(f + 1)));  // admitted at F, looked up at F+1
  EXPECT_EQ(s.misses, 4u);
}

// A 2-way cache with `sets` sets and the given replacement policy.
CacheParams two_way_params(ReplacementPolicy policy, uint32_t sets) {
  CacheParams p = base_params();
  p.sets = sets;
  p.ways = 2;
  p.replacement = policy;
  return p;
}

// Appends the line address of every eviction of the bench's cache to `into`.
void record_evictions(Bench& b, std::vector<uint64_t>& into) {
  b.cache.add_observer([&into](const CacheEvent& e) {
    if (e.kind == CacheEventKind::Evict) into.push_back(e.line_addr);
  });
}

// Three lines of one set in a 2-way set; accesses spaced so each completes.
void run_eviction_sequence(ReplacementPolicy policy, CacheStats& out, std::vector<uint64_t>& evicted,
                           std::vector<uint64_t>& fetched) {
  Bench b(two_way_params(policy, 2));
  std::vector<uint64_t> ev;
  record_evictions(b, ev);
  const uint64_t A = 0, B = 256, C = 512;  // (addr / 128) % 2 == 0: all set 0
  const uint64_t seq[] = {A, B, A, C, A, B};
  for (int i = 0; i < 6; ++i) b.init.read(cyc(50 * i), seq[i], 32);
  b.run();
  EXPECT_TRUE(b.init.all_responded());
  out = b.cache.stats();
  evicted = ev;
  for (const auto& s : b.mem.seen) fetched.push_back(s.addr);
}

TEST(Cache, LruEvictsLeastRecentlyUsedLine) {
  CacheStats s;
  std::vector<uint64_t> evicted, fetched;
  run_eviction_sequence(ReplacementPolicy::LRU, s, evicted, fetched);
  // A B A(hit) C(evicts B) A(hit) B(evicts C: A was used after C)
  EXPECT_EQ(evicted, (std::vector<uint64_t>{256, 512}));
  EXPECT_EQ(fetched, (std::vector<uint64_t>{0, 256, 512, 256}));
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 4u);
  EXPECT_EQ(s.evictions, 2u);
}

TEST(Cache, FifoEvictsOldestInsertedLine) {
  CacheStats s;
  std::vector<uint64_t> evicted, fetched;
  run_eviction_sequence(ReplacementPolicy::FIFO, s, evicted, fetched);
  // A B A(hit) C(evicts A) A(evicts B) B(evicts C)
  EXPECT_EQ(evicted, (std::vector<uint64_t>{0, 256, 512}));
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 5u);
  EXPECT_EQ(s.evictions, 3u);
}

// Evict-first accesses (PTX ld.cs/ld.lu/st.cs): a line they allocate is the
// next victim of its set, and their hits do not promote a line. One 2-way set;
// the expected victims follow from that rule, not from the model's output.
std::vector<uint64_t> evictions_with_evict_first(ReplacementPolicy policy, const std::vector<uint64_t>& seq,
                                                 const std::vector<bool>& evict_first, CacheStats& stats) {
  Bench b(two_way_params(policy, 1));
  std::vector<uint64_t> ev;
  record_evictions(b, ev);
  for (size_t i = 0; i < seq.size(); ++i) {
    tb::TbRequest r;
    r.at = cyc(50 * i);
    r.addr = seq[i];
    r.evict_first = evict_first[i];
    b.init.add(r);
  }
  b.run();
  EXPECT_TRUE(b.init.all_responded());
  stats = b.cache.stats();
  return ev;
}

// A, B, C, A in one 2-way set, B evict-first or not (one simulation per test
// process, so one sequence per test).
std::vector<uint64_t> evictions_of_a_b_c_a(ReplacementPolicy policy, bool b_evict_first, CacheStats& s) {
  return evictions_with_evict_first(policy, {0, 128, 256, 0}, {false, b_evict_first, false, false}, s);
}

// C replaces the evict-first B although A is older; A then hits.
TEST(Cache, EvictFirstLineIsTheNextVictimUnderLru) {
  CacheStats s;
  EXPECT_EQ(evictions_of_a_b_c_a(ReplacementPolicy::LRU, true, s), (std::vector<uint64_t>{128}));
  EXPECT_EQ(s.hits, 1u);
}

TEST(Cache, EvictFirstLineIsTheNextVictimUnderFifo) {
  CacheStats s;
  EXPECT_EQ(evictions_of_a_b_c_a(ReplacementPolicy::FIFO, true, s), (std::vector<uint64_t>{128}));
  EXPECT_EQ(s.hits, 1u);
}

// Without the hint C replaces A, and A's return replaces B.
TEST(Cache, WithoutEvictFirstTheOlderLineIsTheVictim) {
  CacheStats s;
  EXPECT_EQ(evictions_of_a_b_c_a(ReplacementPolicy::LRU, false, s), (std::vector<uint64_t>{0, 128}));
  EXPECT_EQ(s.hits, 0u);
}

TEST(Cache, EvictFirstHitDoesNotPromoteTheLine) {
  CacheStats s;
  // LRU: A, B, A (evict-first hit: A stays least recent), C evicts A (a
  // normal hit would have promoted A and C would evict B, see
  // LruEvictsLeastRecentlyUsedLine).
  auto ev = evictions_with_evict_first(ReplacementPolicy::LRU, {0, 128, 0, 256}, {false, false, true, false}, s);
  EXPECT_EQ(ev, (std::vector<uint64_t>{0}));
  EXPECT_EQ(s.hits, 1u);
}

TEST(Cache, StreamingTwiceTheCapacityMissesEveryTimeWithLru) {
  CacheParams p = base_params();
  p.sets = 4;
  p.ways = 2;
  Bench b(p);
  const uint64_t capacity = p.sets * p.ways;
  const uint64_t n = 2 * capacity;  // distinct lines, read twice in order
  uint64_t t = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t i = 0; i < n; ++i, t += 20) b.init.read(cyc(t), i * p.line_bytes, 32);
  }
  b.run(static_cast<double>(t + 100));
  ASSERT_TRUE(b.init.all_responded());
  const CacheStats& s = b.cache.stats();
  // Cyclic access to 2x the capacity with LRU: every access misses.
  EXPECT_EQ(s.misses, 2 * n);
  EXPECT_EQ(s.hits, 0u);
  EXPECT_EQ(s.evictions, 2 * n - capacity);
  EXPECT_EQ(s.accesses, 2 * n);
  EXPECT_EQ(s.reads, 2 * n);
  EXPECT_EQ(b.mem.seen.size(), 2 * n);
}

TEST(Cache, WorkingSetThatFitsHitsOnSecondPass) {
  CacheParams p = base_params();
  p.sets = 4;
  p.ways = 2;
  Bench b(p);
  const uint64_t n = p.sets * p.ways;
  uint64_t t = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t i = 0; i < n; ++i, t += 20) b.init.read(cyc(t), i * p.line_bytes, 32);
  }
  b.run(static_cast<double>(t + 100));
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.cache.stats().misses, n);
  EXPECT_EQ(b.cache.stats().hits, n);
  EXPECT_EQ(b.cache.stats().evictions, 0u);
  EXPECT_EQ(b.cache.tags().allocated_lines(), n);
}

TEST(Cache, WriteEvictInvalidatesLineAndForwardsWrite) {
  CacheParams p = base_params();
  p.write_policy = WritePolicy::WriteEvict;
  p.write_allocate = false;
  Bench b(p);
  b.init.read(ns(0), 0x0, 32);
  const uint64_t tw = 20;
  b.init.write(cyc(tw), 0x0, 32);
  b.init.read(cyc(50), 0x0, 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 3u);
  EXPECT_EQ(b.mem.seen[0].kind, AccessKind::Fill);
  EXPECT_EQ(b.mem.seen[1].cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(b.mem.seen[1].kind, AccessKind::Store);
  EXPECT_EQ(b.mem.seen[1].at, cyc(tw + 1));  // forwarded in its lookup cycle
  EXPECT_EQ(b.mem.seen[2].kind, AccessKind::Fill);
  // The write is answered when the next level acknowledges it.
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(tw + 1)));
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.write_hits, 1u);
  EXPECT_EQ(s.write_invalidations, 1u);
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_EQ(s.misses, 2u);
  EXPECT_EQ(s.forwarded, 1u);
  EXPECT_EQ(s.writebacks, 0u);
}

TEST(Cache, WriteThroughKeepsLineValidAndForwards) {
  CacheParams p = base_params();
  p.write_policy = WritePolicy::WriteThrough;
  p.write_allocate = false;
  Bench b(p);
  b.init.read(ns(0), 0x0, 32);
  b.init.write(cyc(20), 0x0, 32);   // hit: line stays
  b.init.read(cyc(50), 0x0, 32);    // hit
  b.init.write(cyc(70), 0x800, 32); // miss: not allocated
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 3u);
  EXPECT_EQ(b.mem.seen[1].cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(b.mem.seen[2].addr, 0x800u);
  EXPECT_EQ(b.init[2].responded_at, cyc(50 + 1 + p.hit_latency));
  EXPECT_EQ(b.cache.probe(0x800), nullptr);
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.write_hits, 1u);
  EXPECT_EQ(s.write_misses, 1u);
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.forwarded, 2u);
}

TEST(Cache, WriteThroughWithAllocateValidatesWrittenSectors) {
  CacheParams p = base_params();
  p.write_policy = WritePolicy::WriteThrough;
  p.write_allocate = true;
  Bench b(p);
  b.init.write(ns(0), 0x40, 32);  // sector 2: allocates, sector 2 valid
  b.init.read(cyc(30), 0x40, 32); // hit
  b.init.read(cyc(40), 0x0, 32);  // sector 0: sector miss
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 2u);
  EXPECT_EQ(b.mem.seen[0].cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(b.mem.seen[1].mask, 0x1u);
  EXPECT_EQ(b.cache.stats().hits, 1u);
  EXPECT_EQ(b.cache.stats().sector_misses, 1u);
  EXPECT_EQ(b.cache.stats().write_misses, 1u);
}

TEST(Cache, WriteBackAllocatesWithoutFetchAndWritesBackDirtySectors) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 2;
  p.hit_latency = 2;
  Bench b(p);
  b.init.write(ns(0), 0x0, 64);      // A, sectors 0-1: write miss, allocate, dirty
  b.init.read(cyc(10), 0x80, 32);    // B: miss, fill
  b.init.read(cyc(40), 0x100, 32);   // C: miss, evicts A (LRU) -> writeback
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[0].responded_at, cyc(0 + 1 + p.hit_latency));  // no next-level traffic
  ASSERT_EQ(b.mem.seen.size(), 3u);
  EXPECT_EQ(b.mem.seen[0].addr, 0x80u);
  EXPECT_EQ(b.mem.seen[1].kind, AccessKind::Writeback);
  EXPECT_EQ(b.mem.seen[1].cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(b.mem.seen[1].addr, 0x0u);
  EXPECT_EQ(b.mem.seen[1].mask, 0x3u);
  EXPECT_EQ(b.mem.seen[1].at, cyc(40 + 1));  // the writeback is queued before the fill
  EXPECT_EQ(b.mem.seen[2].addr, 0x100u);
  EXPECT_EQ(b.mem.seen[2].at, cyc(40 + 2));
  // C's fill leaves one cycle after its lookup (the writeback went first).
  EXPECT_EQ(b.init[2].responded_at, cyc(fill_cycle(40 + 2)));
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.write_misses, 1u);
  EXPECT_EQ(s.misses, 2u);
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_EQ(s.writebacks, 1u);
  EXPECT_EQ(s.writeback_sectors, 2u);
}

TEST(Cache, WriteBackHitMakesLineDirty) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  Bench b(p);
  b.init.read(ns(0), 0x0, 128);     // fill all 4 sectors
  b.init.write(cyc(20), 0x60, 32);  // hit, sector 3 dirty
  b.init.read(cyc(30), 0x80, 32);   // evicts the line: writeback of sector 3
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.count(AccessKind::Writeback), 1u);
  EXPECT_EQ(b.mem.seen[1].mask, 0x8u);
  EXPECT_EQ(b.cache.stats().write_hits, 1u);
}

TEST(Cache, WriteBackCacheDoesAtomicsAsReadModifyWrite) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  Bench b(p);
  tb::TbRequest r;
  r.cmd = tlm::TLM_WRITE_COMMAND;
  r.kind = AccessKind::Atomic;
  r.addr = 0x20;
  r.len = 4;
  b.init.add(r);
  b.init.read(cyc(30), 0x80, 32);  // evicts the atomically updated line
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 3u);
  EXPECT_EQ(b.mem.seen[0].kind, AccessKind::Fill);   // fetch for the atomic
  EXPECT_EQ(b.mem.seen[0].mask, 0x2u);
  EXPECT_EQ(b.init[0].responded_at, cyc(fill_cycle(1)));
  EXPECT_EQ(b.mem.seen[1].kind, AccessKind::Writeback);
  EXPECT_EQ(b.mem.seen[1].mask, 0x2u);
  EXPECT_EQ(b.cache.stats().atomics, 1u);
}

TEST(Cache, WriteEvictCacheForwardsAtomics) {
  CacheParams p = base_params();
  p.write_policy = WritePolicy::WriteEvict;
  Bench b(p);
  b.init.read(ns(0), 0x0, 32);
  tb::TbRequest r;
  r.at = cyc(20);
  r.cmd = tlm::TLM_WRITE_COMMAND;
  r.kind = AccessKind::Atomic;
  r.addr = 0x0;
  r.len = 4;
  b.init.add(r);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  ASSERT_EQ(b.mem.seen.size(), 2u);
  EXPECT_EQ(b.mem.seen[1].kind, AccessKind::Atomic);
  EXPECT_EQ(b.cache.probe(0x0), nullptr);  // the L1 copy is dropped
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(20 + 1)));
}

TEST(Cache, ObserverReportsRequesterAndOwnerWarps) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  Bench b(p);
  std::vector<CacheEvent> events;
  b.cache.add_observer([&](const CacheEvent& e) { events.push_back(e); });
  b.init.read(ns(0), 0x0, 32, 0, /*warp=*/3);     // miss by warp 3: owner 3
  b.init.read(cyc(20), 0x0, 32, 0, /*warp=*/5);   // hit by warp 5 on warp 3's line
  b.init.read(cyc(30), 0x80, 32, 0, /*warp=*/5);  // miss by warp 5 evicts warp 3's line
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  std::vector<CacheEventKind> kinds;
  for (const auto& e : events) kinds.push_back(e.kind);
  const std::vector<CacheEventKind> expected = {CacheEventKind::Miss, CacheEventKind::Fill, CacheEventKind::Hit,
                                                CacheEventKind::Evict, CacheEventKind::Miss, CacheEventKind::Fill};
  ASSERT_EQ(kinds, expected);
  EXPECT_EQ(events[0].warp_id, 3);
  EXPECT_EQ(events[0].owner_warp, 3);
  EXPECT_EQ(events[2].warp_id, 5);
  EXPECT_EQ(events[2].owner_warp, 3);
  EXPECT_EQ(events[3].line_addr, 0x0u);
  EXPECT_EQ(events[3].owner_warp, 3);
  EXPECT_EQ(events[4].owner_warp, 5);
  EXPECT_EQ(events[2].cycle, 20u + 1);
}

TEST(Cache, NextLevelBackPressureSerialisesFills) {
  CacheParams p = base_params();
  p.miss_queue = 2;
  Bench b(p, /*mem_outstanding=*/1);
  const unsigned n = 5;
  for (unsigned i = 0; i < n; ++i) b.init.read(ns(0), i * 128, 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // The memory takes one request at a time and accepts the next when it
  // answers the previous one, so fill k is answered at 1 + (k+1)*L and its
  // requester at the next edge.
  for (unsigned k = 0; k < n; ++k) {
    EXPECT_EQ(b.init[k].responded_at, cyc(1 + (k + 1) * kLc + 1)) << "request " << k;
  }
  EXPECT_GT(b.cache.stats().fail_miss_queue, 0u);
  EXPECT_GT(b.mem.held, 0u);
}

TEST(Cache, XorSetIndexSpreadsPowerOfTwoStrides) {
  CacheParams p = base_params();
  p.sets = 4;
  p.set_index = SetIndex::Linear;
  TagArray linear(p);
  p.set_index = SetIndex::Xor;
  TagArray hashed(p);
  // Line numbers 4k (stride of 4 lines): linear puts all in set 0; the XOR
  // of the 2-bit fields of (k << 2) gives k for k < 4.
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(linear.set_of(4 * k * p.line_bytes), 0u);
    EXPECT_EQ(hashed.set_of(4 * k * p.line_bytes), k);
  }
  EXPECT_EQ(hashed.set_of(5 * p.line_bytes), 0u);  // 01 ^ 01
  EXPECT_EQ(hashed.set_of(6 * p.line_bytes), 3u);  // 10 ^ 01
  p.sets = 6;
  EXPECT_THROW(p.validate("gpu.l1d"), Error);  // xor needs a power of two
}

TEST(Cache, AllocateOnFillKeepsTheVictimUntilTheDataReturns) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  p.allocate_on = AllocatePolicy::OnFill;
  Bench b(p);
  std::vector<CacheEvent> evictions;
  b.cache.add_observer([&](const CacheEvent& e) {
    if (e.kind == CacheEventKind::Evict) evictions.push_back(e);
  });
  b.init.read(ns(0), 0x80, 32);    // B: miss, installed at its fill
  b.init.read(cyc(20), 0x0, 32);   // A: miss at 21, no frame taken yet
  b.init.read(cyc(22), 0x80, 32);  // B still present: hit at 23
  b.init.read(cyc(40), 0x80, 32);  // B was replaced by A's fill: miss
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(21)));
  EXPECT_EQ(b.init[2].responded_at, cyc(23 + p.hit_latency));
  ASSERT_EQ(evictions.size(), 2u);
  EXPECT_EQ(evictions[0].line_addr, 0x80u);
  EXPECT_EQ(evictions[0].cycle, fill_cycle(21));  // at A's fill, not at A's miss
  const CacheStats& s = b.cache.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 3u);
}

TEST(Cache, AllocateOnFillWaitsForAFrameWithoutBlockingOtherFills) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  p.allocate_on = AllocatePolicy::OnFill;
  Bench b(p);
  b.init.read(ns(0), 0x80, 32);    // B sector 0: installed at its fill
  b.init.read(cyc(20), 0x0, 32);   // A: miss at 21, fill A leaves at 21
  b.init.read(cyc(20), 0xA0, 32);  // B sector 1: sector miss at 22 reserves B's frame
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // Fill A arrives first (cycle fill_cycle(21)) but the only frame is
  // reserved; fill B' (one cycle later) is processed past it and frees the
  // frame; A's fill then replaces B in the next cycle.
  EXPECT_EQ(b.init[2].responded_at, cyc(fill_cycle(22)));
  EXPECT_EQ(b.init[1].responded_at, cyc(fill_cycle(22) + 1));
  EXPECT_EQ(b.cache.stats().fill_stalls, 2u);
  EXPECT_EQ(b.cache.stats().evictions, 1u);
}

TEST(Cache, LocalStoresAreWrittenBackByAWriteEvictCache) {
  CacheParams p = base_params();
  p.sets = 1;
  p.ways = 1;
  p.write_policy = WritePolicy::WriteEvict;
  p.write_allocate = false;
  p.local_write_back = true;
  Bench b(p);
  tb::TbRequest local_store;
  local_store.cmd = tlm::TLM_WRITE_COMMAND;
  local_store.kind = AccessKind::Store;
  local_store.space = StateSpace::Local;
  local_store.len = 32;
  b.init.read(ns(0), 0x0, 128);
  local_store.at = cyc(20);
  local_store.addr = 0x20;
  b.init.add(local_store);          // hit: sector 1 dirty, answered locally
  b.init.read(cyc(30), 0x80, 32);   // evicts line 0: writeback of sector 1
  local_store.at = cyc(60);
  local_store.addr = 0x200;
  b.init.add(local_store);          // miss without write-allocate: forwarded
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[1].responded_at, cyc(20 + 1 + p.hit_latency));
  ASSERT_EQ(b.mem.seen.size(), 4u);
  EXPECT_EQ(b.mem.seen[1].kind, AccessKind::Writeback);
  EXPECT_EQ(b.mem.seen[1].mask, 0x2u);
  EXPECT_EQ(b.mem.seen[3].kind, AccessKind::Store);
  EXPECT_EQ(b.mem.seen[3].addr, 0x200u);
  EXPECT_EQ(b.cache.stats().write_invalidations, 0u);
  EXPECT_EQ(b.cache.stats().forwarded, 1u);
}

TEST(Cache, DataPortBytesLimitTheResponseRate) {
  CacheParams p = base_params();
  p.data_port_bytes = 32;
  Bench b(p);
  b.init.read(ns(0), 0x0, 128);
  const uint64_t t = 100;
  const unsigned n = 3;
  for (unsigned k = 0; k < n; ++k) b.init.read(cyc(t), 0x0, 128);  // hits
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // Lookups at t+1, t+2, t+3; each 128-byte response holds the port
  // ceil(128 / 32) cycles, so the responses leave that far apart.
  const uint64_t hold = (128 + p.data_port_bytes - 1) / p.data_port_bytes;
  for (unsigned k = 0; k < n; ++k) {
    EXPECT_EQ(b.init[1 + k].responded_at, cyc(t + 1 + p.hit_latency + k * hold)) << "response " << k;
  }
}

TEST(Cache, InvalidParametersNameTheField) {
  CacheParams p = base_params();
  p.line_bytes = 96;
  try {
    p.validate("gpu.l1d");
    FAIL() << "expected a Config error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("line_bytes"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("gpu.l1d"), std::string::npos);
  }
  CacheParams q = base_params();
  q.sector_bytes = 2;  // 64 sectors per line
  EXPECT_THROW(q.validate("x"), Error);
}

}  // namespace
}  // namespace simtlm::models
