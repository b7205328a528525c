// The register declaration reordering of Jatala §2.3.2 (seed note 000 §2.6,
// the pass reorder_registers) changes which accesses of register sharing are
// private: with t = 0.1 and 10 registers per thread only register number 1
// is private. The kernel's allocation is set by hand so that the register
// its first instruction writes is physical register 3 (number 4, shared);
// by first use it becomes number 1 (private), so a non-owner warp can issue
// that instruction while its partner holds the lock.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/passes/reorder_registers.h"
#include "models/sm/inst_timing.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

const char* const kPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.shared .align 4 .b32 buf[4];
.visible .entry k()
{
  .reg .b32 %r<4>;
  ld.shared.u32 %r1, [buf];
  ld.shared.u32 %r2, [buf+4];
  add.u32 %r3, %r2, %r1;
  st.shared.u32 [buf+8], %r3;
  ret;
}
)PTX";

// One scheduler; registers for one whole CTA of one warp (10 x 32 = 320)
// plus the private part of its partner (t x 320 = 32).
SmParams params() {
  SmParams p = test_params();
  p.schedulers = 1;
  p.policy.name = "gto";
  p.register_alloc_policy = "sharing";
  p.register_sharing_threshold = 0.1;
  p.register_alloc_granularity = 1;
  p.registers = 352;
  return p;
}

// %r1 -> 3, %r2 -> 1, %r3 -> 2, %r0 (unused) -> 0: a valid allocation
// (every register its own), not the colouring's.
void set_allocation(ir::Module& m, bool reorder) {
  for (ir::Function& f : m.functions) {
    f.analysis.regs_per_thread = 10;
    const uint32_t phys[4] = {0, 3, 1, 2};
    for (uint32_t r = 0; r < 4; ++r) f.analysis.phys_regs.at(r) = phys[r];
    f.analysis.phys_regs32 = 4;
  }
  if (reorder) frontend::passes::reorder_registers(m);
}

std::vector<uint32_t> max_numbers(bool reorder) {
  SmBench b(kPtx, params(), 100, 1u << 20, reorder ? "sm_numbers_on" : "sm_numbers_off");
  set_allocation(b.mutable_module(), reorder);
  const functional::LaunchRequest req = b.request("k", dim(1), dim(32), Args());
  functional::LaunchContext ctx(req, b.memory());
  const KernelTiming timing(ctx, b.sm().params());
  std::vector<uint32_t> out;
  for (uint32_t pc = 0; pc < 5; ++pc) out.push_back(timing.at(pc).max_reg_number);
  return out;
}

TEST(SharingReorder, FirstUseNumberingMakesTheFirstRegisterPrivate) {
  // Without the pass: physical number + 1.
  EXPECT_EQ(max_numbers(false), (std::vector<uint32_t>{4, 2, 4, 3, 0}));
  // With it: %r1 = 1, %r2 = 2, %r3 = 3 (first uses at pc 0, 1, 2).
  EXPECT_EQ(max_numbers(true), (std::vector<uint32_t>{1, 2, 3, 3, 0}));
}

// Instructions CTA 1 (the pair's non-owner: CTA 0 is older and takes the
// lock first) issues before CTA 0's warp has finished.
size_t non_owner_issues_before_owner_exit(bool reorder) {
  SmBench b(kPtx, params(), 100, 1u << 20, reorder ? "sm_run_on" : "sm_run_off");
  set_allocation(b.mutable_module(), reorder);
  b.launch("k", dim(2), dim(32), Args());
  b.run();
  EXPECT_TRUE(b.all_done());
  uint64_t owner_exit = ~0ull;
  for (const IssueRecord& r : b.trace)
    if (r.cta_id == 0 && r.cls == functional::ExecClass::Exit) owner_exit = r.cycle;
  size_t n = 0;
  for (const IssueRecord& r : b.trace) n += r.cta_id == 1 && r.cycle < owner_exit;
  return n;
}

// One simulation per test (SystemC elaborates once per process).
TEST(SharingReorder, WithoutThePassTheNonOwnerWaitsFromItsFirstInstruction) {
  EXPECT_EQ(non_owner_issues_before_owner_exit(false), 0u);
}

TEST(SharingReorder, WithThePassTheNonOwnerRunsItsPrivateFirstInstructionWhileTheOwnerHoldsTheLock) {
  EXPECT_EQ(non_owner_issues_before_owner_exit(true), 1u);
}

}  // namespace
}  // namespace simtlm::models::test
