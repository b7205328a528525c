#include "runtime/register_counts.h"

#include <algorithm>

namespace simtlm::runtime {

void choose_register_counts(ir::Module& module, const Config& config, const RegisterCountLookup& known) {
  const bool want_ptxas = config.str("gpu.sm.register_count_source") == "ptxas";
  const uint32_t limit = config.u32("gpu.sm.max_registers_per_thread");
  for (ir::Function& fn : module.functions) {
    if (!fn.is_entry || !fn.analysis.done) continue;
    ir::FunctionAnalysis& a = fn.analysis;
    a.regs_per_thread = a.allocator_regs_per_thread;
    a.regs_source = ir::RegisterCountSource::Allocator;
    a.regs_source_detail = "gpu.sm.register_count_source = allocator";
    if (!want_ptxas) continue;
    const std::optional<KnownRegisterCount> count = known ? known(module.file, fn.name) : std::nullopt;
    if (!count || count->registers == 0) {
      a.regs_source = ir::RegisterCountSource::AllocatorFallback;
      a.regs_source_detail = count && !count->detail.empty()
                                 ? count->detail
                                 : "no ptxas count known for '" + fn.name + "' of " + module.file;
      continue;
    }
    a.regs_source = count->from_launch_spec ? ir::RegisterCountSource::LaunchSpec : ir::RegisterCountSource::Ptxas;
    a.regs_source_detail = count->detail;
    a.regs_per_thread = std::min(count->registers, limit);
    if (count->registers > limit) {
      a.regs_source_detail += "; " + std::to_string(count->registers) +
                              " capped at gpu.sm.max_registers_per_thread = " + std::to_string(limit);
    }
  }
}

}  // namespace simtlm::runtime
