// Register allocation with a budget and its spill code (frontend/passes/
// unified_alloc.h, budget_alloc.h, spill_code.h; seed note 001 §1.2, §6
// items 1, 2, 7, 13). The kernel testbenches/data/kernels/register_pressure.ptx
// keeps about twenty registers' worth of values live across a loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/reg_access.h"
#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/budget_alloc.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/unified_alloc.h"
#include "simtlm/error.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend {
namespace {

using passes::colour_budget;

std::unique_ptr<ir::Module> load(const std::string& text, uint32_t registers) {
  PassOptions o("test");
  if (registers) {
    o.enable(passes::kUnifiedAllocPass, true);
    o.set(passes::kUnifiedAllocPass, "registers", std::to_string(registers));
  }
  return load_ptx_text(text, "pressure.ptx", PassPipeline(PassRegistry::global(), o));
}

const ir::Function& kernel(const ir::Module& m) { return *m.find_kernel("pressure"); }

uint32_t count_ops(const ir::Function& fn, ir::Opcode op, ir::StateSpace space) {
  return static_cast<uint32_t>(std::count_if(fn.insts.begin(), fn.insts.end(), [&](const ir::Instruction& i) {
    return i.op == op && i.space == space;
  }));
}

// §6 item 2 for registers: at every instruction, the values live after it
// and the values it writes occupy disjoint physical registers (checked on the
// analysis the backends use, from the live sets, not from the colouring).
void expect_valid_allocation(const ir::Function& fn) {
  const auto& a = *fn.analysis.analyses;
  analysis::RegAccess acc;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    analysis::collect_reg_access(fn.insts[pc], acc);
    std::vector<uint32_t> regs = a.liveness.live_out(pc).to_vector();
    for (uint32_t d : acc.defs)
      if (std::find(regs.begin(), regs.end(), d) == regs.end()) regs.push_back(d);
    std::set<uint32_t> units;
    for (uint32_t r : regs) {
      const uint32_t p = a.registers.phys[r];
      if (fn.regs[r].type == ir::DataType::Pred || p == ir::kConstantBank || p == ir::kNoPhysReg) continue;
      for (uint32_t k = 0; k < analysis::reg_units(fn.regs[r]); ++k) {
        ASSERT_TRUE(units.insert(p + k).second)
            << fn.name << " pc " << pc << ": physical register " << p + k << " holds two live values";
        EXPECT_LT(p + k, a.registers.regs32);
      }
    }
  }
}

TEST(UnifiedAlloc, ColourBudgetLeavesTheReservedRegistersAndRoundsToEven) {
  EXPECT_EQ(colour_budget(20), 16u);
  EXPECT_EQ(colour_budget(21), 16u);  // 17 colours would count 22
  EXPECT_EQ(colour_budget(6), 2u);
  EXPECT_EQ(colour_budget(5), 0u);
  EXPECT_EQ(colour_budget(20, 1), 15u);
}

TEST(UnifiedAlloc, ABudgetAtTheDemandChangesNothing) {
  const std::string ptx = test_data::ptx("kernels/register_pressure.ptx");
  auto plain = load(ptx, 0);
  const uint32_t demand = kernel(*plain).analysis.regs_per_thread;
  ASSERT_GE(demand, 20u) << "the test kernel lost its register pressure";
  auto same = load(ptx, demand);
  EXPECT_EQ(ir::print_function(*same, kernel(*same)), ir::print_function(*plain, kernel(*plain)));
  EXPECT_EQ(kernel(*same).analysis.regs_per_thread, demand);
  EXPECT_EQ(kernel(*same).analysis.regs_source, ir::RegisterCountSource::UnifiedAlloc);
  EXPECT_EQ(kernel(*same).local_bytes, kernel(*plain).local_bytes);
}

TEST(UnifiedAlloc, EveryBudgetFromTheDemandDownFitsWithSpillCode) {
  const std::string ptx = test_data::ptx("kernels/register_pressure.ptx");
  auto plain = load(ptx, 0);
  const ir::Function& orig = kernel(*plain);
  const uint32_t demand = orig.analysis.regs_per_thread;
  for (uint32_t r = demand - 1; r >= 8; --r) {
    SCOPED_TRACE("R = " + std::to_string(r));
    auto m = load(ptx, r);
    const ir::Function& fn = kernel(*m);
    EXPECT_LE(fn.analysis.regs_per_thread, r);
    EXPECT_EQ(fn.analysis.regs_source, ir::RegisterCountSource::UnifiedAlloc);
    expect_valid_allocation(fn);
    const uint32_t stores = count_ops(fn, ir::Opcode::St, ir::StateSpace::Local);
    const uint32_t loads = count_ops(fn, ir::Opcode::Ld, ir::StateSpace::Local);
    EXPECT_GE(stores, 1u);
    EXPECT_GE(loads, 1u);
    // §6 item 13: the rewrite only adds instructions; the original ones remain.
    EXPECT_EQ(fn.insts.size(), orig.insts.size() + loads + stores);
    // The slot array is the whole local frame (the kernel had none).
    EXPECT_EQ(orig.local_bytes, 0u);
    EXPECT_GT(fn.local_bytes, 0u);
    EXPECT_LE(fn.local_bytes, 8u * 20u);
    // Every spill access goes to the slot array.
    for (const ir::Instruction& i : fn.insts) {
      if (i.space != ir::StateSpace::Local) continue;
      const ir::Operand& a = i.ops[i.op == ir::Opcode::Ld ? 1 : 0];
      ASSERT_EQ(a.base, ir::OperandKind::Symbol);
      EXPECT_EQ(m->vars[a.var].name, passes::kUnifiedAllocLocalName);
      EXPECT_LT(static_cast<uint64_t>(a.offset), m->vars[a.var].size);
    }
    // §6 item 7 (reserved registers): predicates stay in registers.
    for (uint32_t k = 0; k < orig.regs.size(); ++k)
      if (orig.regs[k].type == ir::DataType::Pred && orig.analysis.phys_regs[k] != ir::kNoPhysReg) {
        EXPECT_NE(fn.analysis.phys_regs[k], ir::kNoPhysReg) << orig.regs[k].name;
      }
  }
}

TEST(UnifiedAlloc, ThePrintedKernelReparsesToTheSameInstructionsAndCount) {
  const std::string ptx = test_data::ptx("kernels/register_pressure.ptx");
  auto m = load(ptx, 10);
  const std::string printed = ir::print_module(*m);
  auto again = load(printed, 0);  // the rewritten text, with no pass of its own
  const ir::Function& a = kernel(*m);
  const ir::Function& b = kernel(*again);
  ASSERT_EQ(a.insts.size(), b.insts.size());
  for (size_t pc = 0; pc < a.insts.size(); ++pc)
    EXPECT_EQ(ir::print_instruction(*m, a, a.insts[pc]), ir::print_instruction(*again, b, b.insts[pc])) << pc;
  EXPECT_EQ(a.local_bytes, b.local_bytes);
  EXPECT_EQ(a.analysis.allocator_regs_per_thread, b.analysis.allocator_regs_per_thread);
  EXPECT_LE(b.analysis.regs_per_thread, 10u);
}

TEST(UnifiedAlloc, ABudgetTooSmallForOneInstructionIsAnErrorNamingTheKey) {
  const std::string ptx = test_data::ptx("kernels/register_pressure.ptx");
  try {
    load(ptx, 6);  // 2 colours: an fma needs three sources and a destination
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("frontend.unified_alloc.registers = 6"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pressure"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load(ptx, 5), Error);  // no colour at all
}

// The spill code itself, on a chosen register: a guarded write keeps the old
// value in the lanes whose guard is false, so it is preceded by a load; a
// read-modify-write uses one temporary for both.
TEST(SpillCode, GuardedWritesLoadFirstAndEachAccessGetsAFreshTemporary) {
  const char* ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 3;
	@%p1 mov.u32 %r1, 7;
	add.u32 %r1, %r1, %r1;
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r1;
	ret;
}
)";
  auto m = load_ptx_text(ptx, "k.ptx");
  ir::Function& fn = m->functions.at(0);
  uint32_t r1 = 0;
  while (fn.regs[r1].name != "%r1") ++r1;
  const uint32_t regs_before = static_cast<uint32_t>(fn.regs.size());
  passes::SpilledRegister s;
  s.reg = r1;
  s.address.kind = ir::OperandKind::Address;
  s.address.offset = 12;
  const passes::SpillCodeCounts c = passes::insert_spill_code(fn, {s});
  // defs: mov (1), @p mov (2), add (3); uses: setp, @p mov (guard), add, st.
  EXPECT_EQ(c.stores, 3u);
  EXPECT_EQ(c.loads, 4u);  // setp, the guarded mov, add, st
  EXPECT_EQ(c.temporaries, 5u);
  EXPECT_EQ(fn.regs.size(), regs_before + 5);
  std::vector<std::string> text;
  for (const ir::Instruction& i : fn.insts) text.push_back(ir::print_instruction(*m, fn, i));
  const std::vector<std::string> expected = {
      "ld.param.u64 %rd1, [k_out]",
      "mov.u32 %ua_t9, %tid.x",
      "st.local.b32 [12], %ua_t9",
      "ld.local.b32 %ua_t10, [12]",
      "setp.eq.u32 %p1, %ua_t10, 3",
      "ld.local.b32 %ua_t11, [12]",
      "@%p1 mov.u32 %ua_t11, 7",
      "st.local.b32 [12], %ua_t11",
      "ld.local.b32 %ua_t12, [12]",
      "add.u32 %ua_t12, %ua_t12, %ua_t12",
      "st.local.b32 [12], %ua_t12",
      "cvta.to.global.u64 %rd2, %rd1",
      "ld.local.b32 %ua_t13, [12]",
      "st.global.u32 [%rd2], %ua_t13",
      "ret",
  };
  ASSERT_EQ(text.size(), expected.size()) << ir::print_function(*m, fn);
  for (size_t k = 0; k < text.size(); ++k) EXPECT_EQ(text[k], expected[k]);
}

TEST(SpillCode, PredicatesVectorsAndWideValuesStayInRegisters) {
  ir::Register r;
  r.type = ir::DataType::Pred;
  EXPECT_FALSE(passes::spillable_type(r));
  r.type = ir::DataType::B128;
  EXPECT_FALSE(passes::spillable_type(r));
  r.type = ir::DataType::F32;
  r.vec = 4;
  EXPECT_FALSE(passes::spillable_type(r));
  r.vec = 1;
  EXPECT_TRUE(passes::spillable_type(r));
  r.type = ir::DataType::U8;
  EXPECT_FALSE(passes::spillable_type(r));
  r.type = ir::DataType::F16;
  EXPECT_TRUE(passes::spillable_type(r));
  r.type = ir::DataType::S64;
  EXPECT_TRUE(passes::spillable_type(r));
}

}  // namespace
}  // namespace simtlm::frontend
