// CTA pairing for resource sharing (models/sm/cta_pairs.h) and scratchpad
// sharing through a real SM (seed note 000 §7: items 2, 8, 10, 11): the
// greedy admission reproduces the occupancy equation, the survivor of a pair
// keeps the pool and the next CTA pairs with it, and a paired CTA's access
// to the shared region waits for its partner while private accesses do not.
#include <gtest/gtest.h>

#include "models/sm/cta_pairs.h"
#include "models/sm/sharing_occupancy.h"
#include "models/smem/sharing_allocator.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

TEST(CtaPairs, AdmissionReproducesTheOccupancyEquation) {
  // hotspot registers (§2.2): 3 whole CTAs, then 3 partners of t R_tb = 921.6.
  CtaPairs pairs(32768, threshold_millionths(0.1), 8);
  uint32_t admitted = 0;
  while (pairs.can_admit(9216, 8)) pairs.admit(admitted++, 9216, 8);
  EXPECT_EQ(admitted, 6u);
  EXPECT_EQ(admitted, sharing_occupancy(32768, 9216, threshold_millionths(0.1), 8).ctas);
  EXPECT_EQ(pairs.pairs_formed(), 3u);
  EXPECT_LE(pairs.in_use(), pairs.capacity());
  for (uint32_t s = 3; s < 6; ++s) EXPECT_NE(pairs.partner(s), CtaPairs::kNone) << s;
  // Ex. 2.2.4: R = 36, R_tb = 10, t = 0.8: no pair ever (6 < 8).
  CtaPairs naive(36, threshold_millionths(0.8), 8);
  for (uint32_t s = 0; s < 3; ++s) naive.admit(s, 10, 1);
  EXPECT_FALSE(naive.can_admit(10, 1));
}

TEST(CtaPairs, PairsWithTheYoungestUnpairedCtaAsInEx221) {
  // 35K units, 10K per CTA, t = 0.5: TB0 and TB1 unshared, TB2 and TB3 a pair.
  CtaPairs pairs(35000, threshold_millionths(0.5), 8);
  for (uint32_t s = 0; s < 4; ++s) pairs.admit(s, 10000, 10);
  EXPECT_EQ(pairs.partner(0), CtaPairs::kNone);
  EXPECT_EQ(pairs.partner(1), CtaPairs::kNone);
  EXPECT_EQ(pairs.partner(3), 2u);
  EXPECT_EQ(pairs.partner(2), 3u);
  EXPECT_FALSE(pairs.can_admit(10000, 10));
  // Another shape never pairs with these.
  EXPECT_FALSE(pairs.can_admit(9000, 9));
}

TEST(CtaPairs, TheSurvivorKeepsThePoolAndTheNextCtaIsItsPartner) {
  CtaPairs pairs(35000, threshold_millionths(0.5), 8);
  for (uint32_t s = 0; s < 4; ++s) pairs.admit(s, 10000, 10);
  EXPECT_EQ(pairs.in_use(), 35000u);
  // The whole member (slot 2) completes: slot 3 now holds 10K, 5K are free.
  EXPECT_EQ(pairs.release(2), 3u);
  EXPECT_EQ(pairs.partner(3), CtaPairs::kNone);
  EXPECT_EQ(pairs.in_use(), 30000u);
  // The next CTA cannot fit whole, pairs with the orphan (slot 3), not with
  // the older unpaired slots 0 and 1.
  ASSERT_TRUE(pairs.can_admit(10000, 10));
  EXPECT_EQ(pairs.admit(2, 10000, 10), 3u);
  EXPECT_EQ(pairs.in_use(), 35000u);
  // The partner (slot 2, t R_tb) completes: slot 3 is alone again, 5K freed.
  EXPECT_EQ(pairs.release(2), 3u);
  EXPECT_EQ(pairs.in_use(), 30000u);
  // An unpaired CTA completes: its whole R_tb returns and a CTA fits whole.
  EXPECT_EQ(pairs.release(0), CtaPairs::kNone);
  EXPECT_EQ(pairs.in_use(), 20000u);
  EXPECT_EQ(pairs.admit(0, 10000, 10), CtaPairs::kNone);
}

// Two CTAs of 32 threads, 1024 B of shared memory each; t = 0.5: bytes 0..511
// private, 512..1023 the pair's shared region. Every thread stores at
// tile + offset (a parameter), then the CTA loops for a while so that the
// first CTA still runs when its partner reaches its store.
const char* const kScratchPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry scratch(.param .u32 off)
{
  .shared .align 4 .b8 tile[1024];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [off];
  mov.u32 %r2, tile;
  add.u32 %r3, %r2, %r1;
  st.shared.u32 [%r3], %r1;
  mov.u32 %r4, 0;
LOOP:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, 200;
  @%p1 bra LOOP;
  ret;
}
)PTX";

SmParams scratch_params() {
  SmParams p = test_params();
  p.shared_alloc_policy = "sharing";
  p.shared_sharing_threshold = 0.5;
  p.shared_memory_bytes = 1536;  // one whole CTA + one partner's private half
  return p;
}

struct ScratchRun {
  uint64_t stalls = 0, acquisitions = 0;
  bool done = false;
  uint64_t max_resident = 0;
};

ScratchRun run_scratch(uint32_t offset, const std::string& name) {
  SmBench b(kScratchPtx, scratch_params(), 100, 1u << 20, name);
  b.launch("scratch", dim(2), dim(32), Args().add(offset));
  b.run();
  ScratchRun r;
  r.done = b.all_done();
  auto& alloc = dynamic_cast<smem::SharingAllocator&>(b.sm().shared_allocator());
  stats::Registry reg;
  alloc.register_stats(stats::Group(reg, "smem"));
  r.stalls = static_cast<uint64_t>(reg.value("smem.sharing.lock_stalls", reg.capture()));
  r.acquisitions = static_cast<uint64_t>(reg.value("smem.sharing.lock_acquisitions", reg.capture()));
  r.max_resident = b.sm().stats().max_resident_ctas;
  return r;
}

TEST(ScratchpadSharing, PartnerWaitsForTheSharedRegion) {
  // Offset 768 is in the shared region: the first CTA takes the pair's lock,
  // the second waits at its store until the first completes.
  const ScratchRun r = run_scratch(768, "sm_shared_region");
  EXPECT_TRUE(r.done);
  EXPECT_EQ(r.max_resident, 2u);  // both resident: the second as the first's partner
  EXPECT_EQ(r.acquisitions, 1u);  // only the first takes it while paired
  EXPECT_GT(r.stalls, 100u);      // the partner waited most of the first CTA's loop
}

TEST(ScratchpadSharing, PrivateBytesNeverWait) {
  const ScratchRun r = run_scratch(508, "sm_private_region");  // bytes 508..511: the last private word
  EXPECT_TRUE(r.done);
  EXPECT_EQ(r.max_resident, 2u);
  EXPECT_EQ(r.acquisitions, 0u);
  EXPECT_EQ(r.stalls, 0u);
}

}  // namespace
}  // namespace simtlm::models::test
