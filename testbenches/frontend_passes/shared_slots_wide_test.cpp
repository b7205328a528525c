// 64-bit values in shared spill slots (frontend/passes/shared_slots.h,
// docs/unified-allocation.md "Decisions"): a spilled 64-bit value takes two
// 4-byte rows of the per-thread layout, read with two ld.shared.b32 and
// joined with mov.b64 d, {lo, hi} (written the other way round), when the
// shared slots per thread (N_smem) leave two free; with one it stays in
// local memory. The layout is read back from the rewritten IR.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/shared_slots.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/unified_alloc.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend {
namespace {

constexpr uint32_t kThreads = 256, kRegisters = 14;

const ir::Function& only_kernel(const ir::Module& m) {
  for (const ir::Function& f : m.functions)
    if (f.is_entry) return f;
  throw std::runtime_error("no kernel");
}

struct Wide {
  uint32_t pointer_setup = 0;
  std::set<int64_t> rows;               // shared spill offsets from the pointer
  uint32_t local_b64 = 0, local_other = 0;
  uint32_t packs = 0, unpacks = 0;      // mov.b64 of the halves
  std::set<std::pair<int64_t, int64_t>> halves;  // (lo row, hi row) of 64-bit accesses
};

// What the kernel does with spill slots, checking each 64-bit access's
// instruction pattern on the way.
Wide read_wide(const ir::Function& fn) {
  Wide w;
  const auto* marks = fn.annotations.find<uint8_t>(passes::kUnifiedAllocColumn);
  EXPECT_NE(marks, nullptr);
  auto shared_access = [&](uint32_t pc, bool load, uint32_t reg) -> int64_t {
    const ir::Instruction& i = fn.insts[pc];
    EXPECT_EQ(i.op, load ? ir::Opcode::Ld : ir::Opcode::St) << pc;
    EXPECT_EQ(i.space, ir::StateSpace::Shared) << pc;
    EXPECT_EQ(ir::type_size(i.type), 4u) << pc;
    EXPECT_EQ(i.ops[load ? 0 : 1].reg, reg) << pc << ": not the half the mov names";
    return i.ops[load ? 1 : 0].offset;
  };
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    const ir::Instruction& i = fn.insts[pc];
    const uint8_t m = (*marks)[pc];
    if (m == passes::kInsertedSpillSetup) ++w.pointer_setup;
    if (m == passes::kInsertedSpillPack) {
      EXPECT_EQ(i.op, ir::Opcode::Mov);
      EXPECT_EQ(ir::type_size(i.type), 8u);
      const bool pack = i.ops[1].kind == ir::OperandKind::Vector;
      const ir::Operand& v = i.ops[pack ? 1 : 0];
      EXPECT_EQ(v.kind, ir::OperandKind::Vector);
      if (v.elems.size() != 2) {
        ADD_FAILURE() << pc << ": " << v.elems.size() << " halves";
        continue;
      }
      const uint32_t lo = v.elems[0].reg, hi = v.elems[1].reg;
      EXPECT_NE(lo, hi);
      if (pack) {  // ld lo; ld hi; mov d, {lo, hi}
        EXPECT_GE(pc, 2u);
        w.halves.insert({shared_access(pc - 2, true, lo), shared_access(pc - 1, true, hi)});
        ++w.packs;
      } else {     // mov {lo, hi}, s; st lo; st hi
        EXPECT_LT(pc + 2, fn.insts.size());
        w.halves.insert({shared_access(pc + 1, false, lo), shared_access(pc + 2, false, hi)});
        ++w.unpacks;
      }
      continue;
    }
    if (m != passes::kInsertedSpillLoad && m != passes::kInsertedSpillStore) continue;
    const ir::Operand& a = i.ops[m == passes::kInsertedSpillLoad ? 1 : 0];
    if (i.space == ir::StateSpace::Local) {
      (ir::type_size(i.type) == 8 ? w.local_b64 : w.local_other) += 1;
    } else {
      w.rows.insert(a.offset);
    }
  }
  for (const auto& [lo, hi] : w.halves) EXPECT_NE(lo, hi) << "both halves in one slot";
  return w;
}

struct Allocated {
  std::unique_ptr<ir::Module> module;
  uint32_t n_smem = 0;
};

Allocated allocate(uint32_t dynamic) {
  PassOptions o("test");
  passes::set_shared_slot_options(o, kRegisters, passes::fermi_c2075());
  const PassPipeline p(PassRegistry::global(), o);
  auto loaded = load_ptx_text(test_data::ptx("kernels/wide_spill.ptx"), "wide_spill.ptx", p);
  LaunchShape shape;
  shape.block[0] = kThreads;
  shape.dynamic_shared_bytes = dynamic;
  Allocated r;
  passes::SharedSlotOptions so;
  so.registers = kRegisters;
  so.limits = passes::fermi_c2075();
  r.n_smem = passes::shared_slots_for(only_kernel(*loaded), shape, so);
  r.module = p.make_variant(*loaded, shape);
  return r;
}

// 256-thread CTAs at R = 14 on Fermi: 6 CTAs by threads (1536 resident), so
// a CTA may take 8192 bytes (128-byte units). Dynamic shared memory D below
// the slots leaves (8192 - D) / 1024 rows: D = 6500 -> 1, 5500 -> 2,
// 4400 -> 3, 0 -> 8. Both 64-bit values (the output address and the data
// word) are spilled and live at once (4 words).
TEST(SharedSlotsWide, A64BitValueTakesTwoRowsWhenNSmemLeavesTwo) {
  struct Case {
    uint32_t dynamic, n_smem, wide_in_shared;
  };
  for (const Case c : {Case{6500, 1, 0}, Case{5500, 2, 1}, Case{4400, 3, 1}, Case{0, 8, 2}}) {
    SCOPED_TRACE("dynamic " + std::to_string(c.dynamic));
    const Allocated r = allocate(c.dynamic);
    EXPECT_EQ(r.n_smem, c.n_smem);
    const ir::Function& fn = only_kernel(*r.module);
    const Wide w = read_wide(fn);
    EXPECT_LE(fn.analysis.regs_per_thread, kRegisters);
    EXPECT_EQ(w.local_other, 0u) << "only 64-bit values are spilled at this R";
    if (c.wide_in_shared == 0) {
      EXPECT_EQ(w.pointer_setup, 0u);  // nothing placed: no pointer
      EXPECT_TRUE(w.rows.empty());
      EXPECT_GT(w.local_b64, 0u);
      EXPECT_NE(fn.analysis.regs_source_detail.find("an 8-byte one needs two"), std::string::npos)
          << fn.analysis.regs_source_detail;
      continue;
    }
    EXPECT_GT(w.pointer_setup, 0u);
    EXPECT_EQ(w.rows.size(), 2 * c.wide_in_shared);   // two rows per value
    EXPECT_LE(w.rows.size(), c.n_smem);
    EXPECT_EQ(w.halves.size(), c.wide_in_shared);     // each value one (lo, hi) pair
    EXPECT_GT(w.packs, 0u);
    EXPECT_GT(w.unpacks, 0u);
    if (c.wide_in_shared < 2) EXPECT_GT(w.local_b64, 0u);  // the other value
    else EXPECT_EQ(w.local_b64, 0u);
    // Every (thread, row) word above the user's bytes, inside the CTA, and
    // its own: no bank conflict within a warp.
    const uint64_t total = fn.static_shared_bytes + c.dynamic;
    EXPECT_EQ(total, (c.dynamic + 3) / 4 * 4 + w.rows.size() * kThreads * 4);
    std::set<uint64_t> words;
    for (int64_t row : w.rows) {
      ASSERT_EQ(row % (4 * kThreads), 0);
      for (uint32_t tid = 0; tid < kThreads; ++tid) {
        const uint64_t addr = (c.dynamic + 3) / 4 * 4 + tid * 4 + static_cast<uint64_t>(row);
        EXPECT_GE(addr, c.dynamic);
        EXPECT_LE(addr + 4, total);
        EXPECT_TRUE(words.insert(addr).second) << addr;
      }
    }
  }
}

}  // namespace
}  // namespace simtlm::frontend
