// Unrolling and reordering of register declarations (Jatala §2.3.2, Fig. 2.10;
// seed note 000 §2.6): the order of first use in the static text, and the
// register numbers register sharing then uses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/reorder_registers.h"

namespace simtlm::frontend {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// Fig. 2.10's declarations (sgemm, PTXPlus). The figure gives only the first
// instruction, `set.le.s32.s32 $p0/$o127, s[0x003c], $r124;`, and the first
// eight registers of the rewritten declaration list; the PTX below names its
// registers in the same order ($p0, $o127, $r124 in the first instruction,
// then $r16, $r17, $r9, $r18, $r10), which is all the pass reads.
const char* const kFig210 = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry mysgemmNT()
{
  .reg .u32 $r<27>;
  .reg .u32 $ofs<3>;
  .reg .pred $p<4>;
  .reg .u32 $r124;
  .reg .u32 $o127;
  setp.le.s32 $p0, $o127, $r124;
  mov.u32 $r16, 0;
  add.u32 $r17, $r16, $r9;
  mad.lo.u32 $r18, $r10, $r17, $r16;
  ret;
}
)PTX";

std::vector<std::string> names_in(const ir::Function& fn, const std::vector<uint32_t>& order) {
  std::vector<std::string> out;
  for (uint32_t r : order) out.push_back(fn.regs.at(r).name);
  return out;
}

uint32_t reg(const ir::Function& fn, const std::string& name) {
  for (uint32_t r = 0; r < fn.regs.size(); ++r)
    if (fn.regs[r].name == name) return r;
  ADD_FAILURE() << "no register " << name;
  return 0;
}

TEST(ReorderRegisters, Figure210FirstUseOrderThenTheUnusedInDeclarationOrder) {
  auto m = load_ptx_text(kFig210, "fig210.ptx");
  const ir::Function& fn = m->functions.at(0);
  std::vector<std::string> expected = {"$p0", "$o127", "$r124", "$r16", "$r17", "$r9", "$r18", "$r10"};
  for (int i = 0; i < 27; ++i)
    if (i != 9 && i != 10 && i != 16 && i != 17 && i != 18) expected.push_back("$r" + std::to_string(i));
  for (const char* n : {"$ofs0", "$ofs1", "$ofs2", "$p1", "$p2", "$p3"}) expected.push_back(n);
  EXPECT_THAT(names_in(fn, passes::first_use_order(fn)), ElementsAreArray(expected));
}

// The numbering of physical registers, with the allocation set by hand to
// the thesis's declaration order (predicates have no register-file number):
// $r0..$r26 = 0..26, $ofs0..2 = 27..29, $r124 = 30, $o127 = 31. In the
// thesis $r124 goes from number 35 to 3 (1-based, predicates counted); here
// from 31 to 2 (1-based, predicates not counted).
TEST(ReorderRegisters, PhysicalRegistersAreNumberedByFirstUse) {
  auto m = load_ptx_text(kFig210, "fig210.ptx");
  ir::Function& fn = m->functions.at(0);
  ir::FunctionAnalysis& a = fn.analysis;
  for (int i = 0; i < 27; ++i) a.phys_regs[reg(fn, "$r" + std::to_string(i))] = i;
  for (int i = 0; i < 3; ++i) a.phys_regs[reg(fn, "$ofs" + std::to_string(i))] = 27 + i;
  for (int i = 0; i < 4; ++i) a.phys_regs[reg(fn, "$p" + std::to_string(i))] = i;
  a.phys_regs[reg(fn, "$r124")] = 30;
  a.phys_regs[reg(fn, "$o127")] = 31;
  a.phys_regs32 = 32;
  const std::vector<uint32_t> n = passes::register_numbers_by_first_use(fn);
  ASSERT_EQ(n.size(), 32u);
  EXPECT_EQ(n[31], 0u);  // $o127
  EXPECT_EQ(n[30], 1u);  // $r124
  EXPECT_EQ(n[16], 2u);
  EXPECT_EQ(n[17], 3u);
  EXPECT_EQ(n[9], 4u);
  EXPECT_EQ(n[18], 5u);
  EXPECT_EQ(n[10], 6u);
  // Then the registers no instruction names, in physical order.
  EXPECT_EQ(n[0], 7u);
  EXPECT_EQ(n[8], 15u);
  EXPECT_EQ(n[11], 16u);
  EXPECT_EQ(n[19], 21u);
  EXPECT_EQ(n[29], 31u);
}

// A 64-bit register's two halves are numbered together, in order, when the
// register is first met; a physical register shared by two virtual
// registers keeps the number of its first use.
TEST(ReorderRegisters, PairsStayTogetherAndSharedPhysicalRegistersKeepTheirFirstNumber) {
  auto m = load_ptx_text(R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, 7;
  mov.b64 %rd1, 9;
  add.u32 %r2, %r1, 1;
  mov.u32 %r3, %r2;
  ret;
}
)PTX",
                        "pairs.ptx");
  ir::Function& fn = m->functions.at(0);
  ir::FunctionAnalysis& a = fn.analysis;
  a.phys_regs[reg(fn, "%r1")] = 5;
  a.phys_regs[reg(fn, "%rd1")] = 2;  // units 2 and 3
  a.phys_regs[reg(fn, "%r2")] = 0;
  a.phys_regs[reg(fn, "%r3")] = 5;   // reuses %r1's register
  a.phys_regs[reg(fn, "%r0")] = ir::kNoPhysReg;
  a.phys_regs[reg(fn, "%rd0")] = ir::kNoPhysReg;
  a.phys_regs32 = 6;
  EXPECT_THAT(passes::register_numbers_by_first_use(fn), ElementsAre(3, 4, 1, 2, 5, 0));
}

TEST(ReorderRegisters, OffByDefaultAndRunsAfterAnalysisWhenEnabled) {
  EXPECT_THAT(PassPipeline::standard().load_pass_names(), ElementsAre("inline_calls", "layout_memory", "analyze"));
  EXPECT_TRUE(load_ptx_text(kFig210, "fig210.ptx")->functions.at(0).analysis.register_numbers.empty());

  PassOptions on;
  on.enable(passes::kReorderRegistersPass, true);
  const PassPipeline pipeline(PassRegistry::global(), on);
  EXPECT_THAT(pipeline.load_pass_names(),
              ElementsAre("inline_calls", "layout_memory", "analyze", passes::kReorderRegistersPass));
  auto m = load_ptx_text(kFig210, "fig210.ptx", pipeline);
  const ir::Function& fn = m->functions.at(0);
  EXPECT_EQ(fn.analysis.register_numbers, passes::register_numbers_by_first_use(fn));
  EXPECT_EQ(fn.analysis.register_numbers.size(), fn.analysis.phys_regs32);
  // A permutation of the physical registers.
  std::vector<uint32_t> sorted = fn.analysis.register_numbers;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
}

}  // namespace
}  // namespace simtlm::frontend
