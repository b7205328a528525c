// FineReg's live-register vectors (models/finereg/live_vectors.h) on PTX
// kernels whose live sets are worked out by hand, including the seed's
// Figure 7 situation (a warp stalled at an instruction that reads one
// register, the others written after it: only that register is live), the
// OR over a divergent warp's stack, 64-bit pairs, and the 64-register limit.
#include <gtest/gtest.h>

#include <bitset>
#include <string>

#include "models/finereg/live_vectors.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::models::finereg {
namespace {

using testing_ir::find_inst;
using testing_ir::fn;
using testing_ir::load;

uint32_t reg(const ir::Function& f, const std::string& name) {
  for (uint32_t r = 0; r < f.regs.size(); ++r)
    if (f.regs[r].name == name) return r;
  ADD_FAILURE() << "no register " << name;
  return 0;
}

LiveVector bit_of(const ir::Function& f, const std::string& name) {
  return LiveVector{1} << f.analysis.phys_regs.at(reg(f, name));
}

// Figure 7 in miniature: at the load (the instruction a warp stalls on) only
// the address %r0 is live; %r1..%r3 are first written at or after it.
const std::string kFigure7 = std::string(testing_ir::kHeader) + R"(
.visible .entry fig7()
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 buf[512];
	mov.u32 %r0, %tid.x;
	shl.b32 %r0, %r0, 2;
	ld.shared.u32 %r1, [%r0];
	add.s32 %r2, %r1, 1;
	mul.lo.s32 %r3, %r2, %r1;
	st.shared.u32 [%r0], %r3;
	ret;
}
)";

TEST(FineRegLiveVectors, Figure7OnlyTheReadRegisterIsLiveAtTheStalledLoad) {
  auto m = load(kFigure7);
  const ir::Function& f = fn(*m, "fig7");
  LiveVectorTable t(f);
  const uint32_t ld = find_inst(f, "ld.shared");
  const uint32_t add = find_inst(f, "add.s32");
  const uint32_t mul = find_inst(f, "mul.lo");
  const uint32_t st = find_inst(f, "st.shared");
  const uint32_t ret = find_inst(f, "ret");
  EXPECT_EQ(t.at(ld), bit_of(f, "%r0"));
  EXPECT_EQ(std::bitset<64>(t.at(ld)).count(), 1u);
  EXPECT_EQ(t.live_virtual(ld), std::vector<uint32_t>{reg(f, "%r0")});
  EXPECT_EQ(t.at(add), bit_of(f, "%r0") | bit_of(f, "%r1"));
  EXPECT_EQ(t.at(mul), bit_of(f, "%r0") | bit_of(f, "%r1") | bit_of(f, "%r2"));
  EXPECT_EQ(t.at(st), bit_of(f, "%r0") | bit_of(f, "%r3"));
  EXPECT_EQ(t.at(ret), 0u);
  EXPECT_EQ(t.at(t.size()), 0u);  // the implicit exit
  EXPECT_EQ(t.table_bytes(), 8u * f.insts.size());
}

// A divergent warp: lanes on the taken path and lanes still to run the
// other path; the warp's set must hold what both need.
const std::string kBranch = std::string(testing_ir::kHeader) + R"(
.visible .entry br(.param .u64 p)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd0, %r1, 4;
	add.s64 %rd2, %rd1, %rd0;
	mov.u32 %r2, 7;
	mov.u32 %r3, 9;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $L_a;
	add.s32 %r4, %r3, %r1;
	bra.uni $L_join;
$L_a:
	add.s32 %r4, %r2, %r1;
$L_join:
	st.global.u32 [%rd2], %r4;
	ret;
}
)";

TEST(FineRegLiveVectors, DivergentWarpOrsThePcsItsLanesResumeAt) {
  auto m = load(kBranch);
  const ir::Function& f = fn(*m, "br");
  LiveVectorTable t(f);
  const uint32_t else_pc = find_inst(f, "add.s32 %r4, %r3");
  const uint32_t then_pc = find_inst(f, "add.s32 %r4, %r2");
  const uint32_t join = find_inst(f, "st.global");
  // Each path reads its own constant and %tid; %rd2 (a 64-bit pair: two
  // bits; computed, so not a constant-bank value) is live on both.
  const LiveVector rd2 = LiveVector{3} << f.analysis.phys_regs.at(reg(f, "%rd2"));
  EXPECT_EQ(t.at(then_pc), bit_of(f, "%r2") | bit_of(f, "%r1") | rd2);
  EXPECT_EQ(t.at(else_pc), bit_of(f, "%r3") | bit_of(f, "%r1") | rd2);
  EXPECT_EQ(t.at(join), bit_of(f, "%r4") | rd2);
  // Stack of a warp running the taken path with the other path pending:
  // its lanes resume at then_pc and else_pc; the reconvergence entry holds
  // no lane of its own (%r4, live at the join, is written on both paths).
  std::vector<functional::Warp::StackEntry> stack = {{join, ir::kNoReconvergence, 0xFFFFFFFFull},
                                                    {else_pc, join, 0xFFFF0000ull},
                                                    {then_pc, join, 0x0000FFFFull}};
  using Pcs = std::vector<std::pair<uint32_t, uint64_t>>;
  EXPECT_EQ(LiveVectorTable::effective_pcs(stack), (Pcs{{then_pc, 0x0000FFFFull}, {else_pc, 0xFFFF0000ull}}));
  EXPECT_EQ(t.of_stack(stack), t.at(then_pc) | t.at(else_pc));
  EXPECT_NE(t.of_stack(stack), t.at(then_pc));  // the top PC alone would lose %r3
  std::vector<uint32_t> v = t.live_virtual_of_stack(stack);
  for (const char* r : {"%r1", "%r2", "%r3", "%rd2"}) {
    EXPECT_NE(std::find(v.begin(), v.end(), reg(f, r)), v.end()) << r;
  }
  EXPECT_EQ(std::find(v.begin(), v.end(), reg(f, "%r4")), v.end());
  // The taken path finished: its lanes wait at the join with %r4 written,
  // which must now be kept, with what the other path needs.
  stack.pop_back();
  EXPECT_EQ(LiveVectorTable::effective_pcs(stack), (Pcs{{else_pc, 0xFFFF0000ull}, {join, 0x0000FFFFull}}));
  EXPECT_EQ(t.of_stack(stack), t.at(else_pc) | t.at(join));
  v = t.live_virtual_of_stack(stack);
  EXPECT_NE(std::find(v.begin(), v.end(), reg(f, "%r4")), v.end());
  EXPECT_EQ(t.of_stack({}), 0u);  // a finished warp keeps nothing
}

TEST(FineRegLiveVectors, MoreThan64RegistersDoNotFitTheVector) {
  std::string ptx = std::string(testing_ir::kHeader) +
                    ".visible .entry wide(.param .u64 p)\n{\n\t.reg .b32 %r<80>;\n\t.reg .b64 %rd<2>;\n"
                    "\tld.param.u64 %rd1, [p];\n";
  for (int i = 0; i < 70; ++i) ptx += "\tld.global.u32 %r" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  for (int i = 1; i < 70; ++i) ptx += "\tadd.s32 %r0, %r0, %r" + std::to_string(i) + ";\n";
  ptx += "\tst.global.u32 [%rd1], %r0;\n\tret;\n}\n";
  auto m = load(ptx);
  LiveVectorTable t(fn(*m, "wide"));
  EXPECT_FALSE(t.fits());
  EXPECT_NE(t.why().find("kernel 'wide'"), std::string::npos) << t.why();
  EXPECT_NE(t.why().find("64"), std::string::npos) << t.why();
  EXPECT_TRUE(LiveVectorTable(fn(*load(kFigure7), "fig7")).fits());
}

}  // namespace
}  // namespace simtlm::models::finereg
