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
#include "testbenches/models_cache/cache_bench.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models {
namespace {

using namespace cache_bench;
using tb::FixedLatencyMemory;
using tb::ns;
using tb::TestInitiator;

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

}  // namespace
}  // namespace simtlm::models
