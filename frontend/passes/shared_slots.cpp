// Shared-memory spill slots, the launch-shape stage (see shared_slots.h).
#include "frontend/passes/shared_slots.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/budget_alloc.h"
#include "frontend/passes/slot_colouring.h"
#include "frontend/passes/spill_code.h"
#include "frontend/passes/unified_alloc.h"
#include "frontend/passes/rewrite.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

std::string SharedSlotPlacement::summary() const {
  std::string s = "shared slots for " + std::to_string(threads) + " threads per CTA: ";
  if (kept_local) return s + "the slot pointer does not fit the budget, spills stay in local memory";
  s += std::to_string(slots_per_thread) + " per thread keep " + std::to_string(target_threads) +
       " resident threads per SM; " + std::to_string(shared_values) + " of " + std::to_string(candidates) +
       " local slots (" + std::to_string(wide_values) + " of " + std::to_string(wide_candidates) +
       " 8-byte ones, two shared slots each; max-live " + std::to_string(max_live) + " words) in " +
       std::to_string(shared_slots) + " shared slots (" + std::to_string(bytes) + " bytes at " + std::to_string(base) +
       ", " + std::to_string(shared_accesses) + " accesses), " + std::to_string(local_slots) +
       " slots left in local memory";
  if (wide_dropped)
    s += wide_over_r ? " (8-byte slots kept local: their halves' registers push the colouring above R)"
                     : " (8-byte slots kept local: with them fewer weighted accesses move to shared memory)";
  return s;
}

namespace {

uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

// The spill accesses of a kernel rewritten by unified_alloc: pc, the local
// slot (its byte offset in __unialloc_local), load or store.
struct SlotAccess {
  uint32_t pc = 0;
  int64_t offset = 0;
  uint32_t bytes = 0;
  bool store = false;
};

std::vector<SlotAccess> slot_accesses(const ir::Module& module, const ir::Function& fn) {
  std::vector<SlotAccess> out;
  const auto* marks = fn.annotations.find<uint8_t>(kUnifiedAllocColumn);
  if (marks == nullptr) return out;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    const uint8_t m = (*marks)[pc];
    if (m != kInsertedSpillLoad && m != kInsertedSpillStore) continue;
    const ir::Instruction& inst = fn.insts[pc];
    const ir::Operand& addr = inst.ops[m == kInsertedSpillLoad ? 1 : 0];
    if (inst.space != ir::StateSpace::Local || addr.base != ir::OperandKind::Symbol ||
        module.vars[addr.var].name != kUnifiedAllocLocalName)
      throw Error(ErrorKind::Internal, "unified_alloc_shared: a spill access of '" + fn.name +
                                           "' is not in the local slot array");
    out.push_back({pc, addr.offset, static_cast<uint32_t>(ir::type_size(inst.type)), m == kInsertedSpillStore});
  }
  return out;
}

// The live sets of the candidate slots (ids 0..k-1) at every instruction:
// live after it plus what it stores (a slot stored while another is live
// must not take its place). A spill store kills its slot, a spill load uses
// it; the slot is live between them on every path.
std::vector<std::vector<uint32_t>> slot_live_sets(const ir::Function& fn, const std::vector<int32_t>& use,
                                                  const std::vector<int32_t>& def, uint32_t k) {
  const size_t nb = fn.blocks.size();
  std::vector<std::vector<char>> in(nb, std::vector<char>(k, 0)), out(nb, std::vector<char>(k, 0));
  auto transfer = [&](uint32_t b, std::vector<char> live) {
    for (uint32_t pc = fn.blocks[b].last; pc-- > fn.blocks[b].first;) {
      if (def[pc] >= 0) live[def[pc]] = 0;
      if (use[pc] >= 0) live[use[pc]] = 1;
    }
    return live;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      std::vector<char> o(k, 0);
      for (uint32_t s : fn.blocks[b].succs)
        for (uint32_t i = 0; i < k; ++i) o[i] |= in[s][i];
      std::vector<char> i = transfer(static_cast<uint32_t>(b), o);
      if (i != in[b] || o != out[b]) {
        in[b] = std::move(i);
        out[b] = std::move(o);
        changed = true;
      }
    }
  }
  std::vector<std::vector<uint32_t>> sets;
  for (size_t b = 0; b < nb; ++b) {
    std::vector<char> live = out[b];
    for (uint32_t pc = fn.blocks[b].last; pc-- > fn.blocks[b].first;) {
      std::vector<uint32_t> set;
      for (uint32_t i = 0; i < k; ++i)
        if (live[i] || def[pc] == static_cast<int32_t>(i)) set.push_back(i);
      if (!set.empty() && (sets.empty() || sets.back() != set)) sets.push_back(std::move(set));
      if (def[pc] >= 0) live[def[pc]] = 0;
      if (use[pc] >= 0) live[use[pc]] = 1;
    }
  }
  return sets;
}

ir::Operand reg_op(uint32_t r) {
  ir::Operand o;
  o.kind = ir::OperandKind::Reg;
  o.reg = r;
  return o;
}
ir::Operand imm_op(uint64_t v) {
  ir::Operand o;
  o.kind = ir::OperandKind::Imm;
  o.imm = v;
  return o;
}
ir::Operand tid_op(uint8_t component) {
  ir::Operand o;
  o.kind = ir::OperandKind::Special;
  o.sreg = ir::SpecialReg::Tid;
  o.component = component;
  return o;
}
ir::Instruction u32_inst(ir::Opcode op, std::vector<ir::Operand> ops, const ir::SourceLoc& loc) {
  ir::Instruction i;
  i.op = op;
  i.type = ir::DataType::U32;
  if (op == ir::Opcode::Mad) i.mul = ir::MulMode::Lo;
  i.ops = std::move(ops);
  i.loc = loc;
  i.text = "shared spill slot pointer";
  return i;
}

// %ua_sp = base + linear tid x 4 (tid.x + ntid.x x (tid.y + ntid.y x tid.z)).
std::vector<ir::Instruction> pointer_setup(ir::Function& fn, const LaunchShape& shape, uint64_t base, uint32_t* sp) {
  *sp = static_cast<uint32_t>(fn.regs.size());
  fn.regs.push_back({kSlotPointerName, ir::DataType::U32, 1});
  std::vector<ir::Instruction> out;
  const ir::SourceLoc loc = fn.loc;
  if (shape.block[1] == 1 && shape.block[2] == 1) {
    out.push_back(u32_inst(ir::Opcode::Mov, {reg_op(*sp), tid_op(0)}, loc));
  } else {
    const uint32_t t = static_cast<uint32_t>(fn.regs.size());
    fn.regs.push_back({"%ua_tid", ir::DataType::U32, 1});
    out.push_back(u32_inst(ir::Opcode::Mov, {reg_op(*sp), tid_op(2)}, loc));
    out.push_back(u32_inst(ir::Opcode::Mov, {reg_op(t), tid_op(1)}, loc));
    out.push_back(u32_inst(ir::Opcode::Mad, {reg_op(*sp), reg_op(*sp), imm_op(shape.block[1]), reg_op(t)}, loc));
    out.push_back(u32_inst(ir::Opcode::Mov, {reg_op(t), tid_op(0)}, loc));
    out.push_back(u32_inst(ir::Opcode::Mad, {reg_op(*sp), reg_op(*sp), imm_op(shape.block[0]), reg_op(t)}, loc));
  }
  out.push_back(u32_inst(ir::Opcode::Mad, {reg_op(*sp), reg_op(*sp), imm_op(4), imm_op(base)}, loc));
  return out;
}

// The most slots per thread (above `base` bytes of the CTA's shared memory)
// that keep `target` resident threads per SM and fit a CTA.
uint32_t slots_keeping(const OccupancyLimits& l, uint32_t threads, uint32_t registers, uint64_t base,
                       uint32_t target) {
  if (target == 0 || base >= l.max_shared_bytes_per_cta) return 0;
  auto fits = [&](uint32_t slots) {
    const uint64_t total = base + uint64_t(slots) * threads * 4;
    return total <= l.max_shared_bytes_per_cta &&
           active_threads(l, threads, registers, static_cast<uint32_t>(total)) >= target;
  };
  uint32_t n = reg_smem_for(l, threads, target, static_cast<uint32_t>(base)).smem_slots_per_thread;
  while (n > 0 && !fits(n)) --n;
  return n;
}

// A static estimate of each candidate slot's dynamic access frequency (the
// pruning's PrunePriority::Accesses): its spill accesses, 10x per loop level
// (at most 3), as the budget allocator weighs its spill costs.
std::vector<double> access_weights(const ir::Function& fn, const std::vector<SlotAccess>& accesses,
                                   const std::map<int64_t, uint32_t>& id, uint32_t k) {
  std::vector<double> w(k, 0.0);
  const auto& a = fn.analysis.analyses;
  if (!a) throw Error(ErrorKind::Internal, "unified_alloc_shared: '" + fn.name + "' is not analysed");
  for (const SlotAccess& x : accesses) {
    auto it = id.find(x.offset);
    if (it == id.end()) continue;
    w[it->second] += std::pow(10.0, std::min<uint32_t>(3, a->loops.depth(a->cfg.block_of(x.pc))));
  }
  return w;
}

// The instructions replacing one spill access of an 8-byte slot held in the
// shared slots (row0, row1) (byte offsets from the pointer): a load becomes
// two ld.shared.b32 of the halves and mov.b64 t, {lo, hi}; a store
// mov.b64 {lo, hi}, t and two st.shared.b32. lo and hi are new 32-bit
// registers (the colouring counts them).
void rewrite_wide_access(ir::Function& copy, FunctionRewriter& rw, const SlotAccess& a, uint32_t sp, int64_t row0,
                         int64_t row1, std::vector<uint32_t>* packs) {
  const ir::Instruction orig = copy.insts[a.pc];
  const ir::Operand value = orig.ops[a.store ? 1 : 0];
  uint32_t half[2];
  for (uint32_t& h : half) {
    h = static_cast<uint32_t>(copy.regs.size());
    copy.regs.push_back({"%ua_h" + std::to_string(h), ir::DataType::B32, 1});
  }
  auto access = [&](uint32_t h, int64_t row) {
    ir::Instruction m = orig;
    m.type = ir::DataType::B32;
    m.space = ir::StateSpace::Shared;
    ir::Operand addr = orig.ops[a.store ? 0 : 1];
    addr.base = ir::OperandKind::Reg;
    addr.reg = sp;
    addr.var = 0;
    addr.offset = row;
    m.ops = a.store ? std::vector<ir::Operand>{addr, reg_op(half[h])} : std::vector<ir::Operand>{reg_op(half[h]), addr};
    return m;
  };
  ir::Instruction mov;
  mov.op = ir::Opcode::Mov;
  mov.type = ir::DataType::B64;
  ir::Operand halves;
  halves.kind = ir::OperandKind::Vector;
  halves.elems = {reg_op(half[0]), reg_op(half[1])};
  mov.ops = a.store ? std::vector<ir::Operand>{halves, value} : std::vector<ir::Operand>{value, halves};
  mov.loc = orig.loc;
  mov.text = orig.text + " (halves)";
  if (a.store) {
    rw.insert_before(a.pc, std::move(mov), kInsertedSpillPack);
    rw.insert_before(a.pc, access(0, row0), kInsertedSpillStore);
    rw.replace(a.pc, access(1, row1));
  } else {
    rw.insert_before(a.pc, access(0, row0), kInsertedSpillLoad);
    rw.insert_before(a.pc, access(1, row1), kInsertedSpillLoad);
    rw.replace(a.pc, std::move(mov));
    packs->push_back(a.pc);  // the original load's place holds the mov
  }
}

// `wide`: 8-byte slots are candidates too (two shared slots each).
SharedSlotPlacement place_kernel(ir::Module& module, ir::Function& fn, const LaunchShape& shape,
                                 const SharedSlotOptions& o, bool wide) {
  SharedSlotPlacement p;
  p.kernel = fn.name;
  p.threads = shape.threads();
  const std::vector<SlotAccess> accesses = slot_accesses(module, fn);
  if (accesses.empty()) return p;

  // Candidates: the distinct local slots (8-byte ones only when `wide`).
  std::map<int64_t, uint32_t> id;
  std::map<int64_t, uint32_t> all;  // every local slot, for the count left local
  for (const SlotAccess& a : accesses) {
    all.emplace(a.offset, a.bytes);
    if (a.bytes <= 4 || wide) id.emplace(a.offset, 0);
  }
  uint32_t k = 0;
  std::vector<uint8_t> widths;
  for (auto& [off, i] : id) {
    i = k++;
    widths.push_back(all[off] == 8 ? 2 : 1);
  }
  p.candidates = static_cast<uint32_t>(all.size());
  for (const auto& [off, bytes] : all) p.wide_candidates += bytes == 8 ? 1 : 0;

  const uint64_t user = uint64_t(fn.static_shared_bytes) + shape.dynamic_shared_bytes;
  p.base = align_up(user, 4);
  const uint32_t user_bytes = static_cast<uint32_t>(std::min<uint64_t>(user, 0xFFFFFFFFu));
  p.target_threads = active_threads(o.limits, p.threads, o.registers, user_bytes);
  p.slots_per_thread = slots_keeping(o.limits, p.threads, o.registers, p.base, p.target_threads);
  p.local_slots = static_cast<uint32_t>(all.size());
  if (k == 0 || p.slots_per_thread == 0) return p;

  std::vector<int32_t> use(fn.insts.size(), -1), def(fn.insts.size(), -1);
  for (const SlotAccess& a : accesses) {
    auto it = id.find(a.offset);
    if (it == id.end()) continue;
    (a.store ? def : use)[a.pc] = static_cast<int32_t>(it->second);
  }
  const std::vector<std::vector<uint32_t>> sets = slot_live_sets(fn, use, def, k);
  std::vector<uint32_t> candidates(k);
  for (uint32_t i = 0; i < k; ++i) candidates[i] = i;
  const std::vector<double> weights = access_weights(fn, accesses, id, k);
  const PruneResult pruned = prune_to_slots(sets, candidates, p.slots_per_thread, o.priority, weights, widths);
  p.max_live = pruned.max_live_before;
  const SlotColouring colours = colour_slots(SlotGraph::from_live_sets(k, sets), pruned.kept, p.slots_per_thread,
                                             SlotOrder::MaxCardinality, widths);
  if (colours.slots_used == 0) return p;
  for (uint32_t i = 0; i < k; ++i) {
    p.shared_values += colours.slot[i] != kLocalSlot ? 1 : 0;
    p.wide_values += colours.slot[i] != kLocalSlot && widths[i] == 2 ? 1 : 0;
    p.moved_weight += colours.slot[i] != kLocalSlot ? weights[i] : 0.0;
  }

  // Rewrite a copy; keep it only when the count stays within R.
  ir::Function copy = fn;
  uint32_t sp = 0;
  const std::vector<ir::Instruction> setup = pointer_setup(copy, shape, p.base, &sp);
  FunctionRewriter rw(copy);
  for (const ir::Instruction& inst : setup) rw.insert_before(0, inst, kInsertedSpillSetup);
  std::vector<uint32_t> packs;
  const int64_t row = int64_t(p.threads) * 4;
  for (const SlotAccess& a : accesses) {
    auto it = id.find(a.offset);
    if (it == id.end() || colours.slot[it->second] == kLocalSlot) continue;
    if (a.bytes == 8) {
      rewrite_wide_access(copy, rw, a, sp, colours.slot[it->second] * row, colours.slot2[it->second] * row, &packs);
      p.shared_accesses += 2;
      continue;
    }
    ir::Instruction inst = copy.insts[a.pc];
    ir::Operand& addr = inst.ops[a.store ? 0 : 1];
    inst.space = ir::StateSpace::Shared;
    addr.base = ir::OperandKind::Reg;
    addr.reg = sp;
    addr.var = 0;
    addr.offset = colours.slot[it->second] * row;
    rw.replace(a.pc, std::move(inst));
    ++p.shared_accesses;
  }
  std::vector<uint8_t> old_marks = *fn.annotations.find<uint8_t>(kUnifiedAllocColumn);
  for (uint32_t pc : packs) old_marks[pc] = kInsertedSpillPack;
  std::vector<uint8_t> marks = rw.apply(copy);
  // Original instructions keep their unified_alloc marks, in order.
  for (size_t i = 0, j = 0; i < marks.size() && j < old_marks.size(); ++i)
    if (marks[i] == kOriginal) marks[i] = old_marks[j++];
  copy.annotations = ir::InstructionAnnotations{};
  copy.annotations.attach(kUnifiedAllocColumn, std::move(marks), copy.insts.size());
  analysis::analyze_one(copy);
  if (copy.analysis.allocator_regs_per_thread > o.registers) {
    p.kept_local = true;
    p.shared_accesses = 0;
    p.wide_tried = p.wide_values != 0;
    p.shared_values = p.wide_values = 0;
    p.moved_weight = 0.0;
    return p;
  }
  p.shared_slots = colours.slots_used;
  p.local_slots -= p.shared_values;
  p.bytes = uint64_t(p.shared_slots) * p.threads * 4;
  // static + dynamic covers the slots; the dynamic part stays where the
  // layout put it (var_offsets), the slots sit above it.
  copy.static_shared_bytes = p.base + p.bytes - shape.dynamic_shared_bytes;
  copy.analysis.regs_source = fn.analysis.regs_source;
  copy.analysis.regs_source_detail = fn.analysis.regs_source_detail;
  fn = std::move(copy);
  return p;
}

}  // namespace

SharedSlotPlacement place_shared_slots_kernel(ir::Module& module, ir::Function& fn, const LaunchShape& shape,
                                              const SharedSlotOptions& options) {
  // With and without the 8-byte slots as candidates: their words change
  // the over-limit live sets, hence the pruning of the 4-byte ones too. Keep
  // the placement that moves more local accesses (weighted 10x per loop
  // level) to shared memory; on a tie, or when the halves' temporaries push
  // the count above R, the one without (fewer instructions).
  ir::Function wide_fn = fn;
  SharedSlotPlacement p = place_kernel(module, wide_fn, shape, options, true);
  if (p.wide_candidates != 0) {
    ir::Function narrow_fn = fn;
    SharedSlotPlacement q = place_kernel(module, narrow_fn, shape, options, false);
    if (p.kept_local || (q.shared_values != 0 && q.moved_weight >= p.moved_weight)) {
      q.wide_dropped = p.wide_tried || p.wide_values != 0;
      q.wide_over_r = p.kept_local;
      p = q;
      wide_fn = std::move(narrow_fn);
    }
  }
  fn = std::move(wide_fn);
  ir::FunctionAnalysis& a = fn.analysis;
  if (p.shared_values != 0) a.regs_per_thread = a.allocator_regs_per_thread;
  if (a.regs_source == ir::RegisterCountSource::UnifiedAlloc) a.regs_source_detail += "; " + p.summary();
  return p;
}

uint32_t shared_slots_for(const ir::Function& fn, const LaunchShape& shape, const SharedSlotOptions& o) {
  const uint64_t user = uint64_t(fn.static_shared_bytes) + shape.dynamic_shared_bytes;
  const uint32_t user_bytes = static_cast<uint32_t>(std::min<uint64_t>(user, 0xFFFFFFFFu));
  const uint32_t threads = shape.threads();
  return slots_keeping(o.limits, threads, o.registers, align_up(user, 4),
                       active_threads(o.limits, threads, o.registers, user_bytes));
}

SharedAllocation unified_allocate_shared_kernel(ir::Module& module, uint32_t fi, const LaunchShape& shape,
                                                const SharedSlotOptions& o) {
  SharedAllocation r;
  UnifiedAllocOptions u;
  u.registers = o.registers;
  u.where = o.where;
  const ir::Function& fn = module.functions[fi];
  const bool spills = fn.analysis.phys_regs32 > colour_budget(o.registers);
  const uint32_t slots = spills ? shared_slots_for(fn, shape, o) : 0;
  if (spills && slots == 0) r.fallback = "no shared slot keeps the occupancy of R";
  if (slots > 0) {
    // Try with the pointer reserved, on a copy (kept only when shared slots
    // are used).
    ir::Module copy = module;
    u.spill = SpillTarget::Shared;
    bool fits = true;
    try {
      r.allocation = unified_allocate_kernel(copy, fi, u);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Config) throw;
      fits = false;
      r.fallback = "R - 1 registers (one for the slot pointer) do not fit the kernel";
    }
    if (fits) {
      r.placement = place_shared_slots_kernel(copy, copy.functions[fi], shape, o);
      if (r.placement.shared_values != 0) {
        r.pointer = true;
        // Only the kernel and the slot array it declared change (callers
        // hold references to the module's functions).
        module.vars = std::move(copy.vars);
        module.functions[fi] = std::move(copy.functions[fi]);
        return r;
      }
      r.fallback = r.placement.kept_local ? "the slot pointer pushes the colouring above R"
                                          : "no spill slot fits the shared slots (an 8-byte one needs two)";
    }
    r.placement = SharedSlotPlacement{};
  }
  u.spill = SpillTarget::Local;
  r.allocation = unified_allocate_kernel(module, fi, u);
  if (!r.fallback.empty())
    module.functions[fi].analysis.regs_source_detail += "; no shared slots for " + std::to_string(shape.threads()) +
                                                        " threads per CTA (" + r.fallback +
                                                        "): the values use all R registers, no slot pointer";
  return r;
}

void set_shared_slot_options(PassOptions& options, uint32_t registers, const OccupancyLimits& l,
                             PrunePriority priority) {
  options.enable(kUnifiedSharedPass, true);
  options.set(kUnifiedSharedPass, "registers", std::to_string(registers));
  options.set(kUnifiedSharedPass, "priority", prune_priority_name(priority));
  set_limit_options(options, kUnifiedSharedPass, l);
}

void add_unified_shared_pass(PassRegistry& registry) {
  PassInfo p;
  p.name = kUnifiedSharedPass;
  p.description = "unified allocation with spills to shared memory, per block shape: at most R registers, spill slots "
                  "in shared memory the kernel does not use, as many as keep the occupancy of R, the rest local "
                  "(Hayes & Zhang; registers=R, priority=live_sets|accesses)";
  p.after = {"analyze"};
  p.option_keys = limit_option_keys();
  p.option_keys.push_back("registers");
  p.option_keys.push_back("priority");
  p.enabled_by_default = false;
  p.needs_launch_shape = true;
  p.run = [](PassContext& c) {
    SharedSlotOptions o;
    o.limits = limit_options(c.params);
    const uint64_t r = c.params.u64("registers", 0);
    if (r == 0 || r > 255)
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc_shared' needs the option 'registers' from 1 to 255 "
                                     "(set by frontend.unified_alloc.spill = shared)");
    o.registers = static_cast<uint32_t>(r);
    const std::string priority = c.params.text("priority", "live_sets");
    if (!parse_prune_priority(priority, o.priority))
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc_shared': priority '" + priority +
                                         "' is not live_sets or accesses");
    o.where = "frontend.unified_alloc.registers = " + std::to_string(r);
    if (colour_budget(o.registers) == 0)
      throw Error(ErrorKind::Config, o.where + ": " + std::to_string(r) + " registers leave none for values");
    for (uint32_t fi = 0; fi < c.module.functions.size(); ++fi) {
      const ir::Function& fn = c.module.functions[fi];
      if (!fn.is_entry || fn.insts.empty() || !fn.rejected.empty() || !fn.analysis.done) continue;
      unified_allocate_shared_kernel(c.module, fi, *c.launch, o);
    }
  };
  registry.add(std::move(p));
}

}  // namespace simtlm::frontend::passes
