#include "runtime/register_counts.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::runtime {

namespace {

// The count and its source before the limit is applied.
void choose_source(const std::string& file, ir::Function& fn, bool want_ptxas, const RegisterCountLookup& known) {
  ir::FunctionAnalysis& a = fn.analysis;
  // The pass unified_alloc rewrote the kernel for its budget: its count is
  // the one the spill code makes true (docs/unified-allocation.md).
  if (a.regs_source == ir::RegisterCountSource::UnifiedAlloc) return;
  a.regs_per_thread = a.allocator_regs_per_thread;
  a.regs_source = ir::RegisterCountSource::Allocator;
  a.regs_source_detail = "gpu.sm.register_count_source = allocator";
  if (!want_ptxas) return;
  const std::optional<KnownRegisterCount> count = known ? known(file, fn.name) : std::nullopt;
  if (!count || count->registers == 0) {
    a.regs_source = ir::RegisterCountSource::AllocatorFallback;
    a.regs_source_detail = count && !count->detail.empty()
                               ? count->detail
                               : "no ptxas count known for '" + fn.name + "' of " + file;
    return;
  }
  a.regs_source = count->from_launch_spec ? ir::RegisterCountSource::LaunchSpec : ir::RegisterCountSource::Ptxas;
  a.regs_source_detail = count->detail;
  a.regs_per_thread = count->registers;
}

}  // namespace

void choose_register_counts(ir::Module& module, const Config& config, const RegisterCountLookup& known) {
  const bool want_ptxas = config.str("gpu.sm.register_count_source") == "ptxas";
  const uint32_t limit = config.u32("gpu.sm.max_registers_per_thread");
  const bool cap = config.str("gpu.sm.register_limit_policy") == "cap";
  for (ir::Function& fn : module.functions) {
    if (!fn.is_entry || !fn.analysis.done) continue;
    choose_source(module.file, fn, want_ptxas, known);
    ir::FunctionAnalysis& a = fn.analysis;
    // Whatever the source, a count above the limit is capped here or refused
    // at launch (check_register_limit), never admitted as it is.
    if (a.regs_per_thread <= limit || !cap) continue;
    a.regs_source_detail += "; " + std::to_string(a.regs_per_thread) +
                            " capped at gpu.sm.max_registers_per_thread = " + std::to_string(limit);
    a.regs_per_thread = limit;
  }
}

void check_register_limit(const ir::Function& kernel, const Config& config) {
  const uint32_t limit = config.u32("gpu.sm.max_registers_per_thread");
  const ir::FunctionAnalysis& a = kernel.analysis;
  if (!a.done || a.regs_per_thread <= limit) return;
  throw Error(ErrorKind::Launch,
              "kernel '" + kernel.name + "' uses " + std::to_string(a.regs_per_thread) +
                  " registers per thread (" + a.regs_source_detail + "), more than gpu.sm.max_registers_per_thread = " +
                  std::to_string(limit) + " (gpu.sm.register_limit_policy = reject; 'cap' admits it at the limit)");
}

}  // namespace simtlm::runtime
