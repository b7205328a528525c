// Constant trip counts and longest weighted paths (see static_cost.h).
#include "frontend/analysis/static_cost.h"

#include <algorithm>
#include <limits>

#include "frontend/analysis/reg_access.h"

namespace simtlm::frontend::analysis {

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > kMax - b ? kMax : a + b; }

// The instructions of the loop's body that write `reg`, and those outside it.
struct Definitions {
  std::vector<uint32_t> inside, outside;
};
Definitions definitions_of(const ir::Function& fn, const Cfg& cfg, const std::vector<bool>& in_loop, uint32_t reg) {
  Definitions d;
  RegAccess access;
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    collect_reg_access(fn.insts[pc], access);
    if (std::find(access.defs.begin(), access.defs.end(), reg) == access.defs.end()) continue;
    (in_loop[cfg.block_of(pc)] ? d.inside : d.outside).push_back(pc);
  }
  return d;
}

bool is_reg(const ir::Operand& o, uint32_t reg) { return o.kind == ir::OperandKind::Reg && o.reg == reg; }

// a OP b with the comparison mirrored (b OP' a == a OP b).
ir::CmpOp mirrored(ir::CmpOp c) {
  switch (c) {
    case ir::CmpOp::Lt: return ir::CmpOp::Gt;
    case ir::CmpOp::Gt: return ir::CmpOp::Lt;
    case ir::CmpOp::Le: return ir::CmpOp::Ge;
    case ir::CmpOp::Ge: return ir::CmpOp::Le;
    case ir::CmpOp::Lo: return ir::CmpOp::Hi;
    case ir::CmpOp::Hi: return ir::CmpOp::Lo;
    case ir::CmpOp::Ls: return ir::CmpOp::Hs;
    case ir::CmpOp::Hs: return ir::CmpOp::Ls;
    default: return c;
  }
}

// The integer comparison of setp.<cmp>.<type> at `bits` width, or nullopt
// for a comparison that is not an integer one.
std::optional<bool> compare(ir::CmpOp c, bool is_signed, unsigned bits, uint64_t a, uint64_t b) {
  const auto as_signed = [bits](uint64_t v) {
    return bits == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v)));
  };
  const int64_t sa = as_signed(a), sb = as_signed(b);
  switch (c) {
    case ir::CmpOp::Eq: return a == b;
    case ir::CmpOp::Ne: return a != b;
    case ir::CmpOp::Lt: return is_signed ? sa < sb : a < b;
    case ir::CmpOp::Le: return is_signed ? sa <= sb : a <= b;
    case ir::CmpOp::Gt: return is_signed ? sa > sb : a > b;
    case ir::CmpOp::Ge: return is_signed ? sa >= sb : a >= b;
    case ir::CmpOp::Lo: return a < b;
    case ir::CmpOp::Ls: return a <= b;
    case ir::CmpOp::Hi: return a > b;
    case ir::CmpOp::Hs: return a >= b;
    default: return std::nullopt;
  }
}

bool integer_32_or_64(ir::DataType t) {
  return (ir::is_signed(t) || ir::is_unsigned(t) || ir::is_bits(t)) && (ir::type_size(t) == 4 || ir::type_size(t) == 8);
}

std::optional<uint64_t> trip_count(const ir::Function& fn, const Cfg& cfg, const DominatorTree& dom,
                                   const Loop& loop, uint64_t limit) {
  if (loop.latches.size() != 1) return std::nullopt;
  const uint32_t latch = loop.latches[0];
  std::vector<bool> in_loop(cfg.num_nodes(), false);
  for (uint32_t b : loop.blocks) in_loop[b] = true;

  // The latch's conditional branch: which outcome goes round again.
  const uint32_t end = cfg.end_inst(latch);
  if (end == cfg.first_inst(latch)) return std::nullopt;
  const ir::Instruction& branch = fn.insts[end - 1];
  if (branch.op != ir::Opcode::Bra || !branch.has_guard || branch.ops.empty() ||
      branch.ops[0].kind != ir::OperandKind::Label)
    return std::nullopt;
  const uint32_t header_pc = cfg.first_inst(loop.header);
  bool continue_if_taken;
  if (branch.ops[0].target == header_pc) {
    continue_if_taken = true;
  } else if (end == header_pc && !in_loop[cfg.block_of(branch.ops[0].target)]) {
    continue_if_taken = false;
  } else {
    return std::nullopt;
  }
  // Taken to the header: the fall-through must leave the loop.
  if (continue_if_taken && end < fn.insts.size() && in_loop[cfg.block_of(end)]) return std::nullopt;

  // The predicate: one unguarded setp in the loop comparing a register with an immediate.
  const Definitions pdefs = definitions_of(fn, cfg, in_loop, branch.guard_reg);
  if (pdefs.inside.size() != 1) return std::nullopt;
  const uint32_t setp_pc = pdefs.inside[0];
  const ir::Instruction& setp = fn.insts[setp_pc];
  if (setp.op != ir::Opcode::Setp || setp.has_guard || setp.dual_dst || setp.boolop != ir::BoolOp::None ||
      setp.ops.size() != 3 || !integer_32_or_64(setp.type))
    return std::nullopt;
  ir::CmpOp cmp = setp.cmp;
  const ir::Operand *counter = &setp.ops[1], *bound = &setp.ops[2];
  if (counter->kind == ir::OperandKind::Imm && bound->kind == ir::OperandKind::Reg) {
    std::swap(counter, bound);
    cmp = mirrored(cmp);
  }
  if (counter->kind != ir::OperandKind::Reg || bound->kind != ir::OperandKind::Imm) return std::nullopt;
  const uint32_t i = counter->reg;
  const unsigned bits = ir::type_size(setp.type) * 8;

  // The counter: one add/sub of an immediate in the loop, one mov of an immediate before it.
  const Definitions idefs = definitions_of(fn, cfg, in_loop, i);
  if (idefs.inside.size() != 1 || idefs.outside.size() != 1) return std::nullopt;
  const uint32_t step_pc = idefs.inside[0], init_pc = idefs.outside[0];
  const ir::Instruction& step = fn.insts[step_pc];
  const ir::Instruction& init = fn.insts[init_pc];
  if ((step.op != ir::Opcode::Add && step.op != ir::Opcode::Sub) || step.has_guard || step.cc || step.sat ||
      step.ops.size() != 3 || !integer_32_or_64(step.type) || ir::type_size(step.type) * 8 != bits ||
      !is_reg(step.ops[0], i))
    return std::nullopt;
  const ir::Operand* amount = nullptr;
  if (is_reg(step.ops[1], i) && step.ops[2].kind == ir::OperandKind::Imm) amount = &step.ops[2];
  if (step.op == ir::Opcode::Add && is_reg(step.ops[2], i) && step.ops[1].kind == ir::OperandKind::Imm)
    amount = &step.ops[1];
  if (amount == nullptr) return std::nullopt;
  if (init.op != ir::Opcode::Mov || init.has_guard || init.ops.size() != 2 ||
      init.ops[1].kind != ir::OperandKind::Imm || !dom.dominates(cfg.block_of(init_pc), loop.header))
    return std::nullopt;
  // Both run on every iteration (they dominate the latch); which comes first.
  const uint32_t step_block = cfg.block_of(step_pc), setp_block = cfg.block_of(setp_pc);
  if (!dom.dominates(step_block, latch) || !dom.dominates(setp_block, latch)) return std::nullopt;
  const bool step_before_test = step_block == setp_block ? step_pc < setp_pc : dom.dominates(step_block, setp_block);

  const uint64_t mask = bits == 64 ? kMax : (uint64_t{1} << bits) - 1;
  const uint64_t delta = (step.op == ir::Opcode::Add ? amount->imm : uint64_t{0} - amount->imm) & mask;
  const uint64_t limit_value = bound->imm & mask;
  const bool is_signed = ir::is_signed(setp.type);
  uint64_t value = init.ops[1].imm & mask;
  for (uint64_t n = 1; n <= limit; ++n) {
    if (step_before_test) value = (value + delta) & mask;
    const std::optional<bool> p = compare(cmp, is_signed, bits, value, limit_value);
    if (!p) return std::nullopt;
    if (!step_before_test) value = (value + delta) & mask;
    const bool taken = *p != branch.guard_negated;
    if (taken != continue_if_taken) return n;
  }
  return std::nullopt;
}

}  // namespace

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}

std::vector<std::optional<uint64_t>> constant_trip_counts(const ir::Function& fn, const Cfg& cfg,
                                                          const DominatorTree& dominators, const LoopInfo& loops,
                                                          uint64_t limit) {
  std::vector<std::optional<uint64_t>> out;
  out.reserve(loops.loops().size());
  for (const Loop& loop : loops.loops()) out.push_back(trip_count(fn, cfg, dominators, loop, limit));
  return out;
}

std::vector<uint64_t> block_multipliers(const Cfg& cfg, const LoopInfo& loops,
                                        const std::vector<std::optional<uint64_t>>& trips,
                                        uint64_t unknown_iterations) {
  std::vector<uint64_t> out(cfg.num_blocks(), 1);
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b)
    for (uint32_t l = loops.innermost(b); l != LoopInfo::kNoLoop; l = loops.loops()[l].parent)
      out[b] = saturating_mul(out[b], l < trips.size() && trips[l] ? *trips[l] : unknown_iterations);
  return out;
}

std::vector<uint64_t> longest_path_to_exit(const Cfg& cfg, const LoopInfo& loops, const std::vector<uint64_t>& weight) {
  const uint32_t nb = cfg.num_blocks();
  std::vector<uint64_t> dist(cfg.num_nodes(), 0);
  const std::vector<uint32_t>& order = cfg.rpo();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const uint32_t b = *it;
    uint64_t out = 0;
    for (uint32_t s : cfg.succs(b))
      if (s == cfg.exit_node() || (s < nb && cfg.reachable(s) && !loops.is_back_edge(b, s))) out = std::max(out, dist[s]);
    dist[b] = saturating_add(out, weight[b]);
  }
  return dist;
}

}  // namespace simtlm::frontend::analysis
