// The VWS SM in mixed mode (the warp ganging unit, models/vws/ganging_unit.h;
// seed note 002 §10.2-10.7, invariants §15.5), driven through a real Sm with
// SmBench: gangs formed at CTA activation, lock-step issue of a gang's
// members in one cycle, a divergent branch splitting a gang into the right
// sub-gangs and singletons, disjoint masks for gangs issued together, one
// fetch per gang, reformation, memory-divergence splits, and the same-cycle
// coalescing of a gang's loads.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "testbenches/models_vws/mixed_harness.h"

namespace simtlm::models::test {
namespace {

// Warp w = tid / 4 takes path[w] (0 = A, 1 = B, 2 = C, else D) through a
// chain of branches, then all paths join: out[t] = path number + 1.
const char* const kPathPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry paths(.param .u64 path, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [path];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r3, [%rd4];
  mov.u32 %r4, 0;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra PA;
  setp.eq.u32 %p1, %r3, 1;
  @%p1 bra PB;
  setp.eq.u32 %p1, %r3, 2;
  @%p1 bra PC;
  add.u32 %r4, %r4, 4;
  bra.uni JOIN;
PA:
  add.u32 %r4, %r4, 1;
  bra.uni JOIN;
PB:
  add.u32 %r4, %r4, 2;
  bra.uni JOIN;
PC:
  add.u32 %r4, %r4, 3;
JOIN:
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r4;
  ret;
}
)PTX";

// Every warp loads a[0] (one line), then warp w loads a[(w < 4 ? 0 : w) * 32]:
// with the L1D on, warps 0-3 find that line cached by the first load and get
// it before warps 4-7, whose lines miss (memory-latency divergence).
const char* const kLoadPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry load(.param .u64 a, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  mov.u32 %r3, %tid.x;
  shr.u32 %r4, %r3, 2;
  ld.global.u32 %r8, [%rd1];
  setp.lt.u32 %p1, %r4, 4;
  selp.u32 %r6, 0, %r4, %p1;
  mul.lo.u32 %r7, %r6, 32;
  mul.wide.u32 %rd7, %r7, 4;
  add.s64 %rd8, %rd1, %rd7;
  ld.global.u32 %r9, [%rd8];
  add.u32 %r10, %r8, %r9;
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r10;
  ret;
}
)PTX";

// Asks the table what a given warp's issue sees (after the split that
// happened before it), at the first issue of `slot` at or after `pc`.
struct TableProbe : SmObserver {
  TableProbe(const GangingUnit& u, uint32_t slot, uint32_t pc) : unit(u), slot(slot), pc(pc) {}
  void on_warp_issue(const IssueRecord& r) override {
    if (seen || r.warp_slot != slot || r.pc < pc) return;
    seen = true;
    for (uint32_t s = 0; s < 8; ++s) gang_of.push_back(unit.table().gang_of(0, s));
    check = unit.table().check();
  }
  const GangingUnit& unit;
  uint32_t slot, pc;
  bool seen = false;
  std::vector<uint32_t> gang_of;
  std::string check;
};

TEST(VwsMixedMode, UniformKernelRunsAsOneGangInLockStep) {
  const SmParams p = mixed_params();
  SmBench b(kLoadPtx, p, 50);
  GangingUnit& unit = GangingUnit::install(b.sm(), ganging(p));
  std::vector<uint32_t> a(32 * 64);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<uint32_t>(k);
  const uint64_t da = b.upload(a);
  const uint64_t out = b.alloc(32 * 4);
  b.launch("load", dim(1), dim(32), Args().add(da).add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  EXPECT_EQ(b.download<uint32_t>(out, 32), b.download<uint32_t>(out, 32, true));
  EXPECT_EQ(unit.counters().gangs_formed, 1u);
  const auto cycles = issue_cycles(b.trace);
  ASSERT_EQ(cycles.size(), 8u);
  for (const auto& [slot, c] : cycles) EXPECT_EQ(c, cycles.begin()->second) << "warp slot " << slot;
  EXPECT_EQ(*unit.table().split_counter(vws::SplitCause::ControlFlow), 0u);
  // One fetch per gang fetch, none by the slices; every member instruction
  // belongs to a gang instruction.
  uint64_t slice_fetches = 0;
  for (uint64_t f : unit.counters().slice_fetches) slice_fetches += f;
  EXPECT_EQ(slice_fetches, 0u);
  EXPECT_EQ(b.sm().stats().fetches, unit.counters().gang_fetches);
  EXPECT_EQ(unit.counters().gang_warp_instructions, b.sm().stats().warp_instructions);
  EXPECT_EQ(unit.counters().gang_issues * 8, b.sm().stats().warp_instructions);
  // The gang's 8 loads of one line start in one cycle: one request (the
  // memory unit sees one 32-thread access), and so do the second loads
  // (a[0] for warps 0-3, the other lines a[w * 32] for warps 4-7: 5 lines).
  EXPECT_EQ(b.target().count(AccessKind::Load), 1u + 5u);
  expect_one_issue_per_slice_and_cycle(b.trace);
}

TEST(VwsMixedMode, FormsOneGangPerOriginalGangAtCtaActivation) {
  const SmParams p = mixed_params();
  SmBench b(kLoadPtx, p, 50);
  GangingUnit& unit = GangingUnit::install(b.sm(), ganging(p));
  // A CTA of one warp has no gang: it runs on its slice alone.
  SmBench one(kLoadPtx, p, 50, 1u << 20, "sm_one");
  GangingUnit& u1 = GangingUnit::install(one.sm(), ganging(p));
  std::vector<uint32_t> a(32 * 64, 1);
  const uint64_t da = b.upload(a);
  const uint64_t out = b.alloc(3 * 44 * 4);
  // 44 threads = 11 warps: a full original gang and one of 3 warps, per CTA.
  b.launch("load", dim(3), dim(44), Args().add(da).add(out));
  const uint64_t da1 = one.upload(a);
  const uint64_t out1 = one.alloc(4 * 4);
  one.launch("load", dim(1), dim(4), Args().add(da1).add(out1));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(b.all_done());
  EXPECT_EQ(unit.counters().gangs_formed, 6u);
  EXPECT_EQ(b.download<uint32_t>(out, 3 * 44), b.download<uint32_t>(out, 3 * 44, true));
  EXPECT_EQ(unit.table().gangs_in_use(), 0u);  // every warp retired
  EXPECT_EQ(unit.table().check(), "");
  ASSERT_TRUE(one.all_done());
  EXPECT_EQ(u1.counters().gangs_formed, 0u);
  EXPECT_EQ(u1.counters().gang_issues, 0u);
  EXPECT_GT(u1.counters().slice_fetches[0], 0u);
  EXPECT_EQ(one.download<uint32_t>(out1, 4), one.download<uint32_t>(out1, 4, true));
}

// Paths {A,A,B,B,B,C,A,D}: the chain of branches splits the gang into the
// gangs {0,1,6} (A) and {2,3,4} (B) and the independent warps 5 (C) and 7
// (D), as the seed's rule makes it (groups of 2 or more stay ganged).
TEST(VwsMixedMode, DivergentBranchSplitsIntoSubGangsAndSingletons) {
  const SmParams p = mixed_params();
  SmBench b(kPathPtx, p, 20);
  GangingUnit& unit = GangingUnit::install(b.sm(), ganging(p));
  const ir::Function* k = b.module().find_kernel("paths");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->labels.count("PC"), 1u);
  const uint32_t pc_c = k->labels.at("PC");  // first instruction of path C
  TableProbe probe(unit, 5, pc_c);
  b.sm().subscribe(probe);
  const std::vector<uint32_t> path = {0, 0, 1, 1, 1, 2, 0, 3};
  const uint64_t dpath = b.upload(path);
  const uint64_t out = b.alloc(32 * 4);
  b.launch("paths", dim(1), dim(32), Args().add(dpath).add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  const std::vector<uint32_t> got = b.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], path[t / 4] + 1) << "thread " << t;
  ASSERT_TRUE(probe.seen);
  EXPECT_EQ(probe.check, "");
  const std::vector<uint32_t>& g = probe.gang_of;
  EXPECT_NE(g[0], kNoGang);
  EXPECT_EQ(g[1], g[0]);
  EXPECT_EQ(g[6], g[0]);
  EXPECT_NE(g[2], kNoGang);
  EXPECT_NE(g[2], g[0]);
  EXPECT_EQ(g[3], g[2]);
  EXPECT_EQ(g[4], g[2]);
  EXPECT_EQ(g[5], kNoGang);
  EXPECT_EQ(g[7], kNoGang);
  // Three branches split: A from the rest, B from {C, D}, C from D.
  EXPECT_EQ(*unit.table().split_counter(vws::SplitCause::ControlFlow), 3u);
  EXPECT_EQ(*unit.table().reformation_counter(), 0u);  // I-VWS: never reformed
  expect_one_issue_per_slice_and_cycle(b.trace);
}

// Gangs issue together only with disjoint masks: two CTAs of 4 warps each
// have the same mask (slices 0-3) and never issue in one cycle; split halves
// of one gang (slices 0-3 and 4-7) do when 2 gangs per cycle are allowed.
TEST(VwsMixedMode, GangsIssuedTogetherHaveDisjointMasks) {
  const SmParams p = mixed_params();
  SmBench same(kLoadPtx, p, 20, 1u << 20, "sm_same");
  GangingUnit& u_same = GangingUnit::install(same.sm(), ganging(p, 2));
  std::vector<uint32_t> a(32 * 64, 3);
  const uint64_t da = same.upload(a);
  const uint64_t out = same.alloc(2 * 16 * 4);
  same.launch("load", dim(2), dim(16), Args().add(da).add(out));
  // Paths {A,A,A,A,B,B,B,B}: two gangs of 4 with disjoint masks.
  SmBench halves(kPathPtx, p, 20, 1u << 20, "sm_halves");
  GangingUnit& u_halves = GangingUnit::install(halves.sm(), ganging(p, 2));
  SmBench halves1(kPathPtx, p, 20, 1u << 20, "sm_halves1");
  GangingUnit& u_halves1 = GangingUnit::install(halves1.sm(), ganging(p, 1));
  const std::vector<uint32_t> path = {0, 0, 0, 0, 1, 1, 1, 1};
  for (SmBench* h : {&halves, &halves1}) {
    const uint64_t dp = h->upload(path);
    const uint64_t o = h->alloc(32 * 4);
    h->launch("paths", dim(1), dim(32), Args().add(dp).add(o));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (SmBench* s : {&same, &halves, &halves1}) {
    ASSERT_TRUE(s->all_done());
    expect_one_issue_per_slice_and_cycle(s->trace);
  }
  EXPECT_EQ(u_same.counters().gangs_formed, 2u);
  EXPECT_EQ(u_same.counters().gangs_issued.at(2), 0u);
  EXPECT_GT(u_halves.counters().gangs_issued.at(2), 0u);
  EXPECT_EQ(u_halves1.counters().gangs_issued.size(), 2u);  // never more than one gang per cycle
  EXPECT_GT(u_halves1.counters().gangs_issued.at(1), 0u);
}

// E-VWS: after the paths join, the split parts of the original gang meet at
// one pc and are merged again (one merge of two units per cycle); I-VWS
// never merges.
TEST(VwsMixedMode, OpportunisticReformationMergesAtOnePc) {
  const SmParams p = mixed_params();
  SmBench e(kPathPtx, p, 20, 1u << 20, "sm_e");
  GangingUnit& ue = GangingUnit::install(e.sm(), ganging(p, 2, vws::Reform::Opportunistic));
  const std::vector<uint32_t> path = {0, 0, 1, 1, 1, 2, 0, 3};
  const uint64_t dp = e.upload(path);
  const uint64_t o = e.alloc(32 * 4);
  e.launch("paths", dim(1), dim(32), Args().add(dp).add(o));
  e.run();
  ASSERT_TRUE(e.all_done());
  EXPECT_GT(*ue.table().reformation_counter(), 0u);
  const std::vector<uint32_t> got = e.download<uint32_t>(o, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], path[t / 4] + 1) << "thread " << t;
  expect_one_issue_per_slice_and_cycle(e.trace);
}

// Memory-latency divergence: warps 0-3's second load hits in the L1D (the
// line of the first load), warps 4-7's miss. Impatient splitting makes every
// member independent; group splitting keeps the four early warps a gang;
// without memory splitting the gang stays whole.
TEST(VwsMixedMode, MemoryDivergenceSplitsImpatientOrByGroup) {
  const SmParams p = mixed_params(true);
  const vws::MemSplit kinds[3] = {vws::MemSplit::Impatient, vws::MemSplit::Group, vws::MemSplit::None};
  std::vector<std::unique_ptr<SmBench>> benches;
  std::vector<GangingUnit*> units;
  std::vector<std::unique_ptr<TableProbe>> probes;
  std::vector<uint64_t> outs;
  for (int i = 0; i < 3; ++i) {
    benches.push_back(std::make_unique<SmBench>(kLoadPtx, p, 200, 1u << 20, "sm_mem" + std::to_string(i)));
    SmBench& s = *benches.back();
    units.push_back(&GangingUnit::install(s.sm(), ganging(p, 2, vws::Reform::None, kinds[i])));
    const ir::Function* k = s.module().find_kernel("load");
    // At warp 0's store (the last instructions), after both loads returned.
    probes.push_back(std::make_unique<TableProbe>(*units.back(), 0, static_cast<uint32_t>(k->insts.size()) - 2));
    s.sm().subscribe(*probes.back());
    std::vector<uint32_t> a(32 * 64);
    for (size_t j = 0; j < a.size(); ++j) a[j] = static_cast<uint32_t>(j * 7);
    const uint64_t da = s.upload(a);
    outs.push_back(s.alloc(32 * 4));
    s.launch("load", dim(1), dim(32), Args().add(da).add(outs.back()));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (size_t i = 0; i < benches.size(); ++i) {
    ASSERT_TRUE(benches[i]->all_done());
    EXPECT_EQ(benches[i]->download<uint32_t>(outs[i], 32), benches[i]->download<uint32_t>(outs[i], 32, true));
    ASSERT_TRUE(probes[i]->seen);
    EXPECT_EQ(probes[i]->check, "");
  }
  const std::vector<uint32_t>& imp = probes[0]->gang_of;
  for (uint32_t s = 0; s < 8; ++s) EXPECT_EQ(imp[s], kNoGang) << "impatient, slice " << s;
  EXPECT_EQ(*units[0]->table().split_counter(vws::SplitCause::MemoryImpatient), 1u);
  const std::vector<uint32_t>& grp = probes[1]->gang_of;
  EXPECT_NE(grp[0], kNoGang);
  for (uint32_t s = 1; s < 4; ++s) EXPECT_EQ(grp[s], grp[0]) << "group, slice " << s;
  for (uint32_t s = 4; s < 8; ++s) EXPECT_NE(grp[s], grp[0]) << "group, slice " << s;
  EXPECT_GE(*units[1]->table().split_counter(vws::SplitCause::MemoryGroup), 1u);
  const std::vector<uint32_t>& none = probes[2]->gang_of;
  EXPECT_NE(none[0], kNoGang);
  for (uint32_t s = 1; s < 8; ++s) EXPECT_EQ(none[s], none[0]) << "no memory split, slice " << s;
}

// Every gang order, and 2 L1 I-cache ports instead of one per slice, run the
// divergent kernel to the reference result; with 2 ports the gang fetches
// still come first and the independent warps of every slice get fetches.
TEST(VwsMixedMode, GangOrdersAndTwoFetchPortsRunToTheReference) {
  const SmParams p = mixed_params();
  const vws::GangOrder orders[] = {vws::GangOrder::Bgto, vws::GangOrder::Gto, vws::GangOrder::Lgto,
                                   vws::GangOrder::Lpc, vws::GangOrder::Lrr};
  std::vector<std::unique_ptr<SmBench>> benches;
  std::vector<GangingUnit*> units;
  std::vector<uint64_t> outs;
  // Paths {A,B,C,D,A,B,C,D}: four gangs of two (slices 0+4, 1+5, 2+6, 3+7).
  const std::vector<uint32_t> path = {0, 1, 2, 3, 0, 1, 2, 3};
  for (size_t i = 0; i < 6; ++i) {
    benches.push_back(std::make_unique<SmBench>(kPathPtx, p, 20, 1u << 20, "sm_o" + std::to_string(i)));
    GangingParams g = ganging(p);
    if (i < 5) {
      g.order = orders[i];
    } else {
      g.fetch_ports = 2;
    }
    units.push_back(&GangingUnit::install(benches.back()->sm(), g));
    const uint64_t dp = benches.back()->upload(path);
    outs.push_back(benches.back()->alloc(32 * 4));
    benches.back()->launch("paths", dim(2), dim(32), Args().add(dp).add(outs.back()));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (size_t i = 0; i < benches.size(); ++i) {
    ASSERT_TRUE(benches[i]->all_done()) << "configuration " << i;
    // Both CTAs write out[tid] (the same values).
    const std::vector<uint32_t> got = benches[i]->download<uint32_t>(outs[i], 32);
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], path[t / 4] + 1) << "configuration " << i;
    expect_one_issue_per_slice_and_cycle(benches[i]->trace);
    EXPECT_EQ(units[i]->table().check(), "");
    // 2 CTAs x 3 branches that split.
    EXPECT_EQ(*units[i]->table().split_counter(vws::SplitCause::ControlFlow), 2u * 3u) << "configuration " << i;
  }
  // Pairs of gangs with disjoint masks issue together under every order.
  for (size_t i = 0; i < benches.size(); ++i) EXPECT_GT(units[i]->counters().gangs_issued.at(2), 0u) << i;
}

}  // namespace
}  // namespace simtlm::models::test
