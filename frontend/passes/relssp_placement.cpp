#include "frontend/passes/relssp_placement.h"

#include "frontend/analysis/analyze.h"
#include "frontend/passes/access_range.h"
#include "frontend/passes/edge_split.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/rewrite.h"
#include "frontend/ptx/extensions.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

const char* relssp_placement_name(RelsspPlacement p) {
  switch (p) {
    case RelsspPlacement::Exit: return "exit";
    case RelsspPlacement::PostDom: return "postdom";
    case RelsspPlacement::Opt: return "opt";
  }
  return "?";
}

bool parse_relssp_placement(const std::string& text, RelsspPlacement& out) {
  for (RelsspPlacement p : {RelsspPlacement::Exit, RelsspPlacement::PostDom, RelsspPlacement::Opt}) {
    if (text == relssp_placement_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

SafeSolution solve_safe(const SafeProblem& g) {
  const size_t n = g.succs.size();
  SafeSolution s;
  // Greatest fixed point: start from "safe everywhere" and only lower.
  s.safe_in.assign(n, true);
  s.safe_out.assign(n, true);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = n; k-- > 0;) {  // backward problem: visit late nodes first
      bool out = true;
      if (k != g.exit)
        for (uint32_t succ : g.succs[k]) out = out && s.safe_in[succ];
      const bool in = !g.access[k] && out;
      changed = changed || out != s.safe_out[k] || in != s.safe_in[k];
      s.safe_out[k] = out;
      s.safe_in[k] = in;
    }
  }
  s.ins_in.assign(n, false);
  s.ins_out.assign(n, false);
  for (size_t k = 0; k < n; ++k) {
    s.ins_out[k] = s.safe_out[k] && !s.safe_in[k];
    bool preds_safe = true;  // an empty AND (the entry) is true
    for (uint32_t p : g.preds[k]) preds_safe = preds_safe && s.safe_out[p];
    s.ins_in[k] = s.safe_in[k] && !preds_safe;
  }
  return s;
}

std::vector<bool> shared_accesses(const ir::Function& fn) {
  bool generic_shared = false;  // a shared address may reach a generic access
  for (const ir::Instruction& inst : fn.insts)
    generic_shared = generic_shared || (inst.op == ir::Opcode::Cvta && !inst.cvta_to &&
                                        inst.space == ir::StateSpace::Shared);
  std::vector<bool> out(fn.insts.size(), false);
  for (size_t pc = 0; pc < fn.insts.size(); ++pc) {
    const ir::Instruction& inst = fn.insts[pc];
    switch (inst.op) {
      case ir::Opcode::Ld:
      case ir::Opcode::Ldu:
      case ir::Opcode::St:
      case ir::Opcode::Atom:
      case ir::Opcode::Red:
        out[pc] = inst.space == ir::StateSpace::Shared || inst.space == ir::StateSpace::SharedCluster ||
                  (generic_shared && inst.space == ir::StateSpace::Generic);
        break;
      default:
        break;
    }
  }
  return out;
}

namespace {

ir::Instruction relssp_instruction(const ir::SourceLoc& loc) {
  ir::Instruction r;
  r.op = ir::Opcode::Extension;
  r.ext_id = ptx::ExtensionRegistry::kRelssp;
  r.loc = loc;
  r.text = "relssp";
  return r;
}

// The Cfg with every critical edge replaced by a node of its own: nodes
// 0..blocks-1 are blocks, `blocks` the exit, then one node per split edge.
struct SplitGraph {
  SafeProblem problem;
  std::vector<CfgEdge> edges;  // node blocks + 1 + k splits edges[k]
};

SplitGraph split_graph(const analysis::Cfg& cfg, const std::vector<bool>& access_pc) {
  SplitGraph g;
  g.edges = critical_edges(cfg);
  const uint32_t nb = cfg.num_blocks();
  const size_t n = nb + 1 + g.edges.size();
  SafeProblem& p = g.problem;
  p.succs.assign(n, {});
  p.preds.assign(n, {});
  p.access.assign(n, false);
  p.exit = cfg.exit_node();
  auto link = [&](uint32_t a, uint32_t b) {
    p.succs[a].push_back(b);
    p.preds[b].push_back(a);
  };
  for (uint32_t b = 0; b < nb; ++b) {
    if (!cfg.reachable(b)) continue;  // never runs: neither constrains nor receives relssp
    for (uint32_t pc = cfg.first_inst(b); pc < cfg.end_inst(b); ++pc) p.access[b] = p.access[b] || access_pc[pc];
    for (uint32_t s : cfg.succs(b)) {
      uint32_t split = 0;
      for (size_t k = 0; k < g.edges.size() && split == 0; ++k)
        if (g.edges[k] == CfgEdge{b, s}) split = nb + 1 + static_cast<uint32_t>(k);
      if (split == 0) {
        link(b, s);
      } else {
        link(b, split);
        link(split, s);
      }
    }
  }
  return g;
}

void place_opt(ir::Function& fn, const analysis::Cfg& cfg, const std::vector<bool>& access_pc,
               FunctionRewriter& rw, RelsspPlacementResult& r) {
  const SplitGraph g = split_graph(cfg, access_pc);
  const SafeSolution s = solve_safe(g.problem);
  const uint32_t nb = cfg.num_blocks();
  if (s.ins_in[cfg.exit_node()])
    throw Error(ErrorKind::Internal, "relssp placement in '" + fn.name + "': insertion at the virtual exit");
  for (uint32_t b = 0; b < nb; ++b) {
    if (!cfg.reachable(b)) continue;
    if (s.ins_out[b]) {
      uint32_t last = cfg.first_inst(b);
      for (uint32_t pc = cfg.first_inst(b); pc < cfg.end_inst(b); ++pc)
        if (access_pc[pc]) last = pc;
      rw.insert_after(last, relssp_instruction(fn.insts[last].loc), kInsertedRelssp);
      ++r.relssp;
    }
    if (s.ins_in[b]) {
      rw.insert_before(cfg.first_inst(b), relssp_instruction(fn.insts[cfg.first_inst(b)].loc), kInsertedRelssp);
      ++r.relssp;
    }
  }
  for (size_t k = 0; k < g.edges.size(); ++k) {
    if (!s.ins_in[nb + 1 + k]) continue;
    const ir::SourceLoc loc = fn.insts[cfg.end_inst(g.edges[k].from) - 1].loc;
    split_edge(rw, fn, cfg, g.edges[k], {relssp_instruction(loc)}, {kInsertedRelssp});
    ++r.relssp;
    ++r.split_edges;
  }
}

void place_postdom(ir::Function& fn, const analysis::FunctionAnalyses& a, const std::vector<bool>& access_pc,
                   FunctionRewriter& rw, RelsspPlacementResult& r) {
  const analysis::Cfg& cfg = a.cfg;
  const SplitGraph g = split_graph(cfg, access_pc);
  const SafeSolution s = solve_safe(g.problem);
  const uint32_t exit = cfg.exit_node();
  uint32_t p = analysis::DominatorTree::kNone;
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    if (!cfg.reachable(b) || !g.problem.access[b]) continue;
    p = p == analysis::DominatorTree::kNone ? b : a.post_dominators.common_dominator(p, b);
  }
  if (p == analysis::DominatorTree::kNone) return;  // no shared access
  // Up the post-dominator tree to a block every thread runs once, after all
  // of its shared accesses.
  while (p != exit && p != analysis::DominatorTree::kNone &&
         !(a.dominators.dominates(p, exit) && a.loops.depth(p) == 0 && s.safe_in[p]))
    p = a.post_dominators.idom(p);
  if (p != exit && p != analysis::DominatorTree::kNone) {
    rw.insert_before(cfg.first_inst(p), relssp_instruction(fn.insts[cfg.first_inst(p)].loc), kInsertedRelssp);
    ++r.relssp;
    return;
  }
  // The exit: before every ret/exit (with its guard), and at the end when
  // the last block falls off it.
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    if (!cfg.reachable(b)) continue;
    const uint32_t last = cfg.end_inst(b) - 1;
    const ir::Instruction& t = fn.insts[last];
    if (t.op == ir::Opcode::Ret || t.op == ir::Opcode::Exit) {
      ir::Instruction rel = relssp_instruction(t.loc);
      rel.has_guard = t.has_guard;
      rel.guard_negated = t.guard_negated;
      rel.guard_reg = t.guard_reg;
      rw.insert_before(last, rel, kInsertedRelssp);
      ++r.relssp;
    }
    if (last + 1 == fn.insts.size() &&
        (t.has_guard || (t.op != ir::Opcode::Ret && t.op != ir::Opcode::Exit && t.op != ir::Opcode::Bra &&
                         t.op != ir::Opcode::BrxIdx))) {
      rw.insert_before(last + 1, relssp_instruction(t.loc), kInsertedRelssp);
      ++r.relssp;
    }
  }
}

}  // namespace

RelsspPlacementResult place_relssp(ir::Function& fn, RelsspPlacement placement, const std::vector<bool>* access) {
  RelsspPlacementResult r;
  if (placement == RelsspPlacement::Exit || fn.insts.empty()) return r;
  if (!fn.analysis.analyses) throw Error(ErrorKind::Internal, "relssp placement: '" + fn.name + "' is not analysed");
  if (!fn.annotations.empty())
    throw Error(ErrorKind::Internal, "relssp placement must run before passes that annotate '" + fn.name + "'");
  const auto analyses = fn.analysis.analyses;  // keep alive while fn changes
  const std::vector<bool> access_pc = access != nullptr ? *access : shared_accesses(fn);
  FunctionRewriter rw(fn);
  if (placement == RelsspPlacement::Opt) {
    place_opt(fn, analyses->cfg, access_pc, rw, r);
  } else {
    place_postdom(fn, *analyses, access_pc, rw, r);
  }
  if (!rw.has_edits()) return r;
  std::vector<uint8_t> marks = rw.apply(fn);
  const size_t n = fn.insts.size();
  fn.annotations.attach("relssp.inserted", std::move(marks), n);
  return r;
}

void register_relssp_pass(PassRegistry& registry) {
  PassInfo p;
  p.name = "relssp";
  p.description = "place relssp after the last shared-scratchpad access (Jatala ch. 3; placement=opt|postdom|exit)";
  p.after = {"analyze"};
  p.option_keys = {"placement", "layout", "threshold"};
  p.enabled_by_default = false;
  p.run = [](PassContext& c) {
    RelsspPlacement placement = RelsspPlacement::Opt;
    const std::string text = c.params.text("placement", "opt");
    if (!parse_relssp_placement(text, placement))
      throw Error(ErrorKind::Config, "front-end pass 'relssp': placement '" + text + "' is not exit, postdom or opt");
    const std::string layout = c.params.text("layout", "declared");
    if (layout != "declared" && layout != "access_range")
      throw Error(ErrorKind::Config, "front-end pass 'relssp': layout '" + layout + "' is not declared or access_range");
    const double t = c.params.real("threshold", 0.1);
    bool changed = false;
    for (ir::Function& fn : c.module.functions) {
      if (!fn.is_entry || fn.insts.empty()) continue;
      std::vector<bool> access = shared_accesses(fn);
      if (layout == "access_range") {
        const SharedVariableUse use = shared_variable_use(c.module, fn);
        const std::vector<uint32_t> chosen = choose_shared_variables(c.module, fn, use, t);
        if (!chosen.empty()) layout_shared_region(c.module, fn, use, chosen);
        const std::vector<bool> priv = private_variables(c.module, fn, use, t);
        for (size_t pc = 0; pc < access.size(); ++pc) {
          bool region = use.other[pc];
          for (size_t k = 0; k < use.vars.size() && !region; ++k) region = use.by_inst[k][pc] && !priv[k];
          access[pc] = access[pc] && region;
        }
      }
      const RelsspPlacementResult r = place_relssp(fn, placement, &access);
      changed = changed || r.relssp != 0;
    }
    if (changed) analysis::analyze(c.module);
  };
  registry.add(std::move(p));
}

}  // namespace simtlm::frontend::passes
