#include "frontend/passes/rewrite.h"

#include "simtlm/error.h"

namespace simtlm::frontend::passes {

FunctionRewriter::FunctionRewriter(const ir::Function& fn)
    : n_(static_cast<uint32_t>(fn.insts.size())), before_(n_ + 1), after_(n_) {
  if (n_ >= kTailBit) throw Error(ErrorKind::Internal, "function '" + fn.name + "' is too large to rewrite");
}

void FunctionRewriter::insert_before(uint32_t pc, ir::Instruction inst, uint8_t kind) {
  before_.at(pc).push_back({std::move(inst), kind});
  ++edits_;
}

void FunctionRewriter::insert_after(uint32_t pc, ir::Instruction inst, uint8_t kind) {
  after_.at(pc).push_back({std::move(inst), kind});
  ++edits_;
}

uint32_t FunctionRewriter::add_tail_block(std::vector<ir::Instruction> insts, std::vector<uint8_t> kinds,
                                          std::string label) {
  Tail t;
  t.label = std::move(label);
  for (size_t i = 0; i < insts.size(); ++i) t.insts.push_back({std::move(insts[i]), kinds.at(i)});
  tail_.push_back(std::move(t));
  ++edits_;
  return kTailBit | static_cast<uint32_t>(tail_.size() - 1);
}

void FunctionRewriter::replace(uint32_t pc, ir::Instruction inst) {
  if (pc >= n_) throw Error(ErrorKind::Internal, "rewrite: no instruction " + std::to_string(pc));
  replaced_[pc] = std::move(inst);
  ++edits_;
}

const ir::Instruction& FunctionRewriter::current(const ir::Function& fn, uint32_t pc) const {
  auto it = replaced_.find(pc);
  return it != replaced_.end() ? it->second : fn.insts.at(pc);
}

ir::Instruction FunctionRewriter::branch_to(uint32_t target, const ir::SourceLoc& loc) {
  ir::Instruction b;
  b.op = ir::Opcode::Bra;
  b.uni = true;
  ir::Operand l;
  l.kind = ir::OperandKind::Label;
  l.target = target;
  b.ops.push_back(l);
  b.loc = loc;
  b.text = "bra.uni";
  return b;
}

std::vector<uint8_t> FunctionRewriter::apply(ir::Function& fn) const {
  if (fn.insts.size() != n_) throw Error(ErrorKind::Internal, "rewrite applied to another function");
  std::vector<ir::Instruction> original = std::move(fn.insts);
  for (const auto& [pc, inst] : replaced_) original[pc] = inst;
  std::vector<ir::Instruction> out;
  std::vector<uint8_t> marks;
  std::vector<uint32_t> start(n_ + 1);  // new index where branches to an original pc land
  auto emit = [&](const std::vector<Added>& v) {
    for (const Added& a : v) {
      out.push_back(a.inst);
      marks.push_back(a.kind);
    }
  };
  for (uint32_t pc = 0; pc <= n_; ++pc) {
    start[pc] = static_cast<uint32_t>(out.size());
    emit(before_[pc]);
    if (pc == n_) break;
    out.push_back(std::move(original[pc]));
    marks.push_back(0);
    emit(after_[pc]);
  }
  // A tail block must not be reached by falling off the original end.
  if (!tail_.empty() && !out.empty()) {
    const ir::Instruction& last = out.back();
    const bool falls = last.has_guard || (last.op != ir::Opcode::Bra && last.op != ir::Opcode::BrxIdx &&
                                          last.op != ir::Opcode::Ret && last.op != ir::Opcode::Exit);
    if (falls) {
      ir::Instruction ret;
      ret.op = ir::Opcode::Ret;
      ret.loc = last.loc;
      ret.text = "ret";
      out.push_back(ret);
      marks.push_back(kInsertedExit);
    }
  }
  std::vector<uint32_t> tail_start;
  for (const Tail& t : tail_) {
    tail_start.push_back(static_cast<uint32_t>(out.size()));
    emit(t.insts);
  }
  auto map = [&](uint32_t target) {
    if (target & kTailBit) return tail_start.at(target & ~kTailBit);
    return target <= n_ ? start[target] : target;
  };
  for (ir::Instruction& inst : out) {
    for (ir::Operand& o : inst.ops)
      if (o.kind == ir::OperandKind::Label) o.target = map(o.target);
    for (uint32_t& t : inst.targets) t = map(t);
    inst.reconverge_pc = ir::kNoReconvergence;  // analyze() sets it again
  }
  for (auto& [name, pc] : fn.labels) pc = map(pc);
  for (size_t k = 0; k < tail_.size(); ++k) {
    if (tail_[k].label.empty()) continue;
    if (!fn.labels.emplace(tail_[k].label, tail_start[k]).second)
      throw Error(ErrorKind::Internal, "rewrite: label '" + tail_[k].label + "' already exists in " + fn.name);
  }
  fn.insts = std::move(out);
  fn.blocks.clear();
  return marks;
}

}  // namespace simtlm::frontend::passes
