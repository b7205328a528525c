// Liveness and register allocation on PTX text: vector destinations, dual
// predicate destinations, atomics, guarded writes, and the constant-bank
// treatment of kernel parameters.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/analysis/reg_access.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;
using V = std::vector<std::string>;

V names(const ir::Function& f, const std::vector<uint32_t>& regs) {
  V out;
  for (uint32_t r : regs) out.push_back(f.regs[r].name);
  std::sort(out.begin(), out.end());
  return out;
}

const std::string kOps = std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<3>;
	.reg .pred %p<3>;
	ld.param.u64 %rd1, [p];
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
	setp.lt.s32 %p1|%p2, %r1, %r2;
	atom.global.add.u32 %r5, [%rd1], %r3;
	@%p1 add.s32 %r6, %r4, %r5;
	st.global.v2.u32 [%rd1+8], {%r6, %r5};
	@%p2 bra $L_end;
	st.global.u32 [%rd1], %r4;
$L_end:
	ret;
}
)";

TEST(PtxLiveness, OperandRoles) {
  auto m = load(kOps);
  const ir::Function& k = fn(*m, "k");
  analysis::RegAccess acc;
  analysis::collect_reg_access(k.insts[1], acc);
  EXPECT_EQ(names(k, acc.defs), (V{"%r1", "%r2", "%r3", "%r4"}));
  EXPECT_EQ(names(k, acc.uses), (V{"%rd1"}));
  analysis::collect_reg_access(k.insts[2], acc);
  EXPECT_EQ(names(k, acc.defs), (V{"%p1", "%p2"}));
  analysis::collect_reg_access(k.insts[3], acc);
  EXPECT_EQ(names(k, acc.defs), (V{"%r5"}));
  EXPECT_EQ(names(k, acc.uses), (V{"%r3", "%rd1"}));
  analysis::collect_reg_access(k.insts[4], acc);
  EXPECT_TRUE(acc.defs_conditional);
  EXPECT_EQ(names(k, acc.uses), (V{"%p1", "%r4", "%r5"}));
  analysis::collect_reg_access(k.insts[5], acc);
  EXPECT_TRUE(acc.defs.empty());
  EXPECT_EQ(names(k, acc.uses), (V{"%r5", "%r6", "%rd1"}));
}

TEST(PtxLiveness, LiveSets) {
  auto m = load(kOps);
  ir::Function& k = m->functions[m->function_index.at("k")];
  auto a = analysis::analyze_function(k);
  const auto& l = a->liveness;
  EXPECT_EQ(names(k, l.live_in_regs(2)), (V{"%r1", "%r2", "%r3", "%r4", "%r6", "%rd1"}));
  // %r6 is only written under a guard, so its (undefined) old value is live
  // from the entry: the guarded write does not kill it.
  EXPECT_EQ(names(k, l.live_at_entry().to_vector()), (V{"%r6"}));
  EXPECT_EQ(names(k, l.live_in_regs(4)), (V{"%p1", "%p2", "%r4", "%r5", "%r6", "%rd1"}));
  EXPECT_EQ(names(k, l.live_out_regs(5)), (V{"%p2", "%r4", "%rd1"}));
  EXPECT_EQ(names(k, l.live_out_regs(6)), (V{"%r4", "%rd1"}));  // fall-through path
  EXPECT_TRUE(l.live_in(8).none());                             // ret
}

TEST(PtxRegAlloc, KernelParametersStayInTheConstantBank) {
  // The pointer is used by ALU instructions only (address arithmetic), so it
  // never needs a register; the loaded values do.
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 p, .param .u32 n)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r3, [%rd4];
	add.s32 %r4, %r3, %r1;
	st.global.u32 [%rd4], %r4;
	ret;
}
)";
  auto m = load(ptx);
  ir::Function& k = m->functions[m->function_index.at("k")];
  auto a = analysis::analyze_function(k);
  const auto& ra = a->registers;
  auto reg = [&](const std::string& n) {
    for (uint32_t r = 0; r < k.regs.size(); ++r)
      if (k.regs[r].name == n) return r;
    return 0xFFFFFFFFu;
  };
  EXPECT_EQ(ra.phys[reg("%rd1")], analysis::kConstantBank);
  EXPECT_EQ(ra.phys[reg("%rd2")], analysis::kConstantBank);
  EXPECT_EQ(ra.phys[reg("%r1")], analysis::kConstantBank);
  // Live at once at most: %rd4 (pair) + %r3 or %r4 -> 3 registers; the pair
  // %rd3 and %r2 die into %rd4.
  EXPECT_EQ(ra.regs32, 3u);
  EXPECT_EQ(k.analysis.regs_per_thread, 8u);  // 3 + 4 reserved -> 7 -> even 8 (ptxas: 8)

  // Without the constant-bank model the parameter pair and %r1 occupy registers.
  analysis::RegAllocOptions plain;
  plain.constant_bank_operands = false;
  auto ra2 = analysis::allocate_registers(k, a->cfg, a->liveness, plain);
  // Peak at mul.wide: %rd2 (pair), %r1 and %rd3 (pair) -> 5.
  EXPECT_EQ(ra2.regs32, 5u);
}


// Which registers a launch zeroes (ir::FunctionAnalysis): the ones a thread
// may read before writing; every register when a lane can read another lane's.
TEST(PtxLiveness, LaunchZeroesTheRegistersLiveAtEntry) {
  auto m = load(kOps);
  const ir::Function& k = fn(*m, "k");
  ASSERT_TRUE(k.analysis.done);
  EXPECT_FALSE(k.analysis.zero_all_registers);
  EXPECT_EQ(names(k, k.analysis.registers_to_zero), (V{"%r6"}));
}

TEST(PtxLiveness, KernelsReadingOtherLanesZeroEveryRegister) {
  for (const char* op : {"shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;", "vote.sync.ballot.b32 %r2, %p1, -1;"}) {
    auto m = load(std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	)" + op + R"(
	st.global.u32 [%rd1], %r2;
	ret;
}
)");
    const ir::Function& k = fn(*m, "k");
    EXPECT_TRUE(k.analysis.zero_all_registers) << op;
    EXPECT_TRUE(k.analysis.registers_to_zero.empty()) << op;
  }
}

}  // namespace
}  // namespace simtlm::frontend
