// Module tests of the generic cache's write side and its surroundings: write
// policies (evict, through, back, allocation), atomics, observers, fills under
// back-pressure, set indexing, data ports and parameter checks. Expected times
// follow the rules listed in cache_test.cpp (docs/memory-system.md).
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

TEST(Cache, ObserverSeesWriteEvictStoresBeforeTheirInvalidation) {
  // A write-evict store reports its lookup (hit on a present line, miss
  // otherwise) and then the eviction it causes: the L1D trace and locality
  // statistics need both.
  CacheParams p = base_params();
  p.write_policy = WritePolicy::WriteEvict;
  p.write_allocate = false;
  Bench b(p);
  std::vector<CacheEvent> events;
  b.cache.add_observer([&](const CacheEvent& e) { events.push_back(e); });
  b.init.read(ns(0), 0x0, 32, 0, /*warp=*/2);
  b.init.write(cyc(20), 0x0, 32, 0, /*warp=*/4);    // hit: invalidates warp 2's line
  b.init.write(cyc(30), 0x100, 32, 0, /*warp=*/4);  // miss: nothing to invalidate
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  std::vector<CacheEventKind> kinds;
  for (const auto& e : events) kinds.push_back(e.kind);
  const std::vector<CacheEventKind> expected = {CacheEventKind::Miss, CacheEventKind::Fill, CacheEventKind::Hit,
                                                CacheEventKind::Evict, CacheEventKind::Miss};
  ASSERT_EQ(kinds, expected);
  EXPECT_EQ(events[2].access, AccessKind::Store);
  EXPECT_EQ(events[2].warp_id, 4);
  EXPECT_EQ(events[2].owner_warp, 2);
  EXPECT_EQ(events[3].owner_warp, 2);
  EXPECT_EQ(events[4].access, AccessKind::Store);
  EXPECT_EQ(events[4].line_addr, 0x100u);
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
