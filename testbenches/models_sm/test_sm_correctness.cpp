// The SM timing model computes what the functional backend computes: memory
// contents and instruction counts equal the functional run of the same
// launch, with more CTAs than fit at once, shared memory, barriers, atomics,
// local and constant memory and generic accesses; and runs are deterministic.
#include <gtest/gtest.h>

#include <numeric>

#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

TEST(SmCorrectness, VectorAddMatchesFunctionalBackend) {
  SmBench b(kVaddPtx, test_params());
  const uint32_t n = 1000;  // 8 CTAs of 128, the last one partly out of range
  std::vector<float> a(n), bv(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    bv[i] = 3.0f - static_cast<float>(i % 7);
  }
  const uint64_t pa = b.upload(a), pb = b.upload(bv), pc = b.alloc(n * 4);
  b.launch("vadd", dim(8), dim(128), Args().add(pa).add(pb).add(pc).add(n));
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto got = b.download<float>(pc, n);
  const auto want = b.download<float>(pc, n, /*reference=*/true);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], a[i] + bv[i]) << i;
  EXPECT_EQ(got, want);
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.warp_instructions, b.reference.warp_instructions);
  EXPECT_EQ(s.thread_instructions, b.reference.thread_instructions);
  EXPECT_EQ(s.ctas_completed, 8u);
  EXPECT_FALSE(b.sm().busy());
}

TEST(SmCorrectness, ReductionWithBarriersAndAtomicsMatches) {
  SmBench b(kReducePtx, test_params());
  const uint32_t ctas = 12, threads = 256;  // 12 CTAs of 8 warps: at most 6 resident (48 warps)
  std::vector<uint32_t> in(ctas * threads);
  std::iota(in.begin(), in.end(), 1u);
  const uint64_t pin = b.upload(in);
  const uint64_t pout = b.upload(std::vector<uint32_t>(ctas + 1, 0));
  b.launch("reduce", dim(ctas), dim(threads), Args().add(pin).add(pout));
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto got = b.download<uint32_t>(pout, ctas + 1);
  EXPECT_EQ(got, b.download<uint32_t>(pout, ctas + 1, true));
  const uint64_t total = uint64_t(ctas * threads) * (ctas * threads + 1) / 2;
  EXPECT_EQ(got[0], static_cast<uint32_t>(total));
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.warp_instructions, b.reference.warp_instructions);
  EXPECT_EQ(s.thread_instructions, b.reference.thread_instructions);
  EXPECT_EQ(s.max_resident_ctas, 6u);  // 48 warp slots / 8 warps
  EXPECT_EQ(s.atomic_transactions, ctas);
  EXPECT_GT(s.smem_instructions, 0u);
  EXPECT_GT(s.slot_barrier, 0u);
  // Atomics bypass the L1D: the L1D never sees them, the memory does.
  EXPECT_EQ(b.sm().l1d()->stats().atomics, 0u);
  EXPECT_EQ(b.target().count(AccessKind::Atomic), ctas);
}

TEST(SmCorrectness, LocalConstAndGenericAccessesMatch) {
  SmBench b(kLocalConstPtx, test_params());
  const uint32_t threads = 96;
  const uint64_t pout = b.alloc(threads * 2 * 4);
  b.launch("locals", dim(2), dim(threads), Args().add(pout));
  b.run();
  ASSERT_TRUE(b.all_done());
  const auto got = b.download<uint32_t>(pout, threads * 2);
  EXPECT_EQ(got, b.download<uint32_t>(pout, threads * 2, true));
  const uint32_t ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  for (uint32_t t = 0; t < threads * 2; ++t) ASSERT_EQ(got[t], t * 28 + ctab[t & 7]) << t;
  SmStats& s = b.sm().stats();
  EXPECT_EQ(s.warp_instructions, b.reference.warp_instructions);
  EXPECT_GT(s.local_transactions, 0u);
  EXPECT_GT(s.const_instructions, 0u);
  // Local memory is interleaved per thread: lanes accessing the same local
  // word touch one 128-byte line; here each lane uses one of 8 words.
  EXPECT_LE(s.local_transactions, 8 * (s.local_load_instructions + s.local_store_instructions));
  EXPECT_GE(s.local_transactions, s.local_load_instructions + s.local_store_instructions);
  for (const SeenRequest& r : b.target().seen) {
    if (r.space == StateSpace::Local) {
      EXPECT_NE(r.kind, AccessKind::Atomic);
    }
  }
}

TEST(SmCorrectness, L1dAndBypassTrafficUnderBackPressure) {
  // The memory takes one request at a time: the L1D's fills and write-evict
  // stores and the bypass port's atomics queue up in the SM's mux.
  SmBench b(kMixMemPtx, test_params(), 20, /*capacity=*/1);
  const uint32_t ctas = 4, threads = 128, n = ctas * threads;
  const uint64_t p = b.upload(std::vector<uint32_t>(4, 0));
  std::vector<uint32_t> q(n * 32);
  for (uint32_t i = 0; i < q.size(); ++i) q[i] = i;
  const uint64_t qa = b.upload(q);
  b.launch("mixmem", dim(ctas), dim(threads), Args().add(p).add(qa));
  b.run();
  ASSERT_TRUE(b.all_done());
  EXPECT_EQ(b.download<uint32_t>(p, 4), (std::vector<uint32_t>(4, n / 4)));
  EXPECT_EQ(b.download<uint32_t>(qa, n * 32), b.download<uint32_t>(qa, n * 32, true));
  SmStats& s = b.sm().stats();
  const uint64_t warps = n / 32;
  EXPECT_EQ(s.load_transactions, warps * 32);
  EXPECT_EQ(s.store_transactions, warps * 32);
  EXPECT_EQ(s.atomic_transactions, warps);  // the 4 counters share a line
  EXPECT_EQ(s.responses, s.load_transactions + s.store_transactions + s.atomic_transactions);
  EXPECT_EQ(b.target().count(AccessKind::Atomic), warps);
  EXPECT_EQ(b.target().count(AccessKind::Store), warps * 32);
  EXPECT_EQ(b.target().count(AccessKind::Fill), warps * 32);
  EXPECT_GT(s.ldst_blocked_cycles, 0u);
}

TEST(SmCorrectness, RunsAreDeterministic) {
  // Two identical SMs in one simulation produce identical statistics.
  SmBench x(kReducePtx, test_params(), 100, 1u << 20, "smx");
  SmBench y(kReducePtx, test_params(), 100, 1u << 20, "smy");
  for (SmBench* b : {&x, &y}) {
    std::vector<uint32_t> in(8 * 128, 3);
    const uint64_t pin = b->upload(in), pout = b->upload(std::vector<uint32_t>(9, 0));
    b->launch("reduce", dim(8), dim(128), Args().add(pin).add(pout));
  }
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
  ASSERT_TRUE(x.all_done());
  ASSERT_TRUE(y.all_done());
  const SmStats& a = x.sm().stats();
  const SmStats& c = y.sm().stats();
  EXPECT_EQ(a.active_cycles, c.active_cycles);
  EXPECT_EQ(a.slot_issued, c.slot_issued);
  EXPECT_EQ(a.slot_scoreboard, c.slot_scoreboard);
  EXPECT_EQ(a.slot_memory, c.slot_memory);
  EXPECT_EQ(a.resident_warp_cycles, c.resident_warp_cycles);
  ASSERT_EQ(x.trace.size(), y.trace.size());
  for (size_t i = 0; i < x.trace.size(); ++i) {
    ASSERT_EQ(x.trace[i].cycle, y.trace[i].cycle) << i;
    ASSERT_EQ(x.trace[i].warp_slot, y.trace[i].warp_slot) << i;
  }
}

TEST(SmCorrectness, WarpSize16AndNoL1MatchFunctional) {
  SmParams p = test_params();
  p.warp_size = 16;
  p.max_threads = 768;
  p.l1d_enabled = false;
  SmBench b(kVaddPtx, p);
  const uint32_t n = 300;
  std::vector<float> a(n, 1.5f), bv(n, 2.0f);
  const uint64_t pa = b.upload(a), pb = b.upload(bv), pc = b.alloc(n * 4);
  b.launch("vadd", dim(5), dim(64), Args().add(pa).add(pb).add(pc).add(n));
  b.run();
  ASSERT_TRUE(b.all_done());
  EXPECT_EQ(b.download<float>(pc, n), b.download<float>(pc, n, true));
  EXPECT_EQ(b.sm().stats().warp_instructions, b.reference.warp_instructions);
  EXPECT_EQ(b.sm().l1d(), nullptr);
}

}  // namespace
}  // namespace simtlm::models::test
