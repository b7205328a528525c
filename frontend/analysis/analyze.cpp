// The analysis driver (see analyze.h).
#include "frontend/analysis/analyze.h"

#include "frontend/analysis/reconvergence.h"
#include "frontend/ptx/extensions.h"

namespace simtlm::frontend::analysis {

namespace {

// Instructions whose result can depend on registers of lanes other than the
// executing ones (inactive or never-written lanes included).
bool reads_other_lanes(const ir::Function& fn) {
  for (const ir::Instruction& inst : fn.insts) {
    switch (inst.op) {
      case ir::Opcode::Shfl:
      case ir::Opcode::Vote:
        return true;
      case ir::Opcode::Extension:  // device printf reads only its own lanes, relssp none
        if (inst.ext_id != ptx::ExtensionRegistry::kVprintf && inst.ext_id != ptx::ExtensionRegistry::kRelssp)
          return true;
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

FunctionAnalyses::FunctionAnalyses(const ir::Function& fn)
    : cfg(fn),
      dominators(compute_dominators(cfg)),
      post_dominators(compute_post_dominators(cfg)),
      loops(cfg, dominators),
      liveness(fn, cfg),
      registers(allocate_registers(fn, cfg, liveness)) {}

std::shared_ptr<const FunctionAnalyses> analyze_function(ir::Function& fn) {
  if (fn.blocks.empty() && !fn.insts.empty()) build_cfg(fn);
  return std::make_shared<const FunctionAnalyses>(fn);
}

void analyze_one(ir::Function& fn) {
  if (fn.insts.empty()) return;
  build_cfg(fn);
  auto kept = std::make_shared<const FunctionAnalyses>(fn);
  const FunctionAnalyses& a = *kept;
  set_reconvergence_points(fn, a.cfg, a.post_dominators);
  fn.analysis.loop_headers = a.loops.headers();
  fn.analysis.regs_per_thread = a.registers.regs_per_thread();
  fn.analysis.allocator_regs_per_thread = fn.analysis.regs_per_thread;
  fn.analysis.pred_regs = a.registers.preds;
  fn.analysis.max_live_regs32 = a.registers.max_live_regs32;
  fn.analysis.zero_all_registers = reads_other_lanes(fn);
  fn.analysis.registers_to_zero = a.liveness.live_at_entry().to_vector();
  fn.analysis.phys_regs = a.registers.phys;
  fn.analysis.phys_regs32 = a.registers.regs32;
  fn.analysis.register_numbers.clear();  // numbered for the allocation it replaces
  fn.analysis.analyses = std::move(kept);
  fn.analysis.done = true;
}

void analyze(ir::Module& module) {
  for (ir::Function& fn : module.functions) analyze_one(fn);
}

}  // namespace simtlm::frontend::analysis
