// Register sharing and Owner-Warp-First through a real SM (Jatala §2.2-§2.3,
// seed note 000 §2.3, §2.5, §7): the worked example of Ex. 2.3.1/2.3.2 (OWF:
// O finishes at 7, U at 9, N at 13; unshared first: N at 15), the deadlock
// of Fig. 2.8 that the canAcquire rule prevents, and the lock invariants.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "models/regfile/sharing_allocator.h"
#include "models/sm/inst_timing.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

// The example's warps: I1 writes the private R1, I2 loads into the shared R2,
// I3 reads R2, then ret. With 10 registers per thread and t = 0.1 only
// register 1 (physical 0) is private. I1 is a shared-memory load rather than
// the example's mov: in our pipeline a dependent instruction issues latency + 1
// cycles after its producer, so a mov feeding I2 would put I2 two cycles after
// I1; two loads in a row go through the LD/ST unit one per cycle, which keeps
// the example's I1, I2 in consecutive cycles (nothing reads R1 in time).
const char* const kOwfPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.shared .align 4 .b32 buf[4];
.visible .entry owf()
{
  .reg .b32 %r<4>;
  ld.shared.u32 %r1, [buf+4];
  ld.shared.u32 %r2, [buf];
  add.u32 %r3, %r2, %r1;
  ret;
}
)PTX";

// A small SM for the worked example: one scheduler that may issue two
// instructions of one warp per cycle (so a warp's I3 and its ret issue
// together, as the example's warps finish with their I3), shared-memory
// loads whose users issue 5 cycles later (latency 4 + 1), registers for 2
// unshared CTAs of one warp (10 x 32 = 320 each) plus one pair's private
// part (t x 320 = 32). The instruction cache is not perfect: the three warps'
// first fetches miss on the same line and are all served by its fill, so all
// three warps can issue from the same cycle on (cycle 1 of the example).
SmParams owf_params(const std::string& policy) {
  SmParams p = test_params();
  p.icache_perfect = false;
  p.schedulers = 1;
  p.max_issue_per_warp = 2;
  p.policy.name = policy;
  p.register_alloc_policy = "sharing";
  p.register_sharing_threshold = 0.1;
  p.register_alloc_granularity = 1;
  p.registers = 672;
  p.smem_latency = 4;
  return p;
}

struct WarpFinish {
  std::map<uint64_t, uint64_t> ret_cycle;  // CTA id -> cycle its ret issued (1 = first issue of the SM)
  uint64_t issued_owner = 0, issued_unshared = 0, issued_non_owner = 0;
};

WarpFinish run_owf_example(const std::string& policy, std::string& trace_text) {
  SmBench b(kOwfPtx, owf_params(policy), 100, 1u << 20, "sm_" + policy);
  for (ir::Function& f : b.mutable_module().functions) f.analysis.regs_per_thread = 10;
  b.launch("owf", dim(3), dim(32), Args());
  b.run();
  EXPECT_TRUE(b.all_done());
  WarpFinish out;
  stats::Registry reg;
  b.sm().register_stats(stats::Group(reg, "sm"));
  const stats::Values v = reg.capture();
  out.issued_owner = static_cast<uint64_t>(reg.value("sm.sharing.issued_owner", v));
  out.issued_unshared = static_cast<uint64_t>(reg.value("sm.sharing.issued_unshared", v));
  out.issued_non_owner = static_cast<uint64_t>(reg.value("sm.sharing.issued_non_owner", v));
  if (b.trace.empty()) return out;
  const uint64_t first = b.trace.front().cycle;
  for (const IssueRecord& r : b.trace) {
    trace_text += "cycle " + std::to_string(r.cycle - first + 1) + ": CTA " + std::to_string(r.cta_id) + " pc " +
                  std::to_string(r.pc) + "\n";
    if (r.cls == functional::ExecClass::Exit) out.ret_cycle[r.cta_id] = r.cycle - first + 1;
  }
  return out;
}

TEST(RegisterSharing, WorkedExampleRegistersArePrivateAndShared) {
  // The premise of the example: R1 private, R2 and R3 shared.
  SmBench b(kOwfPtx, owf_params("owf"), 100, 1u << 20, "sm_premise");
  for (ir::Function& f : b.mutable_module().functions) f.analysis.regs_per_thread = 10;
  const functional::LaunchRequest req = b.request("owf", dim(1), dim(32), Args());
  functional::LaunchContext ctx(req, b.memory());
  const KernelTiming timing(ctx, b.sm().params());
  const InstTiming& i1 = timing.at(0);
  const InstTiming& ld = timing.at(1);
  ASSERT_EQ(i1.num_rf_writes, 1u);
  EXPECT_EQ(i1.rf_writes[0], 0u) << "R1 must be physical register 0 (private)";
  ASSERT_EQ(ld.num_rf_writes, 1u);
  EXPECT_GE(ld.rf_writes[0], 1u) << "R2 must be shared";
}

TEST(RegisterSharing, OwnerWarpFirstWorkedExample) {
  // CTA 0 = U (unpaired), CTA 1 = O (the pair's older CTA; it takes the
  // lock at I2), CTA 2 = N (admitted as the partner of the youngest unpaired
  // CTA: registers for 2 whole CTAs only). OWF: O, U, N.
  std::string trace;
  const WarpFinish f = run_owf_example("owf", trace);
  EXPECT_EQ(f.ret_cycle.at(1), 7u) << trace;   // O
  EXPECT_EQ(f.ret_cycle.at(0), 9u) << trace;   // U
  EXPECT_EQ(f.ret_cycle.at(2), 13u) << trace;  // N
  // Issue classes: O's 4 instructions as owner, U's 4 unshared, N's I1 (O
  // holds the lock) non-owner; N's I2 at cycle 8 takes the lock O's finished
  // warp released while O's CTA is still resident (its pair still exists):
  // owner; once O's CTA has completed N has no partner: I3 and ret unshared.
  EXPECT_EQ(f.issued_owner, 5u);
  EXPECT_EQ(f.issued_unshared, 6u);
  EXPECT_EQ(f.issued_non_owner, 1u);
}

TEST(RegisterSharing, UnsharedFirstWorkedExample) {
  // GTO with U the oldest warp orders U, O, N (the example's unshared-first):
  // N waits for O until cycle 9, resumes at 10 and finishes at 15.
  std::string trace;
  const WarpFinish f = run_owf_example("gto", trace);
  EXPECT_EQ(f.ret_cycle.at(0), 7u) << trace;   // U
  EXPECT_EQ(f.ret_cycle.at(1), 9u) << trace;   // O
  EXPECT_EQ(f.ret_cycle.at(2), 15u) << trace;  // N
}

// Fig. 2.8: two CTAs of two warps paired. In each CTA one warp touches a
// shared register at once and waits at the barrier; the other first runs a
// loop on private registers, then touches a shared register (the lock of its
// own warp pair) before the barrier. CTA 0's early warp is warp 1, CTA 1's is
// warp 0, so without the rule each early warp takes the lock the other
// CTA's late warp needs, and both CTAs wait at their barriers forever.
const char* const kDeadlockPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry fig28()
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, 0;
  setp.eq.u32 %p1, %r2, %r3;
  @%p1 bra LATE;
  mov.u32 %r10, 7;
  bar.sync 0;
  bra.uni DONE;
LATE:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p2, %r4, 100;
  @%p2 bra LATE;
  mov.u32 %r10, 9;
  bar.sync 0;
DONE:
  add.u32 %r5, %r1, %r2;
  add.u32 %r5, %r5, %r3;
  add.u32 %r5, %r5, %r4;
  add.u32 %r5, %r5, %r10;
  ret;
}
)PTX";

// Registers for one whole CTA of 64 threads x 10 registers plus a partner's
// private part (t = 0.4: 256): CTA 1 is admitted as CTA 0's partner. Each
// thread's registers 1..4 (physical 0..3) are private.
SmParams deadlock_params(bool rule) {
  SmParams p = test_params();
  p.register_alloc_policy = "sharing";
  p.register_sharing_threshold = 0.4;
  p.register_alloc_granularity = 1;
  p.registers = 896;
  p.sharing_deadlock_rule = rule;
  return p;
}

constexpr uint32_t kDeadlockTouchPcs[] = {6, 12};  // the two `mov.u32 %r10, ...`

void prepare_deadlock(SmBench& b) {
  for (ir::Function& f : b.mutable_module().functions) f.analysis.regs_per_thread = 10;
}

TEST(RegisterSharing, DeadlockScenarioPremise) {
  // Only the two touches reach a shared register before the barriers.
  SmBench b(kDeadlockPtx, deadlock_params(true), 100, 1u << 20, "sm_premise28");
  prepare_deadlock(b);
  const functional::LaunchRequest req = b.request("fig28", dim(1), dim(64), Args());
  functional::LaunchContext ctx(req, b.memory());
  const KernelTiming timing(ctx, b.sm().params());
  for (uint32_t pc = 0; pc <= 13; ++pc) {
    const InstTiming& t = timing.at(pc);
    const bool touch = pc == kDeadlockTouchPcs[0] || pc == kDeadlockTouchPcs[1];
    bool shared = false;
    for (unsigned i = 0; i < t.num_rf_reads; ++i) shared |= t.rf_reads[i] >= 4;
    for (unsigned i = 0; i < t.num_rf_writes; ++i) shared |= t.rf_writes[i] >= 4;
    EXPECT_EQ(shared, touch) << "pc " << pc;
  }
}

TEST(RegisterSharing, DeadlockRulePreventsFig28) {
  SmBench b(kDeadlockPtx, deadlock_params(true), 100, 1u << 20, "sm_rule");
  prepare_deadlock(b);
  b.launch("fig28", dim(2), dim(64), Args());
  b.run(ns(200000));
  EXPECT_TRUE(b.all_done()) << b.sm().describe_stall();
  EXPECT_EQ(b.sm().resident_ctas(), 0u);
}

TEST(RegisterSharing, WithoutTheRuleFig28Deadlocks) {
  // The test-only switch: the early warps of both CTAs take crossing locks;
  // no warp issues again (what the platform's watchdog reports as a deadlock).
  SmBench b(kDeadlockPtx, deadlock_params(false), 100, 1u << 20, "sm_norule");
  prepare_deadlock(b);
  b.launch("fig28", dim(2), dim(64), Args());
  b.run(ns(200000));
  EXPECT_FALSE(b.all_done());
  ASSERT_FALSE(b.trace.empty());
  EXPECT_LT(b.trace.back().cycle, 20000u) << "warps still issued late in the run";
  EXPECT_NE(b.sm().describe_stall().find("throttled"), std::string::npos) << b.sm().describe_stall();
}

}  // namespace
}  // namespace simtlm::models::test
