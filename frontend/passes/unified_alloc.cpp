// The unified_alloc pass (see unified_alloc.h).
#include "frontend/passes/unified_alloc.h"

#include <algorithm>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/budget_alloc.h"
#include "frontend/analysis/reg_access.h"
#include "frontend/passes/layout_memory.h"
#include "frontend/passes/occupancy_search.h"
#include "frontend/passes/shared_slots.h"
#include "frontend/passes/slot_colouring.h"
#include "frontend/passes/spill_code.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

const char* spill_target_name(SpillTarget t) {
  switch (t) {
    case SpillTarget::Local: return "local";
    case SpillTarget::Shared: return "shared";
  }
  return "?";
}

bool parse_spill_target(const std::string& text, SpillTarget& out) {
  if (text == "local") {
    out = SpillTarget::Local;
    return true;
  }
  if (text == "shared") {
    out = SpillTarget::Shared;
    return true;
  }
  return false;
}

std::string KernelAllocation::summary() const {
  std::string s = "kernel " + kernel + ": " + std::to_string(demand) + " -> " + std::to_string(registers) +
                  " registers";
  if (spilled == 0) return s + ", nothing spilled";
  return s + ", " + std::to_string(spilled) + " values spilled to local memory (" + std::to_string(spill_bytes) +
         " bytes per thread; " + std::to_string(loads) + " loads, " + std::to_string(stores) + " stores)";
}

namespace {

uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

// The live sets of the spilled values at every instruction of the original
// kernel (after it, plus what it writes: a value written while another is
// live must not take its slot), as indices into `spilled`.
std::vector<std::vector<uint32_t>> spilled_live_sets(const ir::Function& fn, const std::vector<uint32_t>& spilled) {
  const auto& a = *fn.analysis.analyses;
  std::vector<int32_t> index(fn.regs.size(), -1);
  for (size_t k = 0; k < spilled.size(); ++k) index[spilled[k]] = static_cast<int32_t>(k);
  std::vector<std::vector<uint32_t>> sets;
  analysis::RegAccess acc;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    std::vector<uint32_t> set;
    a.liveness.live_out(pc).for_each([&](size_t r) {
      if (index[r] >= 0) set.push_back(static_cast<uint32_t>(index[r]));
    });
    analysis::collect_reg_access(fn.insts[pc], acc);
    for (uint32_t d : acc.defs)
      if (index[d] >= 0 && std::find(set.begin(), set.end(), static_cast<uint32_t>(index[d])) == set.end())
        set.push_back(static_cast<uint32_t>(index[d]));
    if (set.size() > 1) sets.push_back(std::move(set));
  }
  return sets;
}

// Local-memory slots (`var` the slot array; kNoVar while choosing, when the
// address has no base, which the colouring cannot tell apart): values of
// one size that never live at the same time share a slot (slot_colouring.h,
// unbounded); slots of 8 bytes first, then 4, then 2, each aligned.
constexpr uint32_t kNoVar = 0xFFFFFFFFu;

std::vector<SpilledRegister> local_slots(const ir::Function& fn, const std::vector<uint32_t>& spilled, uint32_t var,
                                         uint64_t* bytes) {
  std::vector<SpilledRegister> out(spilled.size());
  std::vector<int64_t> offset(spilled.size(), 0);
  if (var == kNoVar) {
    for (size_t k = 0; k < spilled.size(); ++k) offset[k] = static_cast<int64_t>(8 * k);
  } else {
    const SlotGraph g = SlotGraph::from_live_sets(static_cast<uint32_t>(spilled.size()), spilled_live_sets(fn, spilled));
    uint64_t end = 0;
    for (uint32_t size : {8u, 4u, 2u}) {
      std::vector<uint32_t> nodes;
      for (uint32_t k = 0; k < spilled.size(); ++k)
        if (spill_bytes(fn.regs[spilled[k]]) == size) nodes.push_back(k);
      const SlotColouring c = colour_slots(g, nodes, 0xFFFFFFFFu);
      end = align_up(end, size);
      for (uint32_t k : nodes) offset[k] = static_cast<int64_t>(end + uint64_t(c.slot[k]) * size);
      end += uint64_t(c.slots_used) * size;
    }
    if (bytes) *bytes = end;
  }
  for (size_t k = 0; k < spilled.size(); ++k) {
    SpilledRegister& s = out[k];
    s.reg = spilled[k];
    s.space = ir::StateSpace::Local;
    s.address.kind = ir::OperandKind::Address;
    s.address.base = var == kNoVar ? ir::OperandKind::None : ir::OperandKind::Symbol;
    s.address.var = var == kNoVar ? 0 : var;
    s.address.offset = offset[k];
  }
  return out;
}

KernelAllocation allocate_kernel(ir::Module& module, uint32_t fi, const UnifiedAllocOptions& options) {
  ir::Function& fn = module.functions[fi];
  KernelAllocation k;
  k.kernel = fn.name;
  k.demand = fn.analysis.allocator_regs_per_thread;
  k.registers = k.demand;
  // Another pass's per-instruction annotation would no longer match the
  // rewritten kernel (frontend.passes can enable power_states by hand).
  if (!fn.annotations.empty())
    throw Error(ErrorKind::Config, options.where + ": kernel '" + fn.name + "' was annotated by another pass (" +
                                       fn.annotations.names().front() +
                                       ") before the unified allocation rewrites it: combining them is not built");
  if (fn.analysis.phys_regs32 <= colour_budget(options.registers)) return k;
  // spill = shared: one register of R is the shared-slot pointer the
  // launch-shape stage adds (shared_slots.h), so the values get one less.
  const uint32_t budget = colour_budget(options.registers, options.spill == SpillTarget::Shared ? 1 : 0);
  const SpillRewrite trial = [&](ir::Function& copy, const std::vector<uint32_t>& spilled) {
    insert_spill_code(copy, local_slots(copy, spilled, kNoVar, nullptr));
  };
  const BudgetChoice choice = choose_spills(fn, budget, trial, options.where);
  k.iterations = choice.iterations;
  k.spilled = static_cast<uint32_t>(choice.spilled.size());

  // The slot array is declared before its size is known (the slots are
  // coloured on the original kernel's liveness, which the rewrite replaces).
  const uint32_t var = static_cast<uint32_t>(module.vars.size());
  uint64_t bytes = 0;
  std::vector<SpilledRegister> placed = local_slots(fn, choice.spilled, var, &bytes);
  ir::Variable slots;
  slots.name = kUnifiedAllocLocalName;
  slots.space = ir::StateSpace::Local;
  slots.type = ir::DataType::B8;
  slots.align = 8;
  slots.size = bytes;
  slots.loc = fn.loc;
  module.vars.push_back(slots);
  fn.locals.push_back(var);
  k.spill_bytes = static_cast<uint32_t>(bytes);

  std::vector<uint8_t> marks;
  const SpillCodeCounts counts = insert_spill_code(fn, placed, {}, &marks);
  k.loads = counts.loads;
  k.stores = counts.stores;
  fn.annotations.attach(kUnifiedAllocColumn, std::move(marks), fn.insts.size());
  layout_function(module, fn);  // the slot array joins the local frame
  return k;
}

}  // namespace

std::vector<KernelAllocation> unified_allocate(ir::Module& module, const UnifiedAllocOptions& options) {
  if (colour_budget(options.registers, options.spill == SpillTarget::Shared ? 1 : 0) == 0)
    throw Error(ErrorKind::Config, options.where + ": " + std::to_string(options.registers) +
                                       " registers leave none for values (our count adds " +
                                       std::to_string(analysis::kReservedRegs) + " reserved registers)");
  std::vector<KernelAllocation> out;
  std::vector<uint32_t> kernels;
  for (uint32_t fi = 0; fi < module.functions.size(); ++fi) {
    const ir::Function& fn = module.functions[fi];
    if (!fn.is_entry || fn.insts.empty() || !fn.rejected.empty() || !fn.analysis.done) continue;
    kernels.push_back(fi);
    out.push_back(allocate_kernel(module, fi, options));
  }
  const bool changed = std::any_of(out.begin(), out.end(), [](const KernelAllocation& k) { return k.spilled != 0; });
  if (changed) analysis::analyze(module);
  for (size_t i = 0; i < kernels.size(); ++i) {
    ir::FunctionAnalysis& a = module.functions[kernels[i]].analysis;
    KernelAllocation& k = out[i];
    k.registers = a.allocator_regs_per_thread;
    if (k.registers > options.registers)
      throw Error(ErrorKind::Internal, "unified_alloc: kernel '" + k.kernel + "' needs " +
                                           std::to_string(k.registers) + " registers after spilling, above " +
                                           std::to_string(options.registers));
    a.regs_per_thread = k.registers;
    a.regs_source = ir::RegisterCountSource::UnifiedAlloc;
    a.regs_source_detail = options.where + ": " + k.summary();
  }
  return out;
}

KernelAllocation unified_allocate_kernel(ir::Module& module, uint32_t fi, const UnifiedAllocOptions& options) {
  if (colour_budget(options.registers, options.spill == SpillTarget::Shared ? 1 : 0) == 0)
    throw Error(ErrorKind::Config, options.where + ": " + std::to_string(options.registers) +
                                       " registers leave none for values");
  KernelAllocation k = allocate_kernel(module, fi, options);
  ir::Function& fn = module.functions[fi];
  if (k.spilled != 0) analysis::analyze_one(fn);
  ir::FunctionAnalysis& a = fn.analysis;
  k.registers = a.allocator_regs_per_thread;
  if (k.registers > options.registers)
    throw Error(ErrorKind::Internal, "unified_alloc: kernel '" + k.kernel + "' needs " + std::to_string(k.registers) +
                                         " registers after spilling, above " + std::to_string(options.registers));
  a.regs_per_thread = k.registers;
  a.regs_source = ir::RegisterCountSource::UnifiedAlloc;
  a.regs_source_detail = options.where + ": " + k.summary();
  return k;
}

void add_unified_alloc_pass(PassRegistry& registry) {
  PassInfo p;
  p.name = kUnifiedAllocPass;
  p.description = "registers per thread at most R; the rest spilled with real spill code (Hayes & Zhang; registers=R)";
  p.after = {"analyze"};
  p.option_keys = {"registers", "spill"};
  p.enabled_by_default = false;
  p.run = [](PassContext& c) {
    UnifiedAllocOptions o;
    if (!c.params.has("registers"))
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc' needs the option 'registers' (the budget R)");
    const uint64_t r = c.params.u64("registers", 0);
    if (r > 255) throw Error(ErrorKind::Config, "front-end pass 'unified_alloc': registers = " + std::to_string(r) +
                                                    " is above 255");
    o.registers = static_cast<uint32_t>(r);
    const std::string spill = c.params.text("spill", "local");
    if (!parse_spill_target(spill, o.spill))
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc': spill '" + spill + "' is not local or shared");
    // With shared slots the allocation is per block shape (whether the slot
    // pointer is worth a register depends on it): the stage does it all.
    if (o.spill == SpillTarget::Shared)
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc': spill = shared is allocated per block shape by "
                                     "the pass 'unified_alloc_shared' (set by frontend.unified_alloc.spill = shared)");
    o.where = "frontend.unified_alloc.registers = " + std::to_string(r);
    unified_allocate(c.module, o);
  };
  registry.add(std::move(p));
  add_unified_shared_pass(registry);
  add_unified_auto_pass(registry);
}

}  // namespace simtlm::frontend::passes
