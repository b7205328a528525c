// Shared-memory spill slots, the launch-shape stage of the unified
// allocation (frontend/passes/shared_slots.h; seed note 001 §1.2, §5.1, §6
// items 1, 2, 8, 9, 11). The layout is read back from the rewritten IR (the
// pointer's set-up and the accesses' offsets) and checked against the
// invariants: slots above every user byte, per-thread frames disjoint, a
// warp's accesses to one slot on 32 distinct banks, the occupancy of R kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/shared_slots.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/unified_alloc.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend {
namespace {

using passes::OccupancyLimits;

PassPipeline pipeline(uint32_t registers, const std::string& spill, const OccupancyLimits& limits,
                      passes::PrunePriority priority = passes::PrunePriority::LiveSets) {
  PassOptions o("test");
  if (spill == "shared") {
    passes::set_shared_slot_options(o, registers, limits, priority);
  } else {
    o.enable(passes::kUnifiedAllocPass, true);
    o.set(passes::kUnifiedAllocPass, "registers", std::to_string(registers));
    o.set(passes::kUnifiedAllocPass, "spill", spill);
  }
  return PassPipeline(PassRegistry::global(), o);
}

struct Variant {
  std::unique_ptr<ir::Module> loaded, module;
};

Variant variant(const std::string& file, uint32_t registers, uint32_t threads, uint32_t dynamic,
                const OccupancyLimits& limits = passes::fermi_c2075()) {
  const PassPipeline p = pipeline(registers, "shared", limits);
  Variant v;
  v.loaded = load_ptx_text(test_data::ptx(file), file, p);
  EXPECT_TRUE(p.needs_launch_shape());
  LaunchShape shape;
  shape.block[0] = threads;
  shape.dynamic_shared_bytes = dynamic;
  v.module = p.make_variant(*v.loaded, shape);
  return v;
}

const ir::Function& only_kernel(const ir::Module& m) {
  for (const ir::Function& f : m.functions)
    if (f.is_entry) return f;
  throw std::runtime_error("no kernel");
}

// What the rewritten kernel does with shared memory: the set-up's base (the
// immediate added to tid x 4) and the offsets of the spill accesses.
struct Layout {
  bool has_pointer = false;
  uint64_t base = 0;
  std::set<int64_t> offsets;  // of shared spill accesses, relative to the pointer
  uint32_t shared_loads = 0, shared_stores = 0, local_accesses = 0;
};

Layout read_layout(const ir::Module& m, const ir::Function& fn) {
  Layout l;
  const auto* marks = fn.annotations.find<uint8_t>(passes::kUnifiedAllocColumn);
  EXPECT_NE(marks, nullptr);
  uint32_t sp = ~0u;
  for (uint32_t r = 0; r < fn.regs.size(); ++r)
    if (fn.regs[r].name == passes::kSlotPointerName) sp = r;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    const ir::Instruction& i = fn.insts[pc];
    if ((*marks)[pc] == passes::kInsertedSpillSetup) {
      l.has_pointer = true;
      if (i.op == ir::Opcode::Mad && i.ops[0].reg == sp && i.ops[2].kind == ir::OperandKind::Imm && i.ops[2].imm == 4 &&
          i.ops[3].kind == ir::OperandKind::Imm)
        l.base = i.ops[3].imm;
      continue;
    }
    if ((*marks)[pc] != passes::kInsertedSpillLoad && (*marks)[pc] != passes::kInsertedSpillStore) {
      // User code never names the pointer.
      for (const ir::Operand& op : i.ops)
        EXPECT_FALSE((op.kind == ir::OperandKind::Reg || op.base == ir::OperandKind::Reg) && op.reg == sp) << pc;
      continue;
    }
    const bool load = (*marks)[pc] == passes::kInsertedSpillLoad;
    const ir::Operand& a = i.ops[load ? 1 : 0];
    if (i.space == ir::StateSpace::Local) {
      ++l.local_accesses;
      EXPECT_EQ(m.vars[a.var].name, passes::kUnifiedAllocLocalName);
      continue;
    }
    EXPECT_EQ(i.space, ir::StateSpace::Shared);
    EXPECT_EQ(a.base, ir::OperandKind::Reg);
    EXPECT_EQ(a.reg, sp);
    EXPECT_LE(ir::type_size(i.type), 4u);
    l.offsets.insert(a.offset);
    (load ? l.shared_loads : l.shared_stores) += 1;
  }
  return l;
}

TEST(SharedSlots, SpillsGoToSharedSlotsAboveTheUsersSharedMemoryWithoutBankConflicts) {
  const uint32_t threads = 32, dynamic = 130;
  auto plain = load_ptx_text(test_data::ptx("kernels/register_pressure_smem.ptx"), "smem.ptx");
  const ir::Function& orig = only_kernel(*plain);
  const uint64_t user = orig.static_shared_bytes + dynamic;  // every user byte is below this
  ASSERT_GE(orig.static_shared_bytes, 1026u);                // tile[256] + tile_pad[2] (+ padding to dyn)
  for (uint32_t r = 14; r >= 8; r -= 2) {
    SCOPED_TRACE("R = " + std::to_string(r));
    Variant v = variant("kernels/register_pressure_smem.ptx", r, threads, dynamic);
    const ir::Function& fn = only_kernel(*v.module);
    const Layout l = read_layout(*v.module, fn);
    ASSERT_TRUE(l.has_pointer);
    ASSERT_FALSE(l.offsets.empty());
    EXPECT_GT(l.shared_stores, 0u);
    EXPECT_GT(l.shared_loads, 0u);
    EXPECT_LE(fn.analysis.regs_per_thread, r);  // the pointer counted in R
    EXPECT_EQ(fn.analysis.regs_source, ir::RegisterCountSource::UnifiedAlloc);
    // §6 item 8: no user byte below the slots; the CTA's shared memory covers them.
    EXPECT_GE(l.base, user);
    EXPECT_EQ(l.base % 4, 0u);
    const uint64_t total = fn.static_shared_bytes + dynamic;
    std::set<uint64_t> words;
    for (int64_t off : l.offsets) {
      ASSERT_EQ(off % (4 * threads), 0) << "slot rows are threads x 4 bytes";
      std::set<uint32_t> banks;
      for (uint32_t tid = 0; tid < threads; ++tid) {
        const uint64_t addr = l.base + tid * 4 + static_cast<uint64_t>(off);
        EXPECT_GE(addr, user);
        EXPECT_LE(addr + 4, total);
        EXPECT_TRUE(words.insert(addr).second) << "two (thread, slot) pairs share the word at " << addr;  // §6 item 11
        banks.insert(static_cast<uint32_t>(addr / 4 % 32));
      }
      EXPECT_EQ(banks.size(), 32u) << "a warp's accesses to one slot conflict";
    }
    EXPECT_EQ(total, l.base + l.offsets.size() * threads * 4) << "the CTA grows by exactly its slots";
    // §6 item 9: the occupancy of R with the user's shared memory is kept.
    const OccupancyLimits lim = passes::fermi_c2075();
    EXPECT_GE(passes::active_threads(lim, threads, fn.analysis.regs_per_thread, static_cast<uint32_t>(total)),
              passes::active_threads(lim, threads, r, static_cast<uint32_t>(user)));
    // The user's variables (the dynamic part too) stay where the user's code finds them.
    ASSERT_GE(fn.var_offsets.size(), orig.var_offsets.size());
    for (size_t v = 0; v < orig.var_offsets.size(); ++v)
      if (v < plain->vars.size() && plain->vars[v].space == ir::StateSpace::Shared) {
        EXPECT_EQ(fn.var_offsets[v], orig.var_offsets[v]) << plain->vars[v].name;
      }
  }
}

TEST(SharedSlots, OnlyAsManySlotsAsKeepTheOccupancyTheRestStayLocal) {
  // 256-thread CTAs at R = 10 on Fermi: 6 CTAs by threads (1536), each may
  // take 8192 bytes, of which the user's 1156 (tile, pad, 128 dynamic)
  // leave 6 slots per thread. With 4096 bytes per CTA, 2 slots are left.
  OccupancyLimits small = passes::fermi_c2075();
  small.shared_bytes_per_sm = 4096 * 6;
  small.max_shared_bytes_per_cta = small.shared_bytes_per_sm;
  Variant roomy = variant("kernels/register_pressure_smem.ptx", 10, 256, 128);
  Variant tight = variant("kernels/register_pressure_smem.ptx", 10, 256, 128, small);
  const Layout a = read_layout(*roomy.module, only_kernel(*roomy.module));
  const Layout b = read_layout(*tight.module, only_kernel(*tight.module));
  EXPECT_GT(a.offsets.size(), b.offsets.size());
  EXPECT_LE(a.offsets.size(), 6u);
  EXPECT_LE(b.offsets.size(), 2u);
  EXPECT_GT(b.local_accesses, a.local_accesses);
  const ir::Function& fn = only_kernel(*tight.module);
  EXPECT_GE(passes::active_threads(small, 256, 10, static_cast<uint32_t>(fn.static_shared_bytes + 128)), 1536u);
  // No shared memory to spare: no pointer, the load stage's local slots stay.
  Variant none = variant("kernels/register_pressure_smem.ptx", 10, 256, 48 * 1024 - 1400);
  const Layout c = read_layout(*none.module, only_kernel(*none.module));
  EXPECT_FALSE(c.has_pointer);
  EXPECT_TRUE(c.offsets.empty());
  EXPECT_GT(c.local_accesses, 0u);
  EXPECT_EQ(only_kernel(*none.module).static_shared_bytes, only_kernel(*none.loaded).static_shared_bytes);
}

TEST(SharedSlots, ABudgetAtTheDemandAddsNoPointer) {
  auto plain = load_ptx_text(test_data::ptx("kernels/register_pressure.ptx"), "p.ptx");
  const uint32_t demand = only_kernel(*plain).analysis.regs_per_thread;
  Variant v = variant("kernels/register_pressure.ptx", demand, 64, 0);
  EXPECT_EQ(ir::print_function(*v.module, only_kernel(*v.module)), ir::print_function(*plain, only_kernel(*plain)));
}

TEST(SharedSlots, TwoDimensionalBlocksUseTheLinearThreadIndex) {
  // 16 x 4 threads: the pointer is base + (tid.x + 16 tid.y) x 4 and the rows are 64 x 4 bytes.
  const PassPipeline p = pipeline(10, "shared", passes::fermi_c2075());
  auto loaded = load_ptx_text(test_data::ptx("kernels/register_pressure.ptx"), "p.ptx", p);
  LaunchShape shape;
  shape.block[0] = 16;
  shape.block[1] = 4;
  auto m = p.make_variant(*loaded, shape);
  const ir::Function& fn = only_kernel(*m);
  const Layout l = read_layout(*m, fn);
  ASSERT_TRUE(l.has_pointer);
  for (int64_t off : l.offsets) EXPECT_EQ(off % (64 * 4), 0);
  const std::string text = ir::print_function(*m, fn);
  EXPECT_NE(text.find("%tid.y"), std::string::npos);
  EXPECT_NE(text.find("%tid.z"), std::string::npos);
}

TEST(SharedSlots, ThePrintedVariantReparsesToTheSameInstructions) {
  Variant v = variant("kernels/register_pressure_smem.ptx", 10, 32, 0);
  const std::string printed = ir::print_module(*v.module);
  auto again = load_ptx_text(printed, "again.ptx");
  const ir::Function& a = only_kernel(*v.module);
  const ir::Function& b = only_kernel(*again);
  ASSERT_EQ(a.insts.size(), b.insts.size());
  for (size_t pc = 0; pc < a.insts.size(); ++pc)
    EXPECT_EQ(ir::print_instruction(*v.module, a, a.insts[pc]), ir::print_instruction(*again, b, b.insts[pc])) << pc;
  EXPECT_EQ(a.analysis.allocator_regs_per_thread, b.analysis.allocator_regs_per_thread);
}

}  // namespace
}  // namespace simtlm::frontend
