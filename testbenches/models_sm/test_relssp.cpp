// The `relssp` instruction through a real SM (Jatala ch. 3, seed note 000
// §2.10 and §7 items 10 and 18): a CTA pair shares the upper half of its
// scratchpad (t = 0.5); the first CTA stores into the shared region, then
// runs a long loop. Without relssp its partner waits at its own store until
// the first CTA completes; with relssp after the store, the lock is released
// as soon as every active thread of the first CTA executed it, and the
// waiting non-owner acquires the region while the first CTA still loops.
#include <gtest/gtest.h>

#include <string>

#include "models/smem/sharing_allocator.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

// BEFORE and RELEASE (before and after the store) are replaced by the
// instructions under test. Threads store `off` at tile + off; `who` (0 or 1)
// names a CTA (predicate %p2), %p3 is thread 0.
std::string scratch_ptx(const std::string& release, const std::string& before = "") {
  std::string ptx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry scratch(.param .u32 off, .param .u32 who)
{
  .shared .align 4 .b8 tile[1024];
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  ld.param.u32 %r1, [off];
  ld.param.u32 %r6, [who];
  mov.u32 %r2, tile;
  add.u32 %r3, %r2, %r1;
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r8, %tid.x;
  setp.eq.u32 %p2, %r7, %r6;
  setp.eq.u32 %p3, %r8, 0;
BEFORE
  st.shared.u32 [%r3], %r1;
RELEASE
  mov.u32 %r4, 0;
LOOP:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, 400;
  @%p1 bra LOOP;
  ret;
}
)PTX";
  ptx.replace(ptx.find("RELEASE"), 7, release);
  ptx.replace(ptx.find("BEFORE"), 6, before);
  return ptx;
}

SmParams scratch_params(const std::string& policy) {
  SmParams p = test_params();
  p.shared_alloc_policy = policy;
  p.shared_sharing_threshold = 0.5;
  p.shared_memory_bytes = 1536;  // one whole CTA + one partner's private half
  return p;
}

struct RelsspRun {
  bool done = false;
  uint64_t stalls = 0, acquisitions = 0, early_releases = 0, completions = 0;
  uint64_t store_cycle[2] = {0, 0};  // cycle each CTA's (first) store issued
  uint64_t ret_cycle[2] = {0, 0};    // cycle each CTA's last ret issued
  uint64_t relssp_issues = 0;
};

RelsspRun run(const std::string& release, uint32_t threads, uint32_t who, const std::string& name,
        const std::string& policy = "sharing", const std::string& before = "") {
  SmBench b(scratch_ptx(release, before), scratch_params(policy), 100, 1u << 20, name);
  b.launch("scratch", dim(2), dim(threads), Args().add(uint32_t{768}).add(who));
  b.run();
  RelsspRun r;
  r.done = b.all_done();
  for (const IssueRecord& i : b.trace) {
    const unsigned c = static_cast<unsigned>(i.cta_id);
    if (i.cls == functional::ExecClass::Store && r.store_cycle[c] == 0) r.store_cycle[c] = i.cycle;
    if (i.cls == functional::ExecClass::Exit) r.ret_cycle[c] = i.cycle;
    if (i.cls == functional::ExecClass::Nop) ++r.relssp_issues;
  }
  if (policy != "sharing") return r;
  stats::Registry reg;
  b.sm().shared_allocator().register_stats(stats::Group(reg, "smem"));
  const stats::Values v = reg.capture();
  r.stalls = static_cast<uint64_t>(reg.value("smem.sharing.lock_stalls", v));
  r.acquisitions = static_cast<uint64_t>(reg.value("smem.sharing.lock_acquisitions", v));
  r.early_releases = static_cast<uint64_t>(reg.value("smem.sharing.lock_early_releases", v));
  r.completions = static_cast<uint64_t>(reg.value("smem.sharing.relssp_completions", v));
  return r;
}

// One simulation per test: SystemC elaborates once per process.
TEST(Relssp, WithoutItThePartnerWaitsUntilTheOwnerCompletes) {
  const RelsspRun r = run("", 32, 0, "relssp_none");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.early_releases, 0u);
  EXPECT_EQ(r.completions, 0u);
  EXPECT_GT(r.store_cycle[1], r.ret_cycle[0]);  // the non-owner's store waited for the owner's end
}

TEST(Relssp, TheWaitingNonOwnerAcquiresTheRegionEarly) {
  const RelsspRun r = run("  relssp;", 32, 0, "relssp_early");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.early_releases, 2u);  // each CTA, after its store, held the lock when it released
  EXPECT_EQ(r.completions, 2u);     // both CTAs' threads all executed it
  EXPECT_EQ(r.acquisitions, 2u);    // CTA 1 took the lock after CTA 0 gave it back
  EXPECT_LT(r.store_cycle[1], r.ret_cycle[0]);  // ... while CTA 0 still ran its loop
}

TEST(Relssp, OneThreadOfFortyEightIsNotEnough) {
  // 48 threads: two warps, the second with 16 padding lanes. Only thread 0
  // executes relssp.
  const RelsspRun r = run("  @%p3 relssp;", 48, 0, "relssp_one_thread");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.early_releases, 0u);
  EXPECT_EQ(r.completions, 0u);
  EXPECT_GT(r.store_cycle[1], r.ret_cycle[0]);
}

TEST(Relssp, PaddingLanesAreNotWaitedFor) {
  const RelsspRun r = run("  relssp;", 48, 0, "relssp_padded");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.early_releases, 2u);
  EXPECT_EQ(r.completions, 2u);
  EXPECT_LT(r.store_cycle[1], r.ret_cycle[0]);
}

TEST(Relssp, AThreadCountsOnceUntilTheRelease) {
  // Every thread executes it twice. Warp 0 issues both before warp 1 issues
  // its first: its second sets no new bit (a plain counter would reach 48
  // there, with warp 1 not done). Warp 1's first completes the CTA and
  // clears the bits; its second starts a round that never completes.
  const RelsspRun r = run("  relssp;\n  relssp;", 48, 0, "relssp_twice");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.early_releases, 2u);
  EXPECT_EQ(r.completions, 2u);
}

TEST(Relssp, InACtaThatDoesNotHoldTheLockItHasNoEffect) {
  // Only CTA 1 (the waiting non-owner) executes relssp, before its store,
  // when it does not hold the lock: nothing is released, it still waits for
  // CTA 0 to complete.
  const RelsspRun r = run("", 32, 1, "relssp_non_holder", "sharing", "  @%p2 relssp;");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.completions, 1u);
  EXPECT_EQ(r.early_releases, 0u);
  EXPECT_GT(r.store_cycle[1], r.ret_cycle[0]);
}

TEST(Relssp, WithSharingOffItIsAnIssuedNoOp) {
  const RelsspRun r = run("  relssp;", 32, 0, "relssp_off", "baseline");
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.relssp_issues, 2u);  // one warp per CTA
}

}  // namespace
}  // namespace simtlm::models::test
