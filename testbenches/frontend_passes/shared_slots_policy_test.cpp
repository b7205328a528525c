// When the unified allocation's shared slots pay for their pointer, and what
// happens when they do not (frontend/passes/shared_slots.h steps a-c;
// docs/unified-allocation.md "Shared-memory slots"): the slot pointer is
// reserved only when shared slots are used; when reserving it makes R
// infeasible, the kernel is allocated into all R registers with local slots;
// the pruning's priority by access frequency (seed note 001 §1.4).
#include <gtest/gtest.h>

#include <string>

#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/shared_slots.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/unified_alloc.h"
#include "simtlm/error.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend {
namespace {

using passes::OccupancyLimits;

const ir::Function& only_kernel(const ir::Module& m) {
  for (const ir::Function& f : m.functions)
    if (f.is_entry) return f;
  throw std::runtime_error("no kernel");
}

std::unique_ptr<ir::Module> shared_variant(const std::string& file, uint32_t registers, uint32_t threads,
                                           uint32_t dynamic, const OccupancyLimits& limits = passes::fermi_c2075(),
                                           passes::PrunePriority priority = passes::PrunePriority::LiveSets) {
  PassOptions o("test");
  passes::set_shared_slot_options(o, registers, limits, priority);
  const PassPipeline p(PassRegistry::global(), o);
  auto loaded = load_ptx_text(test_data::ptx(file), file, p);
  LaunchShape shape;
  shape.block[0] = threads;
  shape.dynamic_shared_bytes = dynamic;
  return p.make_variant(*loaded, shape);
}

std::unique_ptr<ir::Module> local_module(const std::string& file, uint32_t registers) {
  PassOptions o("test");
  o.enable(passes::kUnifiedAllocPass, true);
  o.set(passes::kUnifiedAllocPass, "registers", std::to_string(registers));
  return load_ptx_text(test_data::ptx(file), file, PassPipeline(PassRegistry::global(), o));
}

struct Counts {
  uint32_t shared = 0, local = 0, setup = 0;
};
Counts spill_counts(const ir::Function& fn) {
  Counts c;
  const auto* marks = fn.annotations.find<uint8_t>(passes::kUnifiedAllocColumn);
  if (marks == nullptr) return c;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    const uint8_t m = (*marks)[pc];
    if (m == passes::kInsertedSpillSetup) ++c.setup;
    if (m != passes::kInsertedSpillLoad && m != passes::kInsertedSpillStore) continue;
    (fn.insts[pc].space == ir::StateSpace::Shared ? c.shared : c.local) += 1;
  }
  return c;
}

// The values the allocation spills with `spill` at R on the plain kernel.
uint32_t spilled_values(const std::string& file, uint32_t registers, passes::SpillTarget spill) {
  auto m = load_ptx_text(test_data::ptx(file), file);
  passes::UnifiedAllocOptions u;
  u.registers = registers;
  u.spill = spill;
  for (uint32_t fi = 0; fi < m->functions.size(); ++fi)
    if (m->functions[fi].is_entry) return passes::unified_allocate_kernel(*m, fi, u).spilled;
  return 0;
}

TEST(SharedSlotPolicy, NoSharedSlotMeansNoPointerAndAllRRegistersForTheValues) {
  // The user's dynamic shared memory leaves no slot that keeps R's occupancy:
  // the kernel is exactly the spill = local one, no register kept for a pointer.
  const std::string file = "kernels/register_pressure_smem.ptx";
  for (uint32_t r : {14u, 12u, 10u}) {
    SCOPED_TRACE("R = " + std::to_string(r));
    auto shared = shared_variant(file, r, 256, 48 * 1024 - 1400);
    auto local = local_module(file, r);
    const ir::Function& s = only_kernel(*shared);
    const ir::Function& l = only_kernel(*local);
    EXPECT_EQ(spill_counts(s).setup, 0u);
    EXPECT_EQ(spill_counts(s).shared, 0u);
    EXPECT_EQ(ir::print_function(*shared, s), ir::print_function(*local, l));
    EXPECT_EQ(s.analysis.regs_per_thread, l.analysis.regs_per_thread);
    EXPECT_NE(s.analysis.regs_source_detail.find("no shared slot keeps the occupancy of R"), std::string::npos)
        << s.analysis.regs_source_detail;
    // Reserving the pointer would have cost values: the check above can fail.
    EXPECT_GT(spilled_values(file, r, passes::SpillTarget::Shared), spilled_values(file, r, passes::SpillTarget::Local));
  }
}

TEST(SharedSlotPolicy, SlotsInUseKeepThePointerCountedInR) {
  // With room for slots the pointer is set up, used, and counted in R.
  const std::string file = "kernels/register_pressure_smem.ptx";
  auto shared = shared_variant(file, 10, 256, 128);
  const ir::Function& s = only_kernel(*shared);
  const Counts c = spill_counts(s);
  EXPECT_GT(c.setup, 0u);
  EXPECT_GT(c.shared, 0u);
  EXPECT_LE(s.analysis.regs_per_thread, 10u);
}

TEST(SharedSlotPolicy, APointerThatMakesRInfeasibleFallsBackToLocalSlotsInAllR) {
  // A v4 store needs four values and a 64-bit address at once: at R = 10 the
  // kernel fits with local spills (6 colours) but not in R - 1 (5 colours).
  const std::string file = "kernels/vector_store_pressure.ptx";
  EXPECT_THROW(spilled_values(file, 10, passes::SpillTarget::Shared), Error);
  ASSERT_GT(spilled_values(file, 10, passes::SpillTarget::Local), 0u);
  auto shared = shared_variant(file, 10, 64, 0);
  auto local = local_module(file, 10);
  const ir::Function& s = only_kernel(*shared);
  EXPECT_EQ(spill_counts(s).setup, 0u);
  EXPECT_EQ(spill_counts(s).shared, 0u);
  EXPECT_EQ(ir::print_function(*shared, s), ir::print_function(*local, only_kernel(*local)));
  EXPECT_LE(s.analysis.regs_per_thread, 10u);
  EXPECT_EQ(s.analysis.regs_source, ir::RegisterCountSource::UnifiedAlloc);
  EXPECT_NE(s.analysis.regs_source_detail.find("R - 1 registers (one for the slot pointer) do not fit the kernel"),
            std::string::npos)
      << s.analysis.regs_source_detail;
  // Below what even local spills fit, the error names the key as with spill = local.
  try {
    shared_variant(file, 8, 64, 0);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("frontend.unified_alloc.registers = 8"), std::string::npos) << e.what();
  }
}

TEST(SharedSlotPolicy, PruningByAccessFrequencyPutsMoreAccessesInSharedSlots) {
  // Two slots per thread for more live spill slots (4096 bytes of shared
  // memory per CTA, as in SharedSlots.OnlyAsManySlots...): by access
  // frequency the slots accessed in the loop take them.
  OccupancyLimits tight = passes::fermi_c2075();
  tight.shared_bytes_per_sm = 4096 * 6;
  tight.max_shared_bytes_per_cta = tight.shared_bytes_per_sm;
  const std::string file = "kernels/register_pressure_smem.ptx";
  auto by_sets = shared_variant(file, 10, 256, 128, tight, passes::PrunePriority::LiveSets);
  auto by_accesses = shared_variant(file, 10, 256, 128, tight, passes::PrunePriority::Accesses);
  const Counts a = spill_counts(only_kernel(*by_sets));
  const Counts b = spill_counts(only_kernel(*by_accesses));
  EXPECT_GT(a.shared, 0u);
  EXPECT_GT(b.shared, a.shared);
  EXPECT_EQ(a.shared + a.local, b.shared + b.local);  // the same spill code, placed differently
}

}  // namespace
}  // namespace simtlm::frontend
