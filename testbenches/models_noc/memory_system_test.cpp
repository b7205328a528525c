// End-to-end composition of the memory-side modules, wired the way the GPU
// platform will wire them:
//   TestInitiator[i] -> L1D[i] (write-evict) -> Crossbar (N x M)
//     -> L2 slice[j] (write-back) -> DRAM channel[j]
// Checks that transactions cross every module (route stack, pooled fills,
// pass-through writes) and that the traffic counts match a hand count.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include <systemc>

#include "models/cache/cache.h"
#include "models/dram/dram_channel.h"
#include "models/noc/crossbar.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models {
namespace {

using tb::ns;
using tb::TestInitiator;

constexpr unsigned kSms = 2;
constexpr unsigned kSlices = 2;
constexpr uint32_t kLine = 128;

struct MemorySystem {
  std::vector<std::unique_ptr<TestInitiator>> sm;
  std::vector<std::unique_ptr<Cache>> l1;
  std::unique_ptr<Crossbar> icnt;
  std::vector<std::unique_ptr<Cache>> l2;
  std::vector<std::unique_ptr<DramChannel>> dram;

  MemorySystem() {
    CacheParams l1p;
    l1p.sets = 32;
    l1p.ways = 4;
    l1p.write_policy = WritePolicy::WriteEvict;
    l1p.write_allocate = false;
    l1p.clock_period = ns(1.0);
    CacheParams l2p;
    l2p.sets = 64;
    l2p.ways = 8;
    l2p.write_policy = WritePolicy::WriteBack;
    l2p.write_allocate = true;
    l2p.index_divisor = kSlices;  // slice bits removed from the set index
    l2p.hit_latency = 4;
    l2p.clock_period = ns(1.5);
    XbarParams xp;
    xp.ports_in = kSms;
    xp.ports_out = kSlices;
    xp.latency = 2;
    xp.clock_period = ns(1.5);
    DramParams dp;
    dp.channels = kSlices;
    dp.channel_interleave_bytes = kLine;
    dp.clock_period = ns(1.0);

    icnt = std::make_unique<Crossbar>("icnt", xp, linear_interleave(kSlices, kLine));
    for (unsigned i = 0; i < kSms; ++i) {
      sm.push_back(std::make_unique<TestInitiator>(("sm" + std::to_string(i)).c_str()));
      l1.push_back(std::make_unique<Cache>(("l1d" + std::to_string(i)).c_str(), l1p));
      sm[i]->socket.bind(l1[i]->target_socket);
      l1[i]->initiator_socket.bind(icnt->target_socket(i));
    }
    for (unsigned j = 0; j < kSlices; ++j) {
      l2.push_back(std::make_unique<Cache>(("l2_" + std::to_string(j)).c_str(), l2p));
      dram.push_back(std::make_unique<DramChannel>(("dram" + std::to_string(j)).c_str(), dp));
      icnt->initiator_socket(j).bind(l2[j]->target_socket);
      l2[j]->initiator_socket.bind(dram[j]->target_socket);
    }
  }
};

TEST(MemorySystem, ReadsAndWritesFlowThroughAllLevels) {
  MemorySystem sys;
  const unsigned lines = 8;  // per SM, disjoint between SMs
  for (unsigned i = 0; i < kSms; ++i) {
    const uint64_t base = 0x10000 * (i + 1);
    for (unsigned pass = 0; pass < 2; ++pass) {
      for (unsigned k = 0; k < lines; ++k) {
        sys.sm[i]->read(ns(500.0 * pass), base + k * kLine, kLine);
      }
    }
    // Then store to every line once (write-evict at L1, write hit at L2).
    for (unsigned k = 0; k < lines; ++k) sys.sm[i]->write(ns(1000), base + k * kLine, 32);
  }
  sc_core::sc_start(ns(5000));
  for (unsigned i = 0; i < kSms; ++i) {
    ASSERT_TRUE(sys.sm[i]->all_responded()) << "sm " << i;
    const CacheStats& s = sys.l1[i]->stats();
    EXPECT_EQ(s.misses, lines);           // first pass
    EXPECT_EQ(s.hits, lines);             // second pass
    EXPECT_EQ(s.write_hits, lines);       // each store finds its line...
    EXPECT_EQ(s.write_invalidations, lines);  // ...and evicts it
    EXPECT_EQ(s.forwarded, lines);
  }
  // Lines alternate between the slices: each slice holds half of every SM's lines.
  const uint64_t per_slice = kSms * lines / kSlices;
  for (unsigned j = 0; j < kSlices; ++j) {
    const CacheStats& s = sys.l2[j]->stats();
    EXPECT_EQ(s.misses, per_slice) << "slice " << j;
    EXPECT_EQ(s.write_hits, per_slice);
    EXPECT_EQ(s.writebacks, 0u);  // nothing evicted
    EXPECT_EQ(sys.dram[j]->stats().reads, per_slice);
    EXPECT_EQ(sys.dram[j]->stats().writes, 0u);
  }
  EXPECT_EQ(sys.icnt->stats().request.packets, kSms * lines * 2);  // fills + stores
  EXPECT_EQ(sys.icnt->stats().reply.packets, kSms * lines * 2);
}

}  // namespace
}  // namespace simtlm::models
