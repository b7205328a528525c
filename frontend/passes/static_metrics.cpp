// AD_int and CI_pred (see static_metrics.h).
#include "frontend/passes/static_metrics.h"

#include <algorithm>

#include "frontend/analysis/cfg.h"
#include "frontend/analysis/reg_access.h"

namespace simtlm::frontend::passes {

std::vector<uint32_t> list_schedule(const std::vector<SchedNode>& block) {
  const size_t n = block.size();
  // Longest path to the end of the block (latencies of producers on it).
  std::vector<uint64_t> height(n, 0);
  for (size_t i = n; i-- > 0;)
    for (uint32_t p : block[i].after) height[p] = std::max(height[p], height[i] + block[p].latency);
  std::vector<uint32_t> issue(n, 0);
  std::vector<char> done(n, 0);
  uint32_t cycle = 0;
  for (size_t scheduled = 0; scheduled < n;) {
    size_t pick = n;
    for (size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (uint32_t p : block[i].after) ready = ready && done[p] && issue[p] + block[p].latency <= cycle;
      for (uint32_t p : block[i].order) ready = ready && done[p];  // issued in an earlier cycle
      if (ready && (pick == n || height[i] > height[pick])) pick = i;
    }
    if (pick != n) {
      issue[pick] = cycle;
      done[pick] = 1;
      ++scheduled;
    }
    ++cycle;
  }
  return issue;
}

namespace {

bool keeps_order(const ir::Instruction& i) {
  switch (i.op) {
    case ir::Opcode::Ld: case ir::Opcode::Ldu: case ir::Opcode::St: case ir::Opcode::Atom: case ir::Opcode::Red:
    case ir::Opcode::Bar: case ir::Opcode::Membar: case ir::Opcode::Fence: case ir::Opcode::Bra:
    case ir::Opcode::BrxIdx: case ir::Opcode::Ret: case ir::Opcode::Exit: case ir::Opcode::Call:
    case ir::Opcode::Extension: case ir::Opcode::Shfl: case ir::Opcode::Vote: case ir::Opcode::Prefetch:
      return true;
    default:
      return false;
  }
}

uint32_t latency_of(const ir::Instruction& i, const LatencyModel& l) {
  switch (i.op) {
    case ir::Opcode::Ld: case ir::Opcode::Ldu:
      return i.space == ir::StateSpace::Shared ? l.shared : l.offchip;
    case ir::Opcode::Rcp: case ir::Opcode::Sqrt: case ir::Opcode::Rsqrt: case ir::Opcode::Ex2:
    case ir::Opcode::Lg2: case ir::Opcode::Sin: case ir::Opcode::Cos: case ir::Opcode::Tanh:
      return l.sfu;
    default:
      return l.alu;
  }
}

bool is_offchip(const ir::Instruction& i) {
  switch (i.op) {
    case ir::Opcode::Ld: case ir::Opcode::Ldu: case ir::Opcode::St: case ir::Opcode::Atom: case ir::Opcode::Red:
      return i.space != ir::StateSpace::Shared && i.space != ir::StateSpace::Param;
    default:
      return false;
  }
}

}  // namespace

double average_dispatch_interval(const ir::Function& fn, const LatencyModel& latency) {
  ir::Function copy = fn;
  if (copy.blocks.empty()) analysis::build_cfg(copy);
  uint64_t cycles = 0, pairs = 0;
  analysis::RegAccess acc;
  for (const ir::BasicBlock& b : copy.blocks) {
    std::vector<SchedNode> nodes(b.last - b.first);
    std::vector<int64_t> last_def(fn.regs.size(), -1);
    std::vector<std::vector<uint32_t>> readers(fn.regs.size());
    int64_t last_ordered = -1;
    for (uint32_t pc = b.first; pc < b.last; ++pc) {
      const uint32_t k = pc - b.first;
      const ir::Instruction& inst = copy.insts[pc];
      SchedNode& node = nodes[k];
      node.latency = latency_of(inst, latency);
      analysis::collect_reg_access(inst, acc);
      for (uint32_t u : acc.uses)
        if (last_def[u] >= 0) node.after.push_back(static_cast<uint32_t>(last_def[u]));
      for (uint32_t d : acc.defs) {
        if (last_def[d] >= 0) node.order.push_back(static_cast<uint32_t>(last_def[d]));  // WAW
        for (uint32_t r : readers[d]) node.order.push_back(r);                         // WAR
      }
      if (keeps_order(inst)) {
        if (last_ordered >= 0) node.order.push_back(static_cast<uint32_t>(last_ordered));
        last_ordered = k;
      }
      for (uint32_t u : acc.uses) readers[u].push_back(k);
      for (uint32_t d : acc.defs) {
        last_def[d] = k;
        readers[d].clear();
      }
    }
    // A block's terminator stays last.
    if (!nodes.empty() && analysis::ends_block(copy.insts[b.last - 1]))
      for (uint32_t k = 0; k + 1 < nodes.size(); ++k) nodes.back().order.push_back(k);
    if (nodes.size() < 2) continue;
    const std::vector<uint32_t> issue = list_schedule(nodes);
    cycles += *std::max_element(issue.begin(), issue.end());
    pairs += nodes.size() - 1;
  }
  return pairs ? static_cast<double>(cycles) / static_cast<double>(pairs) : 1.0;
}

InstructionMix instruction_mix(const ir::Function& fn) {
  InstructionMix m;
  for (const ir::Instruction& i : fn.insts) (is_offchip(i) ? m.memory : m.compute) += 1;
  return m;
}

bool computation_interleaving(const InstructionMix& mix, double ad_int, double max_cmratio) {
  if (mix.memory == 0) return true;
  return static_cast<double>(mix.compute) * ad_int / static_cast<double>(mix.memory) > max_cmratio;
}

}  // namespace simtlm::frontend::passes
