// Shared/local/param offsets of every function (see layout_memory.h).
#include "frontend/passes/layout_memory.h"

#include <algorithm>
#include <vector>

namespace simtlm::frontend::passes {

namespace {

uint64_t align_up(uint64_t x, uint64_t a) { return a <= 1 ? x : (x + a - 1) / a * a; }

void mark_refs(const ir::Operand& op, std::vector<char>& used) {
  if (op.kind == ir::OperandKind::Symbol ||
      (op.kind == ir::OperandKind::Address && op.base == ir::OperandKind::Symbol)) {
    if (op.var < used.size()) used[op.var] = 1;
  } else if (op.kind == ir::OperandKind::Vector) {
    for (const ir::Operand& e : op.elems) mark_refs(e, used);
  }
}

}  // namespace

uint64_t variable_alignment(const ir::Variable& v) {
  if (v.align) return v.align;
  return std::max<uint64_t>(1, ir::type_size(v.type));
}

void layout_function(const ir::Module& module, ir::Function& fn) {
  const size_t nv = module.vars.size();
  fn.var_offsets.assign(nv, kNoOffset);
  std::vector<char> used(nv, 0);
  for (const ir::Instruction& inst : fn.insts)
    for (const ir::Operand& op : inst.ops) mark_refs(op, used);

  uint64_t shared_end = 0, local_end = 0, extern_align = 0;
  bool has_extern = false;
  for (size_t v = 0; v < nv; ++v) {
    if (!used[v]) continue;
    const ir::Variable& var = module.vars[v];
    const uint64_t a = variable_alignment(var);
    if (var.space == ir::StateSpace::Shared) {
      if (var.is_extern) {
        has_extern = true;
        extern_align = std::max(extern_align, a);
        continue;
      }
      shared_end = align_up(shared_end, a);
      fn.var_offsets[v] = shared_end;
      shared_end += var.size;
    } else if (var.space == ir::StateSpace::Local) {
      local_end = align_up(local_end, a);
      fn.var_offsets[v] = local_end;
      local_end += var.size;
    }
  }
  if (has_extern) {
    shared_end = align_up(shared_end, extern_align);
    for (size_t v = 0; v < nv; ++v)
      if (used[v] && module.vars[v].space == ir::StateSpace::Shared && module.vars[v].is_extern)
        fn.var_offsets[v] = shared_end;
  }
  for (uint32_t v : fn.params)
    if (v < nv) fn.var_offsets[v] = module.vars[v].param_offset;
  for (uint32_t v : fn.returns)
    if (v < nv) fn.var_offsets[v] = module.vars[v].param_offset;
  fn.static_shared_bytes = shared_end;
  fn.local_bytes = local_end;
}

void layout_memory(ir::Module& module) {
  for (ir::Function& fn : module.functions) layout_function(module, fn);
}

}  // namespace simtlm::frontend::passes
