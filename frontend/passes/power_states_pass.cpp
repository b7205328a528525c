// The `power_states` pass (see power_states_pass.h).
#include "frontend/passes/power_states_pass.h"

#include <algorithm>
#include <string>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/reg_access.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

namespace {

// Physical numbering of one function: 32-bit registers 0..regs32-1, then the
// predicates.
class PhysIds {
 public:
  explicit PhysIds(const ir::Function& fn) : fn_(fn) {
    regs32_ = fn.analysis.phys_regs32;
    uint32_t top = regs32_;
    for (uint32_t v = 0; v < fn.regs.size(); ++v) {
      for (uint32_t id : of(v)) top = std::max(top, id + 1);
    }
    num_ = top;
  }
  uint32_t size() const { return num_; }
  bool is_bank_reg(uint32_t id) const { return id < regs32_; }
  // The ids virtual register `v` occupies (none for constant-bank values).
  std::vector<uint32_t> of(uint32_t v) const {
    std::vector<uint32_t> out;
    const uint32_t first = v < fn_.analysis.phys_regs.size() ? fn_.analysis.phys_regs[v] : ir::kNoPhysReg;
    if (first == ir::kNoPhysReg || first == ir::kConstantBank) return out;
    const uint32_t units = analysis::reg_units(fn_.regs[v]);
    if (units == 0) {
      out.push_back(regs32_ + first);  // a predicate
    } else {
      for (uint32_t k = 0; k < units; ++k) out.push_back(first + k);
    }
    return out;
  }

 private:
  const ir::Function& fn_;
  uint32_t regs32_ = 0;
  uint32_t num_ = 0;
};

void push_unique(std::vector<uint32_t>& v, uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// The encoded operands of one instruction: (operand, element, virtual register).
struct Encoded {
  uint16_t operand, element;
  uint32_t reg;
};

std::vector<Encoded> encoded_operands(const ir::Instruction& inst) {
  std::vector<Encoded> out;
  if (inst.op == ir::Opcode::Call) return out;  // inlined away before analysis
  const unsigned ndst = analysis::num_dest_operands(inst);
  // One destination: the first register of the first destination operand.
  if (ndst > 0) {
    const ir::Operand& d = inst.ops[0];
    if (d.kind == ir::OperandKind::Reg) {
      out.push_back({0, 0, d.reg});
    } else if (d.kind == ir::OperandKind::Vector && !d.elems.empty() && d.elems[0].kind == ir::OperandKind::Reg) {
      out.push_back({0, 0, d.elems[0].reg});
    }
  }
  // Two sources: register operands (vector elements one by one), in order.
  unsigned sources = 0;
  for (unsigned i = ndst; i < inst.ops.size() && sources < 2; ++i) {
    const ir::Operand& o = inst.ops[i];
    if (o.kind == ir::OperandKind::Reg) {
      out.push_back({static_cast<uint16_t>(i), 0, o.reg});
      ++sources;
    } else if (o.kind == ir::OperandKind::Vector) {
      for (unsigned e = 0; e < o.elems.size() && sources < 2; ++e) {
        if (o.elems[e].kind != ir::OperandKind::Reg) continue;
        out.push_back({static_cast<uint16_t>(i), static_cast<uint16_t>(e), o.elems[e].reg});
        ++sources;
      }
    }
  }
  return out;
}

bool may_diverge(const ir::Instruction& inst) {
  if (inst.op == ir::Opcode::Bra) return inst.has_guard && !inst.uni;
  return inst.op == ir::Opcode::BrxIdx;
}

// SIMT: in the region of a possibly divergent branch (the blocks reachable
// from its successors before its reconvergence point), lanes wait to run the
// other successors or at the reconvergence point; every register live into
// any successor or into the reconvergence point stays live there.
void divergent_regions(const ir::Function& fn, const analysis::FunctionAnalyses& a, const PhysIds& ids,
                       PowerProblem& p) {
  const analysis::Cfg& cfg = a.cfg;
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    const uint32_t last = cfg.end_inst(b) - 1;
    if (cfg.end_inst(b) == cfg.first_inst(b) || !may_diverge(fn.insts[last])) continue;
    const uint32_t rpc = fn.insts[last].reconverge_pc;
    const uint32_t stop = rpc < fn.insts.size() ? cfg.block_of(rpc) : cfg.exit_node();
    PowerProblem::KeepLive keep;
    std::vector<uint32_t> virt;
    auto add_live_in = [&](uint32_t pc) {
      a.liveness.live_in(pc).for_each([&](size_t v) { push_unique(virt, static_cast<uint32_t>(v)); });
    };
    if (stop != cfg.exit_node()) add_live_in(rpc);
    std::vector<char> seen(cfg.num_nodes(), 0);
    std::vector<uint32_t> work;
    for (uint32_t s : cfg.succs(b)) {
      if (s == cfg.exit_node()) continue;
      add_live_in(cfg.first_inst(s));
      work.push_back(s);
    }
    while (!work.empty()) {
      const uint32_t n = work.back();
      work.pop_back();
      if (n == stop || n == cfg.exit_node() || seen[n]) continue;
      seen[n] = 1;
      for (uint32_t i = cfg.first_inst(n); i < cfg.end_inst(n); ++i) keep.insts.push_back(i);
      for (uint32_t s : cfg.succs(n)) work.push_back(s);
    }
    for (uint32_t v : virt) {
      for (uint32_t id : ids.of(v)) push_unique(keep.regs, id);
    }
    if (!keep.insts.empty() && !keep.regs.empty()) p.keep_live.push_back(std::move(keep));
  }
}

}  // namespace

std::vector<PowerAnnotation> power_states(const ir::Function& fn, uint32_t window, bool divergence_rule) {
  if (!fn.analysis.analyses) {
    throw Error(ErrorKind::Internal, "power_states: function '" + fn.name + "' has not been analysed");
  }
  const analysis::FunctionAnalyses& a = *fn.analysis.analyses;
  const analysis::Cfg& cfg = a.cfg;
  const PhysIds ids(fn);
  const uint32_t n = static_cast<uint32_t>(fn.insts.size());

  PowerProblem p;
  p.window = window;
  p.num_regs = ids.size();
  p.insts.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    PowerInst& s = p.insts[i];
    analysis::for_each_reg_operand(fn.insts[i], [&](uint32_t v, bool is_def, unsigned) {
      for (uint32_t id : ids.of(v)) push_unique(is_def ? s.defs : s.uses, id);
    });
    s.defs_conditional = fn.insts[i].has_guard;
  }
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b) {
    const uint32_t first = cfg.first_inst(b), end = cfg.end_inst(b);
    if (first == end) continue;
    for (uint32_t i = first; i + 1 < end; ++i) p.insts[i].succs.push_back(i + 1);
    for (uint32_t s : cfg.succs(b)) {
      if (s == cfg.exit_node()) {
        p.insts[end - 1].leaves = true;
      } else if (cfg.first_inst(s) < cfg.end_inst(s)) {
        push_unique(p.insts[end - 1].succs, cfg.first_inst(s));
      }
    }
  }
  if (divergence_rule) divergent_regions(fn, a, ids, p);
  const PowerAnalysis result(p);

  std::vector<PowerAnnotation> out(n);
  for (uint32_t i = 0; i < n; ++i) {
    PowerAnnotation& ann = out[i];
    std::vector<std::pair<uint32_t, PowerState>> slot_regs;  // bank registers of the encoded operands
    for (const Encoded& e : encoded_operands(fn.insts[i])) {
      const std::vector<uint32_t> regs = ids.of(e.reg);
      if (regs.empty()) continue;  // a constant-bank value: nothing to encode
      PowerState st = PowerState::Off;
      for (uint32_t id : regs) st = keep_more(st, result.power_out(i, id));
      ann.encoded.push_back({e.operand, e.element, st});
      for (uint32_t id : regs) slot_regs.push_back({id, st});
    }
    std::vector<uint32_t> touched = p.insts[i].uses;
    for (uint32_t id : p.insts[i].defs) push_unique(touched, id);
    for (uint32_t id : touched) {
      if (!ids.is_bank_reg(id)) continue;
      PowerState st = PowerState::Sleep;  // not encoded
      for (const auto& [reg, s] : slot_regs) {
        if (reg == id) {
          st = s;
          break;
        }
      }
      ann.regs.push_back({static_cast<uint16_t>(id), st});
    }
  }
  return out;
}

void add_power_states_pass(PassRegistry& registry) {
  PassInfo info;
  info.name = kPowerStatesPass;
  info.description = "GREENER register power states (ON/SLEEP/OFF after each access) from distance and liveness";
  // After relssp, whose re-analysis (new instructions, new physical
  // registers) would leave this pass's annotation stale.
  info.after = {"analyze", "relssp"};
  info.option_keys = {"window", "divergence_rule"};
  info.enabled_by_default = false;
  info.run = [](PassContext& c) {
    const uint64_t w = c.params.u64("window", kDefaultPowerWindow);
    if (w < 1 || w > kMaxPowerWindow) {
      throw Error(ErrorKind::Config, std::string(kPowerStatesPass) + ".window = " + std::to_string(w) +
                                         " is outside 1.." + std::to_string(kMaxPowerWindow));
    }
    const bool divergence_rule = c.params.flag("divergence_rule", true);
    for (ir::Function& fn : c.module.functions) {
      if (fn.insts.empty() || !fn.is_entry) continue;
      const size_t n = fn.insts.size();
      fn.annotations.attach(kPowerStatesColumn, power_states(fn, static_cast<uint32_t>(w), divergence_rule), n);
    }
  };
  registry.add(std::move(info));
}

void print_power_states(std::ostream& out, const ir::Module& module, const ir::Function& fn) {
  (void)module;
  const std::vector<PowerAnnotation>* col = fn.annotations.find<PowerAnnotation>(kPowerStatesColumn);
  if (col == nullptr) {
    throw Error(ErrorKind::Internal, "print_power_states: '" + fn.name + "' has no power-state annotation");
  }
  std::vector<std::vector<std::string>> labels(fn.insts.size() + 1);
  for (const auto& [label, pc] : fn.labels) {
    if (pc < labels.size()) labels[pc].push_back(label);
  }
  out << ".entry " << fn.name << "  (power states after each access; "
      << "registers: physical, after allocation)\n";
  for (size_t pc = 0; pc < fn.insts.size(); ++pc) {
    for (const std::string& l : labels[pc]) out << l << ":\n";
    std::string text = fn.insts[pc].text;
    while (!text.empty() && (text.back() == ';' || text.back() == ' ' || text.back() == '\t')) text.pop_back();
    out << "  " << pc << "\t" << text;
    for (const PowerAnnotation::Slot& s : (*col)[pc].encoded) out << ", " << to_string(s.state);
    out << ";\n";
  }
  for (const std::string& l : labels[fn.insts.size()]) out << l << ":\n";
}

}  // namespace simtlm::frontend::passes
