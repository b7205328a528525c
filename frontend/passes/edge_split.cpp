#include "frontend/passes/edge_split.h"

#include <algorithm>

#include "frontend/analysis/analyze.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

namespace {

uint32_t reachable_preds(const analysis::Cfg& cfg, uint32_t node) {
  uint32_t n = 0;
  for (uint32_t p : cfg.preds(node)) n += cfg.reachable(p) ? 1 : 0;
  return n;
}

[[noreturn]] void cannot_split(const ir::Function& fn, const CfgEdge& e, const char* why) {
  throw Error(ErrorKind::Internal, "edge split in '" + fn.name + "': edge " + std::to_string(e.from) + " -> " +
                                       std::to_string(e.to) + ": " + why);
}

}  // namespace

std::vector<CfgEdge> critical_edges(const analysis::Cfg& cfg) {
  std::vector<CfgEdge> out;
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    if (!cfg.reachable(b) || cfg.succs(b).size() < 2) continue;
    for (uint32_t s : cfg.succs(b))
      if (s == cfg.exit_node() || reachable_preds(cfg, s) > 1) out.push_back({b, s});
  }
  std::sort(out.begin(), out.end(), [](const CfgEdge& a, const CfgEdge& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  return out;
}

void split_edge(FunctionRewriter& rw, const ir::Function& fn, const analysis::Cfg& cfg, const CfgEdge& e,
                std::vector<ir::Instruction> body, std::vector<uint8_t> kinds) {
  const uint32_t last = cfg.end_inst(e.from) - 1;
  const ir::Instruction& term = fn.insts[last];  // the original (what the Cfg was built from)
  const bool to_exit = e.to == cfg.exit_node();
  const uint32_t dest = to_exit ? static_cast<uint32_t>(fn.insts.size()) : cfg.first_inst(e.to);
  // Fall-through edge: the destination is the next block in layout (or the
  // exit past the end), and the terminator may fall through.
  const bool may_fall = term.has_guard || !analysis::ends_block(term);
  const bool is_next = dest == cfg.end_inst(e.from);
  const bool taken_branch = (term.op == ir::Opcode::Bra || term.op == ir::Opcode::BrxIdx) && !to_exit &&
                            [&] {
                              const auto t = analysis::branch_targets(term);
                              return std::find(t.begin(), t.end(), dest) != t.end();
                            }();
  const bool taken_exit = to_exit && (term.op == ir::Opcode::Ret || term.op == ir::Opcode::Exit);
  if (taken_branch && may_fall && is_next) cannot_split(fn, e, "branch target is also the fall-through");
  if (!taken_branch && !taken_exit) {
    if (!(may_fall && is_next)) cannot_split(fn, e, "not an edge of the block's terminator");
    for (size_t i = 0; i < body.size(); ++i) rw.insert_after(last, std::move(body[i]), kinds.at(i));
    if (!to_exit) rw.insert_after(last, FunctionRewriter::branch_to(dest, term.loc), kInsertedBranch);
    return;
  }
  const std::string label = "$L__split_" + std::to_string(e.from) + "_" + std::to_string(e.to);
  if (taken_exit) {
    ir::Instruction moved = term;  // the guarded ret/exit, now unguarded in its own block
    moved.has_guard = false;
    moved.guard_negated = false;
    body.push_back(moved);
    kinds.push_back(kInsertedExit);
    const uint32_t block = rw.add_tail_block(std::move(body), std::move(kinds), label);
    ir::Instruction bra = FunctionRewriter::branch_to(block, term.loc);
    bra.uni = false;
    bra.has_guard = term.has_guard;
    bra.guard_negated = term.guard_negated;
    bra.guard_reg = term.guard_reg;
    rw.replace(last, bra);
    return;
  }
  body.push_back(FunctionRewriter::branch_to(dest, term.loc));
  kinds.push_back(kInsertedBranch);
  const uint32_t block = rw.add_tail_block(std::move(body), std::move(kinds), label);
  ir::Instruction retargeted = rw.current(fn, last);  // keeps other edges' retargets (brx.idx)
  for (ir::Operand& o : retargeted.ops)
    if (o.kind == ir::OperandKind::Label && o.target == dest) o.target = block;
  for (uint32_t& t : retargeted.targets)
    if (t == dest) t = block;
  rw.replace(last, retargeted);
}

uint32_t split_critical_edges(ir::Function& fn) {
  if (!fn.analysis.analyses) throw Error(ErrorKind::Internal, "split_critical_edges: '" + fn.name + "' is not analysed");
  const analysis::Cfg& cfg = fn.analysis.analyses->cfg;
  const std::vector<CfgEdge> edges = critical_edges(cfg);
  FunctionRewriter rw(fn);
  for (const CfgEdge& e : edges) split_edge(rw, fn, cfg, e, {}, {});
  rw.apply(fn);
  return static_cast<uint32_t>(edges.size());
}

}  // namespace simtlm::frontend::passes
