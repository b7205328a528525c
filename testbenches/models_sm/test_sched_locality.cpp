// SWL and CCWS through a real SM (seed note 002 §15.2-15.3): the SWL cap is
// honoured exactly (never more than warp_limit warps issue, and the limit is
// reached), SWL makes progress across barriers, SWL at the full warp count
// and CCWS with K_THROTTLE = 0 time exactly like GTO, and CCWS detects lost
// locality and throttles loads on a kernel that thrashes the L1D under GTO.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "models/sched/ccws.h"
#include "models/sm/l1d_locality.h"
#include "models/sched/daws.h"
#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

// Each thread sums its own row of `len` words (row-major per thread, like
// kmeans' features): a warp touches 32 lines per iteration and reuses each
// for 32 iterations, so 8 warps need 256 lines of a 128-line L1D.
const char* const kRowSumPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry rowsum(.param .u64 pa, .param .u64 pout, .param .u32 len)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [len];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  mul.lo.s32 %r6, %r5, %r1;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
LOOP:
  ld.global.u32 %r9, [%rd4];
  add.s32 %r8, %r8, %r9;
  add.s64 %rd4, %rd4, 4;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, %r1;
  @%p1 bra LOOP;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r8;
  ret;
}
)PTX";

constexpr uint32_t kCtas = 2, kThreads = 128, kLen = 64;

struct RowSumResult {
  uint64_t cycles = 0, misses = 0, hits = 0, throttled = 0, instructions = 0;
};

// rowsum on one SM with its parameters. One SystemC elaboration per test
// process: every bench of a test is built and launched before run().
class RowSum {
 public:
  RowSum(const SmParams& p, const std::string& name, SmObserver* observer = nullptr)
      : b_(kRowSumPtx, p, 100, 1u << 20, name) {
    if (observer != nullptr) b_.sm().subscribe(*observer);
    std::vector<uint32_t> a(kN * kLen);
    for (uint32_t i = 0; i < a.size(); ++i) a[i] = i;
    const uint64_t pa = b_.upload(a);
    out_ = b_.alloc(kN * 4);
    b_.launch("rowsum", dim(kCtas), dim(kThreads), Args().add(pa).add(out_).add(kLen));
  }
  void run() { b_.run(); }
  Sm& sm() { return b_.sm(); }
  // Checks every row sum and returns the counters.
  RowSumResult result() {
    EXPECT_TRUE(b_.all_done());
    const std::vector<uint32_t> got = b_.download<uint32_t>(out_, kN);
    for (uint32_t t = 0; t < kN; ++t) {
      uint32_t want = 0;
      for (uint32_t i = 0; i < kLen; ++i) want += t * kLen + i;
      EXPECT_EQ(got[t], want) << t;
    }
    RowSumResult r;
    r.cycles = b_.sm().stats().active_cycles;
    r.misses = b_.sm().l1d()->stats().misses;
    r.hits = b_.sm().l1d()->stats().hits;
    r.throttled = b_.sm().stats().slot_throttled;
    r.instructions = b_.sm().stats().warp_instructions;
    return r;
  }

 private:
  static constexpr uint32_t kN = kCtas * kThreads;
  SmBench b_;
  uint64_t out_ = 0;
};

SmParams with_policy(const char* name) {
  SmParams p = test_params();
  p.schedulers = 1;
  p.policy.name = name;
  return p;
}

// Keeps the live warps in launch (age) order and records, for every issue,
// the issuing warp's rank among them.
struct AgeRanks : SmObserver {
  std::vector<uint32_t> live;  // warp slots, oldest first
  uint32_t max_rank = 0;
  uint64_t issues = 0;
  void on_warp_launch(const WarpEvent& e) override { live.push_back(e.warp_slot); }
  void on_warp_finish(const WarpEvent& e) override { live.erase(std::find(live.begin(), live.end(), e.warp_slot)); }
  void on_warp_issue(const IssueRecord& r) override {
    const auto it = std::find(live.begin(), live.end(), r.warp_slot);
    ASSERT_NE(it, live.end());
    max_rank = std::max(max_rank, static_cast<uint32_t>(it - live.begin()));
    ++issues;
  }
};

TEST(SchedLocality, SwlIssuesOnlyFromTheLimitOldestWarpsAndReachesTheLimit) {
  SmParams p1 = with_policy("swl"), p3 = with_policy("swl");
  p1.policy.warp_limit = 1;
  p3.policy.warp_limit = 3;
  AgeRanks ranks1, ranks3;
  RowSum one(p1, "one", &ranks1), three(p3, "three", &ranks3);
  one.run();
  EXPECT_EQ(ranks1.max_rank, 0u);  // only the oldest warp ever issues
  EXPECT_EQ(ranks3.max_rank, 2u);  // the third oldest issues; none beyond
  EXPECT_EQ(ranks1.issues, one.result().instructions);
  EXPECT_EQ(ranks3.issues, three.result().instructions);
}

TEST(SchedLocality, SwlAtTheFullWarpCountIsGto) {
  SmParams p = with_policy("swl");
  p.policy.warp_limit = kCtas * kThreads / 32;
  RowSum a(p, "swl"), b(with_policy("gto"), "gto");
  a.run();
  const RowSumResult swl = a.result(), gto = b.result();
  EXPECT_EQ(swl.cycles, gto.cycles);
  EXPECT_EQ(swl.misses, gto.misses);
}

TEST(SchedLocality, SwlLetsTheRestOfTheCtaReachABarrier) {
  // One CTA of two warps, limit 1: warp 0 waits at bar.sync and warp 1 must
  // be admitted to reach it.
  SmParams p = with_policy("swl");
  p.policy.warp_limit = 1;
  SmBench b(kBarrierPtx, p);
  const uint64_t out = b.alloc(64 * 4);
  b.launch("barrier", dim(1), dim(64), Args().add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  const std::vector<uint32_t> got = b.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(got[t], t + 10) << t;
}

TEST(SchedLocality, CcwsWithKZeroIsGto) {
  SmParams p = with_policy("ccws");
  p.policy.k_throttle = 0.0;
  RowSum a(p, "ccws"), b(with_policy("gto"), "gto");
  a.run();
  const RowSumResult ccws = a.result(), gto = b.result();
  EXPECT_EQ(ccws.cycles, gto.cycles);
  EXPECT_EQ(ccws.misses, gto.misses);
  EXPECT_EQ(ccws.throttled, 0u);
}

TEST(SchedLocality, CcwsDetectsLostLocalityAndCutsMisses) {
  RowSum a(with_policy("ccws"), "ccws"), b(with_policy("gto"), "gto");
  a.run();
  const RowSumResult ccws = a.result(), gto = b.result();
  EXPECT_GT(ccws.throttled, 0u);
  EXPECT_LT(ccws.misses, gto.misses);
  std::cout << "[ rowsum   ] gto " << gto.cycles << " cycles, " << gto.misses << " misses; ccws " << ccws.cycles
            << " cycles, " << ccws.misses << " misses\n";
}

TEST(SchedLocality, DawsDetectsTheRowLoopAndCutsMisses) {
  // rowsum's loop has one diverged load (32 lines per warp with 32 lanes)
  // whose lines the same warp reuses: detected DAWS samples it, predicts 32
  // lines per warp and admits warps while the sum stays below 0.6 x 128 =
  // 76.8 lines (two warps), so it throttles loads and misses less than GTO,
  // and the sums stay right.
  // Under GTO the 256 lines thrash the 128-line L1D, so the sampler sees
  // misses only: its locality shows as victim-tag hits. A thread's two lines
  // are 256 B apart, so all of a warp's lines are even and a 2-set victim tag
  // array (16 entries, 8-way) would hold 8 of the 32 in one set and never
  // hit; one fully associative set of 64 tags holds them.
  SmParams p = with_policy("daws");
  p.policy.vta_entries_per_warp = 64;
  p.policy.vta_ways = 64;
  RowSum a(p, "daws"), b(with_policy("gto"), "gto");
  a.run();
  const RowSumResult daws = a.result(), gto = b.result();
  auto& policy = dynamic_cast<sched::DawsPolicy&>(a.sm().policy());
  EXPECT_GT(policy.kernel(0).locality(0), 0);
  EXPECT_EQ(policy.kernel(0).footprint(0).lines(32), 32u);  // one diverged load
  EXPECT_GT(daws.throttled, 0u);
  EXPECT_LT(daws.misses, gto.misses);
  std::cout << "[ rowsum   ] gto " << gto.cycles << " cycles, " << gto.misses << " misses; daws " << daws.cycles
            << " cycles, " << daws.misses << " misses\n";
}

TEST(SchedLocality, RowsArePrivateSoIntraWarpHitsAreIntraThread) {
  // Every thread reads only its own row (64 words = two whole lines), so no
  // line is shared between lanes or warps: every hit is an intra-warp hit,
  // and each is a lane re-reading its own line (intra-thread).
  RowSum a(with_policy("gto"), "gto");
  L1dLocality loc(a.sm().params().max_warps(), 128);
  a.sm().subscribe(loc);
  a.sm().l1d()->add_observer([&](const CacheEvent& e) { loc.on_cache_event(e); });
  a.run();
  a.result();
  const L1dLocalityCounts& c = loc.counts();
  EXPECT_GT(c.hits_intra_warp, 0u);
  EXPECT_EQ(c.hits_inter_warp, 0u);
  EXPECT_EQ(c.hits_intra_thread, c.hits_intra_warp);
  a.sm().unsubscribe(loc);
}

TEST(L1dLocalityClasses, IntraThreadWhenAHittingLaneTouchedTheLineBefore) {
  // Warp slot 0: a load whose lanes 0 and 1 read line 0x1000 misses and
  // allocates it; lane 5 then hits it (intra-warp, another thread: not
  // intra-thread); lane 1 hits it again (intra-thread: lane 1 touched it at
  // allocation). Warp slot 1 hitting it is inter-warp.
  L1dLocality loc(4, 128);
  loc.on_warp_launch(WarpEvent{0, 0, 0, 0, 0});
  loc.on_warp_launch(WarpEvent{0, 1, 0, 0, 1});
  uint64_t addr[32] = {};
  auto issue = [&](uint32_t slot, uint64_t mask) {
    functional::ExecRecord rec;
    rec.cls = functional::ExecClass::Load;
    rec.exec_mask = mask;
    rec.addresses = addr;
    IssueRecord r;
    r.warp_slot = slot;
    r.cls = functional::ExecClass::Load;
    r.exec = &rec;
    loc.on_warp_issue(r);
  };
  auto event = [&](CacheEventKind kind, uint32_t slot) {
    CacheEvent e;
    e.kind = kind;
    e.line_addr = 0x1000;
    e.warp_id = static_cast<int32_t>(slot);
    loc.on_cache_event(e);
  };
  addr[0] = 0x1000;
  addr[1] = 0x1004;
  addr[2] = 0x2000;
  issue(0, 0b111);
  event(CacheEventKind::Miss, 0);
  addr[5] = 0x1008;
  issue(0, 1u << 5);
  event(CacheEventKind::Hit, 0);
  EXPECT_EQ(loc.counts().hits_intra_warp, 1u);
  EXPECT_EQ(loc.counts().hits_intra_thread, 0u);
  addr[1] = 0x1010;
  issue(0, 1u << 1);
  event(CacheEventKind::Hit, 0);
  EXPECT_EQ(loc.counts().hits_intra_warp, 2u);
  EXPECT_EQ(loc.counts().hits_intra_thread, 1u);
  issue(1, 1u << 1);
  event(CacheEventKind::Hit, 1);
  EXPECT_EQ(loc.counts().hits_inter_warp, 1u);
  EXPECT_EQ(loc.counts().hits_intra_thread, 1u);
}

}  // namespace
}  // namespace simtlm::models::test
