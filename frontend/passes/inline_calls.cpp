// Call inlining and lowering of call parameters (see inline_calls.h).
#include "frontend/passes/inline_calls.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ir/reject.h"
#include "frontend/ptx/diagnostics.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

namespace {

using ir::Opcode;
using ir::OperandKind;

constexpr uint32_t kNone = 0xFFFFFFFFu;

[[noreturn]] void fail(const ir::Module& m, const ir::Instruction& inst, const std::string& what) {
  ptx::throw_ptx_error(m.file, inst.loc.line, inst.loc.column, what, inst.text);
}

struct CallSite {
  uint32_t callee = kNone;
  std::vector<ir::Operand> rets;
  std::vector<ir::Operand> args;
};

void append_list(const ir::Operand& op, std::vector<ir::Operand>& out) {
  if (op.kind == OperandKind::Vector)
    out.insert(out.end(), op.elems.begin(), op.elems.end());
  else
    out.push_back(op);
}

// Splits call operands around the Function operand. False for indirect calls.
bool parse_call(const ir::Instruction& inst, CallSite& cs) {
  size_t fpos = inst.ops.size();
  for (size_t i = 0; i < inst.ops.size(); ++i)
    if (inst.ops[i].kind == OperandKind::Function) {
      fpos = i;
      break;
    }
  if (fpos == inst.ops.size()) return false;
  cs.callee = inst.ops[fpos].func;
  cs.rets.clear();
  cs.args.clear();
  for (size_t i = 0; i < fpos; ++i) append_list(inst.ops[i], cs.rets);
  // After the function: the argument list; anything after that (a prototype
  // label of an indirect call) is not an argument.
  if (fpos + 1 < inst.ops.size()) append_list(inst.ops[fpos + 1], cs.args);
  return true;
}

ir::DataType bits_type(uint64_t bytes) {
  switch (bytes) {
    case 1: return ir::DataType::B8;
    case 2: return ir::DataType::B16;
    case 4: return ir::DataType::B32;
    case 8: return ir::DataType::B64;
    case 16: return ir::DataType::B128;
    default: return ir::DataType::None;
  }
}

// ---------------------------------------------------------------------------
// Call graph: which functions can be inlined, in callees-first order.

// Inlined instructions one function may grow to (about 200 MB of IR); beyond
// it a kernel is rejected as a PTX error (docs/ptx-support.md).
constexpr uint64_t kMaxInlinedInstructions = 1000000;

struct Problem {
  std::string what;
  uint32_t func = kNone;
  uint32_t inst = kNone;
  std::string diagnostic;  // complete message, when the problem is a rejected callee's
};

class CallGraph {
 public:
  explicit CallGraph(const ir::Module& m) : m_(m), state_(m.functions.size(), kNew),
                                            problem_(m.functions.size()),
                                            inlined_size_(m.functions.size(), 0) {
    // Kernels first, so that a recursion error names the chain from a kernel.
    for (uint32_t f = 0; f < m.functions.size(); ++f)
      if (m.functions[f].is_entry && state_[f] == kNew) visit(f);
    for (uint32_t f = 0; f < m.functions.size(); ++f)
      if (state_[f] == kNew) visit(f);
  }
  // Functions whose whole call tree can be inlined, callees first.
  const std::vector<uint32_t>& order() const { return order_; }
  bool ok(uint32_t f) const { return state_[f] == kDone; }
  const Problem& problem(uint32_t f) const { return problem_[f]; }

 private:
  enum State : uint8_t { kNew, kActive, kDone, kBad };

  void visit(uint32_t f) {
    state_[f] = kActive;
    stack_.push_back(f);
    const ir::Function& fn = m_.functions[f];
    bool bad = false;
    CallSite cs;
    for (uint32_t i = 0; i < fn.insts.size() && !bad; ++i) {
      const ir::Instruction& inst = fn.insts[i];
      if (inst.op != Opcode::Call) continue;
      auto set_problem = [&](std::string what) {
        problem_[f] = {std::move(what), f, i, ""};
        bad = true;
      };
      if (!parse_call(inst, cs)) {
        set_problem("indirect calls (through a function pointer) are not supported");
        break;
      }
      if (cs.callee >= m_.functions.size()) {
        set_problem("call to an unknown function");
        break;
      }
      // (The parser already rejects calls to functions declared without a
      // body, except vprintf, which it defines; an empty body `{}` is a valid function.)
      const ir::Function& callee = m_.functions[cs.callee];
      if (callee.is_entry) {
        set_problem("call to kernel '" + callee.name + "' is not allowed");
        break;
      }
      if (!callee.rejected.empty()) {  // the parser refused its body
        problem_[f] = {"", f, i, callee.rejected};
        bad = true;
        break;
      }
      if (state_[cs.callee] == kActive) {
        set_problem("recursive call to '" + callee.name +
                    "' is not supported (call chain: " + chain_text(callee.name) + ")");
        break;
      }
      if (state_[cs.callee] == kNew) visit(cs.callee);
      if (state_[cs.callee] == kBad) {
        problem_[f] = problem_[cs.callee];
        bad = true;
      }
    }
    if (!bad) {
      // Calls nested in calls multiply: a chain of functions that each call
      // the next twice doubles the kernel per level. Refuse before copying.
      inlined_size_[f] = inlined_size(fn);
      if (inlined_size_[f] > kMaxInlinedInstructions) {
        uint32_t at = 0;  // the first call (or the first instruction)
        while (at + 1 < fn.insts.size() && fn.insts[at].op != Opcode::Call) ++at;
        problem_[f] = {"inlining the calls of '" + fn.name + "' would give more than " +
                           std::to_string(kMaxInlinedInstructions) +
                           " instructions (call chain: " + chain_text("...") + ")",
                       f, at, ""};
        bad = true;
      }
    }
    stack_.pop_back();
    state_[f] = bad ? kBad : kDone;
    if (!bad) order_.push_back(f);
  }

  // Instructions `f` has once every call in it is inlined (saturating): a
  // call costs its callee's inlined size plus the argument and return moves.
  uint64_t inlined_size(const ir::Function& fn) const {
    uint64_t size = 0;
    CallSite cs;
    for (const ir::Instruction& inst : fn.insts) {
      uint64_t add = 1;
      if (inst.op == Opcode::Call && parse_call(inst, cs))
        add = inlined_size_[cs.callee] + cs.args.size() + cs.rets.size() + 1;
      size = add > kMaxInlinedInstructions ? kMaxInlinedInstructions + 1
                                           : std::min(size + add, kMaxInlinedInstructions + 1);
    }
    return size;
  }

  std::string chain_text(const std::string& last) const {
    std::string chain;
    for (uint32_t g : stack_) chain += m_.functions[g].name + " -> ";
    return chain + last;
  }

  const ir::Module& m_;
  std::vector<State> state_;
  std::vector<Problem> problem_;
  std::vector<uint64_t> inlined_size_;
  std::vector<uint32_t> stack_;
  std::vector<uint32_t> order_;
};

// ---------------------------------------------------------------------------
// Inlining one function's calls.

class Inliner {
 public:
  Inliner(ir::Module& m, uint32_t fi) : m_(m), fi_(fi) {}

  void run() {
    ir::Function& F = fn();
    const uint32_t n = static_cast<uint32_t>(F.insts.size());
    bool has_call = false;
    for (const ir::Instruction& inst : F.insts) has_call |= inst.op == Opcode::Call;
    if (!has_call) return;

    std::vector<ir::Instruction> old = std::move(F.insts);
    F.insts.clear();
    out_.reserve(old.size() * 2);
    std::vector<uint32_t> old_to_new(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
      old_to_new[i] = static_cast<uint32_t>(out_.size());
      if (old[i].op == Opcode::Call) {
        expand(old[i]);
      } else {
        out_.push_back(std::move(old[i]));
        own_.push_back(1);
      }
    }
    old_to_new[n] = static_cast<uint32_t>(out_.size());

    // The caller's own branches still name old instruction indices.
    for (size_t k = 0; k < out_.size(); ++k) {
      if (!own_[k]) continue;
      ir::Instruction& inst = out_[k];
      for (ir::Operand& op : inst.ops)
        if (op.kind == OperandKind::Label) op.target = old_to_new[std::min(op.target, n)];
      for (uint32_t& t : inst.targets) t = old_to_new[std::min(t, n)];
    }
    ir::Function& G = fn();
    for (auto& [name, idx] : G.labels) idx = old_to_new[std::min(idx, n)];
    for (auto& [name, idx] : new_labels_) G.labels[name] = idx;
    G.insts = std::move(out_);
    G.blocks.clear();
  }

 private:
  ir::Function& fn() { return m_.functions[fi_]; }

  void emit(ir::Instruction inst) {
    inst.reconverge_pc = ir::kNoReconvergence;
    out_.push_back(std::move(inst));
    own_.push_back(0);
  }

  uint32_t new_local_slot(const ir::Variable& formal, const std::string& suffix) {
    ir::Variable v = formal;
    v.name = formal.name + suffix;
    v.space = ir::StateSpace::Local;
    v.is_func_param = false;
    v.is_kernel_param = false;
    v.is_visible = false;
    v.param_offset = 0;
    v.from_call_param = true;
    m_.vars.push_back(std::move(v));
    uint32_t id = static_cast<uint32_t>(m_.vars.size() - 1);
    fn().locals.push_back(id);
    return id;
  }

  static ir::Operand symbol_addr(uint32_t var) {
    ir::Operand a;
    a.kind = OperandKind::Address;
    a.base = OperandKind::Symbol;
    a.var = var;
    return a;
  }

  ir::DataType value_type(const ir::Operand& value, const ir::Variable& formal) {
    if (value.kind == OperandKind::Reg) {
      ir::DataType t = fn().regs[value.reg].type;
      if (t != ir::DataType::None) return t;
    }
    ir::DataType t = bits_type(formal.size);
    return t == ir::DataType::None ? formal.type : t;
  }

  // Register of `callee` that implements a .reg-space formal (same name).
  uint32_t reg_formal(const ir::Function& callee, const ir::Variable& formal, const ir::Instruction& call) {
    for (uint32_t r = 0; r < callee.regs.size(); ++r)
      if (callee.regs[r].name == formal.name) return r;
    fail(m_, call, "cannot bind register parameter '" + formal.name + "' of '" + callee.name + "'");
  }

  void expand(const ir::Instruction& call) {
    CallSite cs;
    parse_call(call, cs);  // validated by CallGraph
    const uint32_t ci = cs.callee;
    if (cs.args.size() != m_.functions[ci].params.size())
      fail(m_, call, "call to '" + m_.functions[ci].name + "' passes " + std::to_string(cs.args.size()) +
                         " arguments, the function takes " +
                         std::to_string(m_.functions[ci].params.size()));
    if (cs.rets.size() != m_.functions[ci].returns.size())
      fail(m_, call, "call to '" + m_.functions[ci].name + "' receives " + std::to_string(cs.rets.size()) +
                         " return values, the function returns " +
                         std::to_string(m_.functions[ci].returns.size()));
    const std::string suffix = "$i" + std::to_string(++instances_);

    // Fresh registers for the callee's registers.
    const uint32_t reg_base = static_cast<uint32_t>(fn().regs.size());
    {
      const auto& cregs = m_.functions[ci].regs;
      for (const ir::Register& r : std::vector<ir::Register>(cregs)) {
        ir::Register copy = r;
        copy.name = r.name + suffix;
        fn().regs.push_back(std::move(copy));
      }
    }

    // A guarded call is skipped by the threads whose guard is false.
    size_t skip = kNone;
    if (call.has_guard) {
      ir::Instruction b;
      b.op = Opcode::Bra;
      b.has_guard = true;
      b.guard_reg = call.guard_reg;
      b.guard_negated = !call.guard_negated;
      ir::Operand l;
      l.kind = OperandKind::Label;
      b.ops.push_back(l);
      b.loc = call.loc;
      b.text = "bra (skip guarded call: " + call.text + ")";
      skip = out_.size();
      emit(std::move(b));
    }

    // Bind formals to actuals. var_map: callee formal var -> caller variable.
    std::unordered_map<uint32_t, uint32_t> var_map;
    std::vector<ir::Instruction> after;  // return-value moves, after the body
    auto bind = [&](uint32_t formal_id, const ir::Operand& actual, bool is_return) {
      const ir::Variable formal = m_.vars[formal_id];
      const ir::Function& callee = m_.functions[ci];
      if (formal.space == ir::StateSpace::Reg) {
        if (actual.kind != OperandKind::Reg && !(actual.kind == OperandKind::Imm && !is_return))
          fail(m_, call, "register parameter '" + formal.name + "' needs a register or immediate argument");
        ir::Instruction mv;
        mv.op = Opcode::Mov;
        mv.type = callee.regs[reg_formal(callee, formal, call)].type;
        ir::Operand inner;
        inner.kind = OperandKind::Reg;
        inner.reg = reg_base + reg_formal(callee, formal, call);
        mv.ops = is_return ? std::vector<ir::Operand>{actual, inner} : std::vector<ir::Operand>{inner, actual};
        mv.loc = call.loc;
        mv.text = call.text;
        if (is_return) after.push_back(std::move(mv));
        else emit(std::move(mv));
        return;
      }
      if (actual.kind == OperandKind::Symbol) {
        const ir::Variable& av = m_.vars[actual.var];
        if ((av.space != ir::StateSpace::Param && av.space != ir::StateSpace::Local) || actual.offset != 0)
          fail(m_, call, "argument '" + av.name + "' of a call must be a .param variable, register or immediate");
        var_map[formal_id] = actual.var;
        return;
      }
      if (actual.kind != OperandKind::Reg && !(actual.kind == OperandKind::Imm && !is_return))
        fail(m_, call, "unsupported operand for parameter '" + formal.name + "' of '" + callee.name + "'");
      uint32_t slot = new_local_slot(formal, suffix);
      var_map[formal_id] = slot;
      ir::Instruction mem;
      mem.op = is_return ? Opcode::Ld : Opcode::St;
      mem.space = ir::StateSpace::Local;
      mem.type = value_type(actual, formal);
      mem.ops = is_return ? std::vector<ir::Operand>{actual, symbol_addr(slot)}
                          : std::vector<ir::Operand>{symbol_addr(slot), actual};
      mem.loc = call.loc;
      mem.text = call.text;
      if (is_return) after.push_back(std::move(mem));
      else emit(std::move(mem));
    };
    for (size_t j = 0; j < cs.rets.size(); ++j) bind(m_.functions[ci].returns[j], cs.rets[j], true);
    for (size_t j = 0; j < cs.args.size(); ++j) bind(m_.functions[ci].params[j], cs.args[j], false);

    // The body. A final unconditional `ret` is dropped (falls through).
    const ir::Function& C = m_.functions[ci];
    const uint32_t cn = static_cast<uint32_t>(C.insts.size());
    const bool drop_last = cn > 0 && C.insts[cn - 1].op == Opcode::Ret && !C.insts[cn - 1].has_guard;
    std::vector<uint32_t> cmap(cn + 1);
    uint32_t pos = static_cast<uint32_t>(out_.size());
    for (uint32_t j = 0; j < cn; ++j) {
      cmap[j] = pos;
      if (!(drop_last && j == cn - 1)) ++pos;
    }
    const uint32_t after_body = pos;
    cmap[cn] = after_body;
    auto map_var = [&](uint32_t v) {
      auto it = var_map.find(v);
      return it == var_map.end() ? v : it->second;
    };
    // Copy first: `C` is a reference into m_.functions, which stays put, but
    // fn().regs/locals grow; instructions are copied one by one.
    for (uint32_t j = 0; j < cn; ++j) {
      if (drop_last && j == cn - 1) break;
      ir::Instruction inst = m_.functions[ci].insts[j];
      if (inst.has_guard) inst.guard_reg += reg_base;
      for (ir::Operand& op : inst.ops) rewrite(op, reg_base, map_var, cmap, cn);
      for (uint32_t& t : inst.targets) t = cmap[std::min(t, cn)];
      if (inst.op == Opcode::Ret) {
        inst.op = Opcode::Bra;
        inst.uni = false;
        ir::Operand l;
        l.kind = OperandKind::Label;
        l.target = after_body;
        inst.ops = {l};
        inst.text = "bra (" + inst.text + " from " + m_.functions[ci].name + ")";
      }
      emit(std::move(inst));
    }
    for (const auto& [name, idx] : m_.functions[ci].labels) new_labels_[name + suffix] = cmap[std::min(idx, cn)];
    for (ir::Instruction& inst : after) emit(std::move(inst));
    if (skip != kNone) out_[skip].ops[0].target = static_cast<uint32_t>(out_.size());

    // The callee's function-scope variables are now used by this function.
    std::vector<uint32_t> clocals = m_.functions[ci].locals;
    auto& locals = fn().locals;
    for (uint32_t v : clocals)
      if (std::find(locals.begin(), locals.end(), v) == locals.end()) locals.push_back(v);
  }

  template <typename MapVar>
  static void rewrite(ir::Operand& op, uint32_t reg_base, MapVar& map_var, const std::vector<uint32_t>& cmap,
                      uint32_t cn) {
    switch (op.kind) {
      case OperandKind::Reg:
        op.reg += reg_base;
        break;
      case OperandKind::Address:
        if (op.base == OperandKind::Reg) op.reg += reg_base;
        else if (op.base == OperandKind::Symbol) op.var = map_var(op.var);
        break;
      case OperandKind::Symbol:
        op.var = map_var(op.var);
        break;
      case OperandKind::Vector:
        for (ir::Operand& e : op.elems) rewrite(e, reg_base, map_var, cmap, cn);
        break;
      case OperandKind::Label:
        op.target = cmap[std::min(op.target, cn)];
        break;
      default:
        break;
    }
  }

  ir::Module& m_;
  uint32_t fi_;
  uint32_t instances_ = 0;
  std::vector<ir::Instruction> out_;
  std::vector<char> own_;
  std::map<std::string, uint32_t> new_labels_;
};

// ---------------------------------------------------------------------------
// Lowering of call-parameter variables.

template <typename F>
void for_each_var_ref(ir::Operand& op, F&& f) {
  if (op.kind == OperandKind::Symbol || (op.kind == OperandKind::Address && op.base == OperandKind::Symbol))
    f(op);
  else if (op.kind == OperandKind::Vector)
    for (ir::Operand& e : op.elems) for_each_var_ref(e, f);
}

// .param variables referenced by `fi` that are neither kernel parameters nor
// the function's own formals become .local call-parameter slots.
void lower_param_vars(ir::Module& m, uint32_t fi) {
  ir::Function& F = m.functions[fi];
  std::vector<char> own(m.vars.size(), 0);
  for (uint32_t v : F.params) own[v] = 1;
  for (uint32_t v : F.returns) own[v] = 1;
  for (ir::Instruction& inst : F.insts) {
    for (ir::Operand& op : inst.ops)
      for_each_var_ref(op, [&](ir::Operand& ref) {
        ir::Variable& v = m.vars[ref.var];
        if (v.space == ir::StateSpace::Param && !v.is_kernel_param && !own[ref.var]) {
          v.space = ir::StateSpace::Local;
          v.from_call_param = true;
        }
      });
  }
  for (ir::Instruction& inst : F.insts) {
    if (inst.space != ir::StateSpace::Param) continue;
    for (const ir::Operand& op : inst.ops)
      if (op.kind == OperandKind::Address && op.base == OperandKind::Symbol &&
          m.vars[op.var].space == ir::StateSpace::Local) {
        inst.space = ir::StateSpace::Local;
        break;
      }
  }
}

void prune_locals(const ir::Module& m, ir::Function& F);
void rewrite_promoted(const ir::Module& m, ir::Function& F, const std::unordered_map<uint32_t, uint32_t>& reg_of);

// Promotes call-parameter slots that are only accessed whole, as scalars,
// to registers (ld/st -> mov).
void promote_param_slots(ir::Module& m, uint32_t fi) {
  ir::Function& F = m.functions[fi];
  constexpr uint32_t kOk = 1, kNo = 2;  // 0 = not seen yet
  std::unordered_map<uint32_t, uint32_t> status;  // var -> kOk/kNo
  auto reg_size = [&](const ir::Operand& op) -> uint64_t {
    if (op.kind != OperandKind::Reg) return 0;
    const ir::Register& r = F.regs[op.reg];
    return r.vec == 1 ? ir::type_size(r.type) : 0;
  };
  for (ir::Instruction& inst : F.insts) {
    // Which operand position may hold the slot address and which the value.
    int addr_pos = -1, value_pos = -1;
    if (inst.vec == 1 && inst.space == ir::StateSpace::Local && inst.ops.size() == 2) {
      if (inst.op == Opcode::Ld) addr_pos = 1, value_pos = 0;
      if (inst.op == Opcode::St) addr_pos = 0, value_pos = 1;
    }
    for (size_t k = 0; k < inst.ops.size(); ++k) {
      for_each_var_ref(inst.ops[k], [&](ir::Operand& ref) {
        const ir::Variable& v = m.vars[ref.var];
        if (!v.from_call_param || v.space != ir::StateSpace::Local) return;
        uint32_t& st = status[ref.var];
        if (st == kNo) return;
        bool ok = static_cast<int>(k) == addr_pos && ref.kind == OperandKind::Address && ref.offset == 0 &&
                  (v.size == 2 || v.size == 4 || v.size == 8) && ir::type_size(inst.type) == v.size;
        if (ok) {
          const ir::Operand& val = inst.ops[value_pos];
          ok = reg_size(val) == v.size || (inst.op == Opcode::St && val.kind == OperandKind::Imm);
        }
        st = ok ? kOk : kNo;
      });
    }
  }
  std::unordered_map<uint32_t, uint32_t> reg_of;
  for (const auto& [var, st] : status) {
    if (st != kOk) continue;
    ir::Register r;
    r.name = m.vars[var].name + "$reg";
    r.type = bits_type(m.vars[var].size);
    F.regs.push_back(std::move(r));
    reg_of[var] = static_cast<uint32_t>(F.regs.size() - 1);
  }
  if (!reg_of.empty()) rewrite_promoted(m, F, reg_of);
  prune_locals(m, F);
}

// Drops call-parameter slots that the function no longer references (promoted
// here, or promoted/unused in an inlined callee) from Function::locals.
void prune_locals(const ir::Module& m, ir::Function& F) {
  std::vector<char> used(m.vars.size(), 0);
  for (ir::Instruction& inst : F.insts)
    for (ir::Operand& op : inst.ops) for_each_var_ref(op, [&](ir::Operand& ref) { used[ref.var] = 1; });
  auto& locals = F.locals;
  locals.erase(std::remove_if(locals.begin(), locals.end(),
                              [&](uint32_t v) { return m.vars[v].from_call_param && !used[v]; }),
               locals.end());
}

void rewrite_promoted(const ir::Module& m, ir::Function& F, const std::unordered_map<uint32_t, uint32_t>& reg_of) {
  for (ir::Instruction& inst : F.insts) {
    if ((inst.op != Opcode::Ld && inst.op != Opcode::St) || inst.ops.size() != 2) continue;
    const ir::Operand& a = inst.ops[inst.op == Opcode::Ld ? 1 : 0];
    if (a.kind != OperandKind::Address || a.base != OperandKind::Symbol) continue;
    const uint32_t var = a.var;  // `a` is overwritten below
    auto it = reg_of.find(var);
    if (it == reg_of.end()) continue;
    ir::Operand r;
    r.kind = OperandKind::Reg;
    r.reg = it->second;
    if (inst.op == Opcode::Ld) inst.ops[1] = r;
    else inst.ops[0] = r;
    inst.op = Opcode::Mov;
    inst.type = bits_type(m.vars[var].size);
    inst.space = ir::StateSpace::None;
    inst.volatile_ = false;
    inst.order = ir::MemOrder::None;
    inst.scope = ir::MemScope::None;
  }
}

}  // namespace

void inline_calls(ir::Module& module) {
  CallGraph graph(module);
  // A kernel whose call tree cannot be inlined is rejected on its own: it
  // keeps its diagnostic (given when it is launched or inspected) and an
  // empty body, and the module's other kernels stay usable. A module none of
  // whose kernels can be inlined is an error at load, as a single-kernel file is.
  std::vector<uint32_t> rejected;
  size_t kernels = 0;
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    if (!module.functions[f].is_entry) continue;
    ++kernels;
    if (!module.functions[f].rejected.empty() || !graph.ok(f)) rejected.push_back(f);
  }
  for (uint32_t f : rejected) {
    if (!module.functions[f].rejected.empty()) continue;  // by the parser
    const Problem& p = graph.problem(f);
    const ir::Instruction& at = module.functions[p.func].insts[p.inst];
    std::string message = p.diagnostic.empty()
                              ? ptx::ptx_error_message(module.file, at.loc.line, at.loc.column, p.what, at.text)
                              : p.diagnostic;
    if (rejected.size() == kernels) throw Error(ErrorKind::Ptx, message);
    ir::reject_function(module.functions[f], std::move(message));
  }
  for (uint32_t f : graph.order()) {
    Inliner(module, f).run();
    lower_param_vars(module, f);
    promote_param_slots(module, f);
  }
}

}  // namespace simtlm::frontend::passes
