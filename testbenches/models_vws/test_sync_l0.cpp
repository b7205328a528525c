// The VWS SM in mixed mode, driven through a real Sm with SmBench: the
// sync-wait reformation (E-VWS-Sync<N>, models/vws/sync_wait.h; seed note
// 002 §10.5, §10.8) and the per-slice L0 I-caches in front of the L1
// I-cache's ports (models/vws/l0_icache.h; §10.6).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "models/vws/l0_icache.h"
#include "testbenches/models_vws/mixed_harness.h"

namespace simtlm::models::test {
namespace {

// Warps with path[w] = 0 go straight to JOIN; the others loop `iters`
// times first (at least once): out[t] = 1 or 3 * iters + 1. JOIN is the
// reconvergence point of both branches (a sync point).
const char* const kSyncPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry sync(.param .u64 path, .param .u32 iters, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [path];
  ld.param.u32 %r7, [iters];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r3, [%rd4];
  mov.u32 %r4, 0;
  mov.u32 %r5, 0;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra JOIN;
LOOP:
  add.u32 %r4, %r4, 3;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, %r7;
  @%p1 bra LOOP;
JOIN:
  add.u32 %r4, %r4, 1;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r4;
  ret;
}
)PTX";

// One sync-kernel run on the mixed SM with the given reformation.
struct SyncRun {
  SyncRun(const std::string& name, vws::Reform reform, uint32_t wait, uint32_t iters) {
    const SmParams p = mixed_params();
    bench = std::make_unique<SmBench>(kSyncPtx, p, 20, 1u << 20, name);
    GangingParams g = ganging(p, 2, reform);
    g.sync_wait = wait;
    unit = &GangingUnit::install(bench->sm(), g);
    const uint64_t dp = bench->upload(path);
    out = bench->alloc(32 * 4);
    this->iters = iters;
    bench->launch("sync", dim(1), dim(32), Args().add(dp).add(iters).add(out));
  }
  // Cycle warp slot `ws` issued the instruction at JOIN.
  uint64_t join_cycle(uint32_t ws) const {
    const uint32_t join = bench->module().find_kernel("sync")->labels.at("JOIN");
    for (const IssueRecord& r : bench->trace) {
      if (r.warp_slot == ws && r.pc == join) return r.cycle;
    }
    ADD_FAILURE() << "warp " << ws << " never issued JOIN";
    return 0;
  }
  void expect_results() const {
    const std::vector<uint32_t> got = bench->download<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], path[t / 4] == 0 ? 1u : 3u * iters + 1u) << "thread " << t;
  }
  const std::vector<uint32_t> path = {0, 0, 0, 0, 1, 1, 1, 1};
  std::unique_ptr<SmBench> bench;
  GangingUnit* unit = nullptr;
  uint64_t out = 0;
  uint32_t iters = 0;
};

TEST(VwsSyncWait, JoinIsASyncPoint) {
  const SmParams p = mixed_params();
  SmBench b(kSyncPtx, p, 20);
  const ir::Function* k = b.module().find_kernel("sync");
  ASSERT_NE(k, nullptr);
  vws::SyncWait s(8, 10);
  EXPECT_TRUE(s.is_sync_point(k, k->labels.at("JOIN")));
  EXPECT_FALSE(s.is_sync_point(k, k->labels.at("LOOP")));
  EXPECT_FALSE(s.is_sync_point(k, 0));
}

// A short loop (2 iterations): the half that skipped it waits at JOIN, the
// other half arrives within the wait, the two gangs merge, and all 8 warps
// issue JOIN in one cycle as one gang. Without the wait (E-VWS) the first
// half runs ahead and issues JOIN before the second half arrives.
TEST(VwsSyncWait, SplitGangWaitsAtTheSyncPointAndReforms) {
  SyncRun sync("sm_sync100", vws::Reform::Sync, 100, 2);
  SyncRun evws("sm_evws", vws::Reform::Opportunistic, 0, 2);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (SyncRun* r : {&sync, &evws}) {
    ASSERT_TRUE(r->bench->all_done());
    r->expect_results();
    expect_one_issue_per_slice_and_cycle(r->bench->trace);
    EXPECT_EQ(r->unit->table().check(), "");
  }
  for (uint32_t ws = 1; ws < 8; ++ws) EXPECT_EQ(sync.join_cycle(ws), sync.join_cycle(0)) << "warp " << ws;
  EXPECT_LT(evws.join_cycle(0), evws.join_cycle(4));
  EXPECT_GT(sync.unit->sync().waits, 0u);
  EXPECT_EQ(sync.unit->sync().timeouts, 0u);
  EXPECT_GT(sync.unit->sync().reformed, 0u);
  EXPECT_GE(*sync.unit->table().reformation_counter(), 1u);
  // JOIN and the 4 instructions after it issued by the reformed gang of 8
  // (32 active lanes), not by two gangs of 4 side by side.
  EXPECT_GE(sync.unit->counters().gang_lanes.at(32), evws.unit->counters().gang_lanes.at(32) + 4);
}

// A long loop (200 iterations): the first half waits exactly N cycles at
// JOIN (its JOIN issue comes N cycles later than E-VWS's), then gives up;
// the second half, arriving after the first half finished, finds its
// original gang one unit and does not wait.
TEST(VwsSyncWait, WaitTimesOutAfterNCycles) {
  SyncRun evws("sm_t_evws", vws::Reform::Opportunistic, 0, 200);
  SyncRun s10("sm_t_sync10", vws::Reform::Sync, 10, 200);
  SyncRun s50("sm_t_sync50", vws::Reform::Sync, 50, 200);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (SyncRun* r : {&evws, &s10, &s50}) {
    ASSERT_TRUE(r->bench->all_done());
    r->expect_results();
    expect_one_issue_per_slice_and_cycle(r->bench->trace);
  }
  EXPECT_EQ(s10.join_cycle(0), evws.join_cycle(0) + 10);
  EXPECT_EQ(s50.join_cycle(0), evws.join_cycle(0) + 50);
  for (SyncRun* r : {&s10, &s50}) {
    EXPECT_EQ(r->unit->sync().timeouts, 4u);  // the four warps of the first half
    EXPECT_EQ(r->unit->sync().reformed, 0u);
    EXPECT_EQ(r->unit->sync().waits, 4u);
    EXPECT_GT(r->join_cycle(4), r->join_cycle(0) + 100);
  }
}

// ---------------------------------------------------------------- L0

TEST(L0ICache, HitsOnlyWhatWasFilledAndEvictsTheLeastRecentlyUsed) {
  vws::L0ICache c(4);
  uint64_t ready = 0;
  EXPECT_FALSE(c.probe(10, 2, ready));
  c.fill(10, 2, 50);
  EXPECT_TRUE(c.probe(10, 2, ready));
  EXPECT_EQ(ready, 50u);            // the fill is still in flight
  EXPECT_FALSE(c.probe(11, 2, ready));  // 12 is missing
  c.fill(20, 2, 60);                // full: 10, 11, 20, 21
  EXPECT_TRUE(c.probe(10, 1, ready));   // 10 most recent; 11 now least recent
  c.fill(30, 1, 70);                // evicts 11
  EXPECT_TRUE(c.probe(10, 1, ready));
  EXPECT_FALSE(c.probe(11, 1, ready));
  EXPECT_TRUE(c.probe(30, 1, ready));
  EXPECT_EQ(ready, 70u);
  vws::L0ICache none(0);
  none.fill(1, 1, 1);
  EXPECT_FALSE(none.probe(1, 1, ready));
}

// Warp w of the CTA runs its own copy of a loop (`iters` iterations) at its
// own pcs: after the ladder of branches all 8 warps are independent, each
// looping alone on its slice (a loop of 20 instructions, which a 32-entry
// L0 holds). out[t] = w + iters.
std::string ladder_ptx() {
  std::string s = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry ladder(.param .u32 iters, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .b32 %f<8>;
  ld.param.u32 %r7, [iters];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r3, %r1, 2;
  mov.u32 %r4, %r3;
  mov.u32 %r5, 0;
)PTX";
  for (int k = 0; k < 8; ++k) s += "  mov.u32 %f" + std::to_string(k) + ", 0;\n";
  for (int k = 0; k < 8; ++k) {
    s += "  setp.eq.u32 %p1, %r3, " + std::to_string(k) + ";\n  @%p1 bra P" + std::to_string(k) + ";\n";
  }
  s += "  bra.uni JOIN;\n";
  for (int k = 0; k < 8; ++k) {
    const std::string n = std::to_string(k);
    // 16 independent adds (8 registers): the loop is fetch-bound, not
    // latency-bound, when 8 slices share 2 ports.
    s += "P" + n + ":\n  add.u32 %r4, %r4, 1;\n";
    for (int a = 0; a < 16; ++a) s += "  add.u32 %f" + std::to_string(a % 8) + ", %f" + std::to_string(a % 8) + ", 1;\n";
    s += "  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p1, %r5, %r7;\n  @%p1 bra P" + n + ";\n  bra.uni JOIN;\n";
  }
  s += R"PTX(JOIN:
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r4;
  ret;
}
)PTX";
  return s;
}

struct LadderRun {
  LadderRun(const std::string& name, uint32_t ports, uint32_t l0_entries) {
    const SmParams p = mixed_params();
    bench = std::make_unique<SmBench>(ladder_ptx(), p, 20, 1u << 20, name);
    GangingParams g = ganging(p);
    g.fetch_ports = ports;
    g.l0_entries = l0_entries;
    unit = &GangingUnit::install(bench->sm(), g);
    out = bench->alloc(32 * 4);
    bench->launch("ladder", dim(1), dim(32), Args().add(kIters).add(out));
  }
  uint64_t last_issue() const { return bench->trace.empty() ? 0 : bench->trace.back().cycle; }
  uint64_t slice_fetches() const {
    uint64_t n = 0;
    for (uint64_t f : unit->counters().slice_fetches) n += f;
    return n;
  }
  static constexpr uint32_t kIters = 40;
  std::unique_ptr<SmBench> bench;
  GangingUnit* unit = nullptr;
  uint64_t out = 0;
};

// 8 independent warps loop on their slices. With 2 L1 I-cache ports and no
// L0 they share 2 fetches per cycle; a 256-byte L0 (32 instructions) holds
// each loop, so nearly every fetch hits it and the kernel finishes sooner; an
// L0 of one instruction never holds a whole fetch (2 instructions) and hits
// nothing. L0 hits plus misses are the independent warps' fetches.
TEST(VwsL0, PerSliceL0ServesLoopsWithoutL1Ports) {
  LadderRun none("sm_l0_none", 2, 0);
  LadderRun l0("sm_l0_256", 2, 32);
  LadderRun tiny("sm_l0_8", 2, 1);
  LadderRun wide("sm_l0_8ports", 8, 0);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (LadderRun* r : {&none, &l0, &tiny, &wide}) {
    ASSERT_TRUE(r->bench->all_done());
    const std::vector<uint32_t> got = r->bench->download<uint32_t>(r->out, 32);
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], t / 4 + LadderRun::kIters) << "thread " << t;
    expect_one_issue_per_slice_and_cycle(r->bench->trace);
  }
  const GangingUnit::Counters& c = l0.unit->counters();
  EXPECT_EQ(c.l0_hits + c.l0_misses, l0.slice_fetches());
  EXPECT_GT(c.l0_hits, 9 * c.l0_misses);  // > 90 % hit rate
  EXPECT_EQ(none.unit->counters().l0_hits + none.unit->counters().l0_misses, 0u);
  EXPECT_EQ(tiny.unit->counters().l0_hits, 0u);
  EXPECT_EQ(tiny.unit->counters().l0_misses, tiny.slice_fetches());
  EXPECT_LT(l0.last_issue() * 10, none.last_issue() * 9);  // at least 10 % sooner
  // An L0 hit is no faster than an L1 hit: with 2 ports and the L0 the
  // kernel is not faster than with a port per slice.
  EXPECT_GE(l0.last_issue(), wide.last_issue());
  // L0 fetches count as fetches (they are decoded): the SM's fetches are the
  // gang fetches plus the independent warps' fetches in both.
  EXPECT_EQ(l0.bench->sm().stats().fetches, c.gang_fetches + l0.slice_fetches());
}

}  // namespace
}  // namespace simtlm::models::test
