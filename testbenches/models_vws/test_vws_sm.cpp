// The VWS SM in slice-only mode (models/vws/vws_params.h, seed note 002
// §10.2, §15.5), driven through a real Sm with SmBench: the static thread ->
// slice mapping, one fetch per slice per cycle, and the memory unit that
// coalesces the same-cycle requests of all slices as one access (and only
// those: the same accesses in different cycles stay separate requests, the
// convergence slip of §10.1). Ganged-only mode is the baseline SM unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/sm/occupancy.h"
#include "models/vws/vws_params.h"
#include "simtlm/config.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

using vws::Mode;
using vws::VwsParams;

// The Table 6.1 SM's shape around SmBench's test pipeline: one scheduler,
// 1024 threads, warps of `warp` threads.
SmParams base_params(uint32_t warp) {
  SmParams p = test_params();
  p.warp_size = warp;
  p.schedulers = 1;
  p.max_threads = 1024;
  return p;
}

SmParams slice_params(bool coalesce = true, uint32_t fetches = 0) {
  VwsParams v;
  v.mode = Mode::Slices;
  v.coalesce_same_cycle = coalesce;
  v.fetches_per_cycle = fetches;
  return vws::vws_sm_params(base_params(4), v);
}

// out[t] = a[t * 4 / 4 + (t / 4) * stride_words] + 1 after a delay loop of
// (t / 4) * delay iterations: stride 0 puts all 32 threads of a CTA in one
// 128-byte line; delay > 0 staggers the slices' loads in time.
const char* const kLoadPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry load(.param .u64 a, .param .u64 out, .param .u32 stride_words, .param .u32 delay)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [stride_words];
  ld.param.u32 %r2, [delay];
  mov.u32 %r3, %tid.x;
  shr.u32 %r4, %r3, 2;
  mul.lo.u32 %r5, %r4, %r2;
  mov.u32 %r6, 0;
WAIT:
  setp.ge.u32 %p1, %r6, %r5;
  @%p1 bra GO;
  add.u32 %r6, %r6, 1;
  bra.uni WAIT;
GO:
  mad.lo.u32 %r7, %r4, %r1, %r3;
  mul.wide.u32 %rd3, %r7, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r8, [%rd4];
  add.u32 %r9, %r8, 1;
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r9;
  ret;
}
)PTX";

struct LoadRun {
  size_t load_requests = 0;
  size_t store_requests = 0;
  std::vector<uint32_t> out, expected;
};

// One CTA of 32 threads (one 4-wide warp per slice), no L1D: every
// transaction reaches the memory target. One bench per parameter set, all
// built before the simulation starts (one elaboration per process).
std::vector<LoadRun> run_loads(const std::vector<SmParams>& params, uint32_t stride_words, uint32_t delay) {
  std::vector<std::unique_ptr<SmBench>> benches;
  std::vector<uint64_t> outs;
  for (size_t i = 0; i < params.size(); ++i) {
    SmParams p = params[i];
    p.l1d_enabled = false;
    benches.push_back(std::make_unique<SmBench>(kLoadPtx, p, 50, 1u << 20, "sm" + std::to_string(i)));
    SmBench& b = *benches.back();
    std::vector<uint32_t> a(32 * 64);
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<uint32_t>(k * 3);
    const uint64_t da = b.upload(a);
    outs.push_back(b.alloc(32 * 4));
    b.launch("load", dim(1), dim(32), Args().add(da).add(outs.back()).add(stride_words).add(delay));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  std::vector<LoadRun> runs;
  for (size_t i = 0; i < benches.size(); ++i) {
    SmBench& b = *benches[i];
    EXPECT_TRUE(b.all_done());
    LoadRun r;
    r.load_requests = b.target().count(AccessKind::Load);
    r.store_requests = b.target().count(AccessKind::Store);
    r.out = b.download<uint32_t>(outs[i], 32);
    r.expected = b.download<uint32_t>(outs[i], 32, true);
    runs.push_back(r);
  }
  return runs;
}

LoadRun run_load(const SmParams& p, uint32_t stride_words, uint32_t delay) {
  return run_loads({p}, stride_words, delay).front();
}

TEST(VwsSliceMode, ParametersReplicatePerSliceResources) {
  const SmParams base = base_params(4);
  const SmParams p = slice_params();
  EXPECT_EQ(p.schedulers, 8u);
  EXPECT_EQ(p.warp_slot_group, 8u);
  EXPECT_EQ(p.fetches_per_cycle, 8u);  // fetch bandwidth scaled with issue bandwidth (§6.1)
  EXPECT_TRUE(p.coalesce_same_cycle);
  EXPECT_EQ(p.sp.count, base.sp.count * 8);
  EXPECT_EQ(p.ldst.count, base.ldst.count * 8);
  EXPECT_EQ(p.collector_units_mem, base.collector_units_mem * 8);
  EXPECT_EQ(p.regfile_banks, base.regfile_banks);  // per slice
  EXPECT_EQ(p.regfile_bank_groups, 8u);
  EXPECT_EQ(p.max_warps(), 256u);  // 1024 threads = 256 4-wide warps, 32 per slice (§6.2.3)
  EXPECT_EQ(slice_params(true, 2).fetches_per_cycle, 2u);
}

// A CTA reserves whole slot groups: 48 threads = 12 warps of 4 take 16 of
// the 256 slots, so 16 CTAs fit by slots (not 1024 / 48 = 21); the
// dispatcher's admission and the occupancy report agree.
TEST(VwsSliceMode, CtasReserveWholeSlotGroups) {
  const SmParams p = slice_params();
  const CtaShape shape = cta_shape(48, 4, 8, 0);
  EXPECT_EQ(occupancy_limits(p, shape).by_threads, 16u);
  SmParams ungrouped = p;
  ungrouped.warp_slot_group = 1;
  EXPECT_EQ(occupancy_limits(ungrouped, shape).by_threads, 21u);
}

// Tools that compute occupancy without a platform see the platform's SM.
TEST(VwsParams, PlatformSmParamsFollowSimPlatform) {
  const Config ws4 = Config::preset("vws_ws4");
  EXPECT_EQ(vws::platform_sm_params(ws4, 0).schedulers, 8u);
  EXPECT_EQ(vws::platform_sm_params(ws4, 0).warp_slot_group, 8u);
  Config gpu = Config::preset("vws_ws32");
  gpu.set("sim.platform", "gpu");
  EXPECT_EQ(vws::platform_sm_params(gpu, 0).schedulers, 1u);
  EXPECT_EQ(vws::platform_sm_params(Config(), 0).schedulers, 2u);  // gtx480
}

TEST(VwsGangedMode, IsTheBaselineSm) {
  VwsParams v;  // ganged, 8 x 4
  const SmParams base = base_params(32);
  const SmParams p = vws::vws_sm_params(base, v);
  EXPECT_EQ(p.schedulers, 1u);
  EXPECT_EQ(p.warp_slot_group, 1u);
  EXPECT_EQ(p.fetches_per_cycle, 1u);
  EXPECT_FALSE(p.coalesce_same_cycle);
  EXPECT_EQ(p.sp.count, base.sp.count);
  EXPECT_EQ(p.regfile_banks, base.regfile_banks);
  EXPECT_EQ(p.regfile_bank_groups, 1u);
}

TEST(VwsParams, RejectsAnSmShapeTheModeCannotUse) {
  VwsParams v;
  v.mode = Mode::Slices;
  EXPECT_THROW(vws::vws_sm_params(base_params(32), v), Error);  // slice mode needs 4-wide warps
  v.mode = Mode::Ganged;
  EXPECT_THROW(vws::vws_sm_params(base_params(4), v), Error);   // ganged needs 32-wide warps
  SmParams two = base_params(32);
  two.schedulers = 2;
  EXPECT_THROW(vws::vws_sm_params(two, v), Error);
}

// Warp i of every CTA issues on slice i mod 8, also for CTAs whose warp count
// is not a multiple of 8 (12 warps: the last group is half empty and no other
// CTA's warp takes its free slots).
TEST(VwsSliceMode, WarpsIssueOnTheirStaticSlice) {
  SmBench b(kLoadPtx, slice_params(), 20);
  std::vector<uint32_t> a(64 * 64, 7);
  const uint64_t da = b.upload(a);
  const uint64_t dout = b.alloc(48 * 4);
  // 48 threads = 12 warps of 4; 5 CTAs, all resident at once (5 x 16 slots <= 256).
  b.launch("load", dim(5), dim(48), Args().add(da).add(dout).add(0u).add(1u));
  b.run();
  ASSERT_TRUE(b.all_done());
  ASSERT_FALSE(b.trace.empty());
  std::map<uint32_t, uint64_t> group_owner;  // slot group -> CTA
  std::set<uint32_t> slices_used;
  for (const IssueRecord& r : b.trace) {
    EXPECT_EQ(r.scheduler, r.warp_in_cta % 8) << "warp " << r.warp_in_cta << " of CTA " << r.cta_id;
    EXPECT_EQ(r.warp_slot % 8, r.warp_in_cta % 8);
    const auto [it, fresh] = group_owner.emplace(r.warp_slot / 8, r.cta_id);
    if (!fresh && it->second != r.cta_id) {
      // A group is reused only after its CTA finished: never by two resident CTAs.
      EXPECT_GT(r.cta_id, it->second);
      it->second = r.cta_id;
    }
    slices_used.insert(r.scheduler);
  }
  EXPECT_EQ(slices_used.size(), 8u);
  EXPECT_EQ(b.download<uint32_t>(dout, 48), b.download<uint32_t>(dout, 48, true));
}

// The 8 slices run the same instructions from the same cycle, so their loads
// of one line start in the same cycle: one request with coalescing, 8 without
// (and the same result either way).
TEST(VwsSliceMode, SameCycleLoadsOfOneLineAreOneRequest) {
  const std::vector<LoadRun> runs = run_loads({slice_params(true), slice_params(false)}, 0, 0);
  const LoadRun& merged = runs[0];
  const LoadRun& apart = runs[1];
  EXPECT_EQ(merged.load_requests, 1u);
  EXPECT_EQ(merged.out, merged.expected);
  EXPECT_EQ(apart.load_requests, 8u);
  EXPECT_EQ(apart.out, apart.expected);
  // Stores of the same cycle to one line are one write as well.
  EXPECT_EQ(merged.store_requests, 1u);
  EXPECT_EQ(apart.store_requests, 8u);
}

// Same cycle but different lines: one request per line, as the coalescer of
// one 32-thread access would make.
TEST(VwsSliceMode, SameCycleLoadsOfDifferentLinesStaySeparate) {
  const LoadRun r = run_load(slice_params(true), 32, 0);  // warp w reads line w
  EXPECT_EQ(r.load_requests, 8u);
  EXPECT_EQ(r.out, r.expected);
}

// The same accesses issued in different cycles are not merged by the memory
// unit (convergence slip, seed §6.1.1).
TEST(VwsSliceMode, LoadsOfOneLineInDifferentCyclesAreSeparateRequests) {
  const LoadRun r = run_load(slice_params(true), 0, 3);  // slice w waits 3w loop iterations
  EXPECT_EQ(r.load_requests, 8u);
  EXPECT_EQ(r.out, r.expected);
}

// Thread t = 4w + l reads shared word w * stride + l (every slice's warp in
// the same cycle). Stride 32: each slice's 4 lanes hit 4 banks without
// conflict, but the 8 slices meet on those banks (8 words each): as one
// 32-thread access, degree 8. Stride 4: word t, conflict-free as one access.
const char* const kSmemPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry smem(.param .u64 out, .param .u32 stride)
{
  .shared .align 4 .b32 buf[512];
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [stride];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  and.b32 %r3, %r1, 3;
  mul.lo.u32 %r4, %r2, %r9;
  add.u32 %r5, %r4, %r3;
  shl.b32 %r6, %r5, 2;
  mov.u32 %r7, buf;
  add.u32 %r7, %r7, %r6;
  ld.shared.u32 %r8, [%r7];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}
)PTX";

struct SmemRun {
  uint64_t passes = 0, conflicts = 0, instructions = 0;
};
// One run per (params, stride), all elaborated before the simulation starts.
std::vector<SmemRun> run_smem(const std::vector<std::pair<SmParams, uint32_t>>& runs) {
  std::vector<std::unique_ptr<SmBench>> benches;
  std::vector<uint64_t> outs;
  for (size_t i = 0; i < runs.size(); ++i) {
    benches.push_back(std::make_unique<SmBench>(kSmemPtx, runs[i].first, 20, 1u << 20, "sm_smem" + std::to_string(i)));
    outs.push_back(benches.back()->alloc(32 * 4));
    benches.back()->launch("smem", dim(1), dim(32), Args().add(outs.back()).add(runs[i].second));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  std::vector<SmemRun> r;
  for (size_t i = 0; i < runs.size(); ++i) {
    SmBench& b = *benches[i];
    EXPECT_TRUE(b.all_done());
    EXPECT_EQ(b.download<uint32_t>(outs[i], 32), b.download<uint32_t>(outs[i], 32, true));
    const SmStats& s = b.sm().stats();
    r.push_back({s.smem_passes, s.smem_bank_conflicts, s.smem_instructions});
  }
  return r;
}

// The memory unit is unchanged for shared memory too: the 8 slices' loads of
// one cycle cost the banks what one 32-thread load of WS32 costs (passes and
// conflicts equal to the ganged SM's), not 8 conflict-free 4-lane accesses.
TEST(VwsSliceMode, SameCycleSharedLoadsAreTimedAsOneAccess) {
  const std::vector<SmemRun> r = run_smem({{base_params(32), 32}, {slice_params(true), 32}, {slice_params(false), 32},
                                           {base_params(32), 4}, {slice_params(true), 4}, {slice_params(false), 4}});
  for (size_t k = 0; k < 2; ++k) {
    const SmemRun& ws32 = r[3 * k];
    const SmemRun& merged = r[3 * k + 1];
    const SmemRun& apart = r[3 * k + 2];
    EXPECT_EQ(ws32.passes, k == 0 ? 8u : 1u) << "stride " << (k == 0 ? 32 : 4);
    EXPECT_EQ(merged.passes, ws32.passes) << k;
    EXPECT_EQ(merged.conflicts, ws32.conflicts) << k;
    EXPECT_EQ(merged.instructions, 8u);
    // Alone, each 4-lane access is conflict-free: one pass each.
    EXPECT_EQ(apart.passes, 8u) << k;
    EXPECT_EQ(apart.conflicts, 0u) << k;
  }
}

// Straight-line independent work on one 4-wide warp per slice: with one fetch
// per cycle (2 instructions each) the SM cannot issue more than 2 warp
// instructions per cycle on average; with one fetch per slice per cycle it
// issues well above that.
const char* const kStraightPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry straight(.param .u64 out)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r1, 2;
  add.u32 %r4, %r1, 3;
  add.u32 %r5, %r1, 4;
  add.u32 %r6, %r1, 5;
  add.u32 %r7, %r1, 6;
  add.u32 %r8, %r1, 7;
  add.u32 %r9, %r1, 8;
  add.u32 %r10, %r1, 9;
  add.u32 %r11, %r1, 10;
  add.u32 %r12, %r1, 11;
  add.u32 %r13, %r1, 12;
  add.u32 %r14, %r1, 13;
  add.u32 %r15, %r1, 14;
  add.u32 %r16, %r1, 15;
  add.u32 %r17, %r1, 16;
  add.u32 %r18, %r1, 17;
  add.u32 %r19, %r1, 18;
  add.u32 %r20, %r1, 19;
  add.u32 %r21, %r1, 20;
  add.u32 %r22, %r1, 21;
  add.u32 %r23, %r1, 22;
  add.u32 %r24, %r1, 23;
  add.u32 %r25, %r1, 24;
  add.u32 %r26, %r1, 25;
  add.u32 %r27, %r1, 26;
  add.u32 %r28, %r1, 27;
  add.u32 %r29, %r1, 28;
  add.u32 %r30, %r1, 29;
  add.u32 %r31, %r1, 30;
  add.u32 %r32, %r1, 31;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r32;
  ret;
}
)PTX";

TEST(VwsSliceMode, OneFetchPerSlicePerCycleFeedsAllSlices) {
  SmBench one(kStraightPtx, slice_params(true, 1), 20, 1u << 20, "one");
  SmBench eight(kStraightPtx, slice_params(true, 8), 20, 1u << 20, "eight");
  const uint64_t out1 = one.alloc(32 * 4), out8 = eight.alloc(32 * 4);
  one.launch("straight", dim(1), dim(32), Args().add(out1));
  eight.launch("straight", dim(1), dim(32), Args().add(out8));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(one.all_done());
  ASSERT_TRUE(eight.all_done());
  auto peak_rate = [](const std::vector<IssueRecord>& t) {
    std::map<uint64_t, size_t> per_cycle;
    for (const IssueRecord& r : t) ++per_cycle[r.cycle];
    size_t peak = 0;
    for (const auto& [c, n] : per_cycle) peak = std::max(peak, n);
    const double span = double(t.back().cycle - t.front().cycle + 1);
    return std::make_pair(peak, double(t.size()) / span);
  };
  const auto [peak1, rate1] = peak_rate(one.trace);
  const auto [peak8, rate8] = peak_rate(eight.trace);
  // Fetch-bound: 1 fetch of at most fetch_width = 2 instructions per cycle
  // (plus what was fetched in the cycle or two before the first issue).
  EXPECT_LE(rate1, 2.1);
  EXPECT_GT(rate8, 2.5);
  EXPECT_EQ(peak8, 8u);   // every slice issues in the same cycle, never more than one each
  EXPECT_LE(peak1, 8u);
  EXPECT_EQ(one.download<uint32_t>(out1, 32), one.download<uint32_t>(out1, 32, true));
  EXPECT_EQ(eight.download<uint32_t>(out8, 32), eight.download<uint32_t>(out8, 32, true));
}

}  // namespace
}  // namespace simtlm::models::test
