// The analyses kept with a loaded kernel (FunctionAnalysis::phys_regs,
// phys_regs32 and the `analyses` bundle): present after loading, consistent
// with a fresh analysis, a valid register assignment, and usable from a copy
// of the function after the module it came from is gone.
#include <gtest/gtest.h>

#include <memory>

#include "frontend/analysis/analyze.h"
#include "frontend/load.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;

// A loop summing a[i] (64-bit addresses, a guarded exit) so that 32-bit,
// 64-bit and predicate registers are live together across a back edge.
const std::string kSum = std::string(kHeader) + R"(
.visible .entry sum(.param .u64 p_a, .param .u64 p_out, .param .u32 p_n)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p_a];
	ld.param.u64 	%rd2, [p_out];
	ld.param.u32 	%r1, [p_n];
	cvta.to.global.u64 	%rd3, %rd1;
	mov.u32 	%r2, 0;
	mov.u32 	%r3, 0;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_done;
$L_loop:
	mul.wide.u32 	%rd4, %r3, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.u32 	%r4, [%rd5];
	add.s32 	%r2, %r2, %r4;
	add.s32 	%r3, %r3, 1;
	setp.lt.u32 	%p2, %r3, %r1;
	@%p2 bra 	$L_loop;
$L_done:
	cvta.to.global.u64 	%rd6, %rd2;
	st.global.u32 	[%rd6], %r2;
	ret;
}
)";

TEST(KeptAnalyses, LoadedKernelKeepsEveryAnalysis) {
  auto m = load_ptx_text(kSum, "sum.ptx");
  const ir::Function& f = fn(*m, "sum");
  ASSERT_TRUE(f.analysis.done);
  ASSERT_NE(f.analysis.analyses, nullptr);
  const analysis::FunctionAnalyses& a = *f.analysis.analyses;
  EXPECT_EQ(f.analysis.phys_regs.size(), f.regs.size());
  EXPECT_EQ(a.liveness.num_insts(), f.insts.size());
  EXPECT_EQ(a.cfg.num_blocks(), f.blocks.size());
  // One loop, headed by the block that starts at $L_loop.
  ASSERT_EQ(a.loops.loops().size(), 1u);
  EXPECT_EQ(f.blocks[a.loops.loops()[0].header].first, f.labels.at("$L_loop"));
}

TEST(KeptAnalyses, AgreeWithAFreshAnalysis) {
  auto m = load_ptx_text(kSum, "sum.ptx");
  ir::Function& f = m->functions.at(m->function_index.at("sum"));
  const auto fresh = analysis::analyze_function(f);
  const analysis::FunctionAnalyses& kept = *f.analysis.analyses;
  EXPECT_NE(&kept, fresh.get());
  EXPECT_EQ(f.analysis.phys_regs, fresh->registers.phys);
  EXPECT_EQ(f.analysis.phys_regs32, fresh->registers.regs32);
  EXPECT_EQ(f.analysis.loop_headers, fresh->loops.headers());
  for (uint32_t i = 0; i < f.insts.size(); ++i) {
    EXPECT_TRUE(kept.liveness.live_in(i) == fresh->liveness.live_in(i)) << "live-in of instruction " << i;
    EXPECT_TRUE(kept.liveness.live_out(i) == fresh->liveness.live_out(i)) << "live-out of instruction " << i;
  }
}

// Registers live at the same point must not share a physical register:
// checked from the kept live sets and physical numbers alone.
TEST(KeptAnalyses, PhysicalNumbersAreAValidAssignment) {
  auto m = load_ptx_text(kSum, "sum.ptx");
  const ir::Function& f = fn(*m, "sum");
  const auto& phys = f.analysis.phys_regs;
  auto units = [&](uint32_t r) { return analysis::reg_units(f.regs[r]); };
  for (uint32_t r = 0; r < f.regs.size(); ++r) {
    if (phys[r] == ir::kNoPhysReg || phys[r] == ir::kConstantBank) continue;
    if (f.regs[r].type == ir::DataType::Pred) {
      EXPECT_LT(phys[r], f.analysis.pred_regs) << f.regs[r].name;
      continue;
    }
    EXPECT_EQ(phys[r] % units(r), 0u) << f.regs[r].name << " is not aligned";
    EXPECT_LE(phys[r] + units(r), f.analysis.phys_regs32) << f.regs[r].name;
  }
  const analysis::Liveness& live = f.analysis.analyses->liveness;
  size_t pairs_checked = 0;
  for (uint32_t i = 0; i < f.insts.size(); ++i) {
    const std::vector<uint32_t> in = live.live_in_regs(i);
    for (uint32_t x : in) {
      for (uint32_t y : in) {
        if (x >= y || phys[x] >= ir::kConstantBank || phys[y] >= ir::kConstantBank) continue;
        const bool px = f.regs[x].type == ir::DataType::Pred, py = f.regs[y].type == ir::DataType::Pred;
        if (px != py) continue;
        const uint32_t ux = px ? 1 : units(x), uy = py ? 1 : units(y);
        const bool overlap = phys[x] < phys[y] + uy && phys[y] < phys[x] + ux;
        EXPECT_FALSE(overlap) << f.regs[x].name << " and " << f.regs[y].name << " share a register at "
                              << f.insts[i].text;
        ++pairs_checked;
      }
    }
  }
  EXPECT_GT(pairs_checked, 10u);  // the loop keeps several values live at once
}

TEST(KeptAnalyses, OutliveTheModuleInACopyOfTheKernel) {
  std::unique_ptr<ir::Function> copy;
  std::vector<uint32_t> loop_live_in;
  {
    auto m = load_ptx_text(kSum, "sum.ptx");
    const ir::Function& f = fn(*m, "sum");
    loop_live_in = f.analysis.analyses->liveness.live_in_regs(f.labels.at("$L_loop"));
    copy = std::make_unique<ir::Function>(f);
  }
  const analysis::FunctionAnalyses& a = *copy->analysis.analyses;
  EXPECT_EQ(a.liveness.live_in_regs(copy->labels.at("$L_loop")), loop_live_in);
  for (uint32_t b = 0; b < a.cfg.num_blocks(); ++b) {
    EXPECT_EQ(a.cfg.first_inst(b), copy->blocks[b].first);
    EXPECT_EQ(a.cfg.end_inst(b), copy->blocks[b].last);
  }
  EXPECT_FALSE(loop_live_in.empty());
}

}  // namespace
}  // namespace simtlm::frontend
