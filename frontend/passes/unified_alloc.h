// The front-end pass `unified_alloc` (Hayes & Zhang, seed note 001; docs/
// unified-allocation.md): every kernel gets at most R registers per thread;
// the values that do not fit are spilled to per-thread memory with real
// spill code (spill_code.h), chosen by the budget allocator
// (budget_alloc.h), so that both backends execute the loads and stores and
// CTA admission uses the register count of the rewritten kernel.
//
// Options (the runtime sets them from frontend.unified_alloc.*):
//   registers=R   the budget, in the units of FunctionAnalysis::regs_per_thread
//                 (our allocator's ptxas-like count: colours + 4, even)
//   spill=local   where spilled values go: the thread's local memory, one
//                 slot per value in a function-scope `.local` array
//                 `__unialloc_local` (cached in the L1D like any local
//                 access).
//   spill=shared  rejected here: the launch-shape pass unified_alloc_shared
//                 (shared_slots.h) allocates per block shape, reserving one
//                 register of R for the shared-slot pointer only when slots
//                 are used. unified_allocate*() with SpillTarget::Shared
//                 allocate into R - 1 registers for it.
//
// Every kernel's count is then the allocator's count of its rewritten body
// (FunctionAnalysis::regs_source = UnifiedAlloc), not a ptxas count: the
// spill code we simulate is what makes it fit R.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kUnifiedAllocPass = "unified_alloc";
inline constexpr const char* kUnifiedAllocColumn = "unified_alloc.inserted";  // uint8_t marks (spill_code.h)
inline constexpr const char* kUnifiedAllocLocalName = "__unialloc_local";

enum class SpillTarget : uint8_t { Local, Shared };
const char* spill_target_name(SpillTarget t);
bool parse_spill_target(const std::string& text, SpillTarget& out);

struct UnifiedAllocOptions {
  uint32_t registers = 0;
  SpillTarget spill = SpillTarget::Local;
  std::string where = "unified_alloc";  // names the budget in errors
};

// What the pass did to one kernel.
struct KernelAllocation {
  std::string kernel;
  uint32_t demand = 0;          // regs_per_thread before (our allocator)
  uint32_t registers = 0;       // regs_per_thread after
  uint32_t spilled = 0;         // values moved to memory
  uint32_t spill_bytes = 0;     // per-thread bytes of their slots
  uint32_t loads = 0, stores = 0;  // spill instructions inserted (static)
  uint32_t iterations = 0;      // colourings the budget allocator ran
  std::string summary() const;  // one line, e.g. for `simtlm ptx --print`
};

// Applies the allocation to one analysed kernel of `module`, then analyses
// the module again and sets the kernels' register-count source. The result
// has one entry per kernel.
std::vector<KernelAllocation> unified_allocate(ir::Module& module, const UnifiedAllocOptions& options);

// The same for the kernel module.functions[fi] only (the occupancy search
// transforms one kernel at a time).
KernelAllocation unified_allocate_kernel(ir::Module& module, uint32_t fi, const UnifiedAllocOptions& options);

// Registers the pass, and its launch-shape stage unified_alloc_shared, in
// `registry` (off by default).
void add_unified_alloc_pass(PassRegistry& registry);

}  // namespace simtlm::frontend::passes
