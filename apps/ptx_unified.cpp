#include "apps/ptx_unified.h"

#include <cstdio>
#include <ostream>

#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/shared_slots.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/static_metrics.h"
#include "frontend/passes/unified_alloc.h"
#include "runtime/launch_checks.h"

namespace simtlm::cli {

namespace {

std::string spill_comment(const ir::Function& f, uint32_t pc) {
  const auto* marks = f.annotations.find<uint8_t>(frontend::passes::kUnifiedAllocColumn);
  if (marks == nullptr) return "";
  switch ((*marks)[pc]) {
    case frontend::passes::kInsertedSpillLoad: return "unified_alloc: spill load";
    case frontend::passes::kInsertedSpillStore: return "unified_alloc: spill store";
    case frontend::passes::kInsertedSpillSetup: return "unified_alloc: slot pointer";
    case frontend::passes::kInsertedSpillPack: return "unified_alloc: 64-bit value halves";
    default: return "";
  }
}

}  // namespace

int print_unified_alloc(Io& io, const std::string& file, const std::string& kernel, uint32_t registers,
                        const std::string& spill, uint32_t threads, const frontend::passes::OccupancyLimits& limits,
                        frontend::passes::PrunePriority priority) {
  frontend::PassOptions options("--max-registers");
  if (spill == "shared") {
    frontend::passes::set_shared_slot_options(options, registers, limits, priority);
  } else {
    options.enable(frontend::passes::kUnifiedAllocPass, true);
    options.set(frontend::passes::kUnifiedAllocPass, "registers", std::to_string(registers));
    options.set(frontend::passes::kUnifiedAllocPass, "spill", spill);
  }
  const frontend::PassPipeline pipeline(frontend::PassRegistry::global(), options);
  auto module = frontend::load_ptx_file(file, pipeline);
  if (!kernel.empty()) runtime::find_kernel(*module, kernel);  // throws, listing the kernels
  if (pipeline.needs_launch_shape()) {
    frontend::LaunchShape shape;
    shape.block[0] = threads;
    module = pipeline.make_variant(*module, shape);
  }
  for (const ir::Function& f : module->functions) {
    if (!f.is_entry || !f.rejected.empty() || (!kernel.empty() && f.name != kernel)) continue;
    io.out << "// " << f.analysis.regs_source_detail << "\n";
    // The inputs of the seed's CI_pred for the rewritten kernel (Eq. 1).
    const frontend::passes::InstructionMix mix = frontend::passes::instruction_mix(f);
    const double ad = frontend::passes::average_dispatch_interval(f);
    char line[200];
    std::snprintf(line, sizeof line,
                  "// kernel %s: AD_int %.2f, COMPUTE_inst %u, MEM_inst %u, CI_pred (MAX_cmratio %.0f) %s\n",
                  f.name.c_str(), ad, mix.compute, mix.memory, frontend::passes::kMaxCmRatio,
                  frontend::passes::computation_interleaving(mix, ad) ? "true" : "false");
    io.out << line;
  }
  io.out << ir::print_module(*module, spill_comment);
  return kExitOk;
}

int print_occupancy_search(Io& io, const std::string& file, const std::string& kernel, uint32_t threads,
                           const frontend::passes::SearchOptions& search) {
  auto module = frontend::load_ptx_file(file);
  if (!kernel.empty()) runtime::find_kernel(*module, kernel);  // throws, listing the kernels
  frontend::LaunchShape shape;
  shape.block[0] = threads;
  for (uint32_t fi = 0; fi < module->functions.size(); ++fi) {
    const ir::Function& f = module->functions[fi];
    if (!f.is_entry || !f.rejected.empty() || (!kernel.empty() && f.name != kernel)) continue;
    io.out << frontend::passes::format_search(f.name, frontend::passes::search_kernel(*module, fi, shape, search),
                                              search);
  }
  return kExitOk;
}

}  // namespace simtlm::cli
