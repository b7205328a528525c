// Backward bit-vector liveness (see liveness.h).
#include "frontend/analysis/liveness.h"

#include <algorithm>

#include "frontend/analysis/reg_access.h"

namespace simtlm::frontend::analysis {

Liveness::Liveness(const ir::Function& fn, const Cfg& cfg)
    : cfg_(&cfg),
      num_regs_(static_cast<uint32_t>(fn.regs.size())),
      num_insts_(static_cast<uint32_t>(fn.insts.size())),
      words_(words_for_bits(fn.regs.size())) {
  const uint32_t nb = cfg.num_blocks();
  inst_in_.assign(static_cast<size_t>(num_insts_) * words_, 0);
  block_out_.assign(static_cast<size_t>(nb) * words_, 0);
  block_last_.resize(nb);
  for (uint32_t b = 0; b < nb; ++b) block_last_[b] = cfg.end_inst(b);
  if (nb == 0 || words_ == 0) return;

  // Per-block summaries: gen = upward-exposed reads, kill = unconditional writes.
  std::vector<uint64_t> gen(static_cast<size_t>(nb) * words_, 0), kill(gen.size(), 0);
  std::vector<uint64_t> block_in(gen.size(), 0);
  RegAccess acc;
  // Instructions' accesses are needed twice; cache them compactly.
  std::vector<uint32_t> acc_start(num_insts_ + 1, 0);
  std::vector<uint32_t> acc_regs;  // per inst: defs then uses
  std::vector<uint16_t> acc_ndefs(num_insts_, 0);
  std::vector<char> acc_cond(num_insts_, 0);
  for (uint32_t i = 0; i < num_insts_; ++i) {
    collect_reg_access(fn.insts[i], acc);
    acc_start[i] = static_cast<uint32_t>(acc_regs.size());
    acc_ndefs[i] = static_cast<uint16_t>(acc.defs.size());
    acc_cond[i] = acc.defs_conditional;
    acc_regs.insert(acc_regs.end(), acc.defs.begin(), acc.defs.end());
    acc_regs.insert(acc_regs.end(), acc.uses.begin(), acc.uses.end());
  }
  acc_start[num_insts_] = static_cast<uint32_t>(acc_regs.size());

  auto setb = [](uint64_t* w, uint32_t r) { w[r >> 6] |= uint64_t{1} << (r & 63); };
  auto clrb = [](uint64_t* w, uint32_t r) { w[r >> 6] &= ~(uint64_t{1} << (r & 63)); };

  for (uint32_t b = 0; b < nb; ++b) {
    uint64_t* g = gen.data() + static_cast<size_t>(b) * words_;
    uint64_t* k = kill.data() + static_cast<size_t>(b) * words_;
    for (uint32_t i = block_last_[b]; i-- > cfg.first_inst(b);) {
      const uint32_t* regs = acc_regs.data() + acc_start[i];
      uint32_t ndefs = acc_ndefs[i], nall = acc_start[i + 1] - acc_start[i];
      if (!acc_cond[i])
        for (uint32_t d = 0; d < ndefs; ++d) {
          setb(k, regs[d]);
          clrb(g, regs[d]);
        }
      for (uint32_t u = ndefs; u < nall; ++u) setb(g, regs[u]);
    }
  }

  // Fixed point, iterating blocks in post-order (reverse of RPO) with a
  // worklist; unreachable blocks are included so every block has sets.
  std::vector<uint32_t> order;
  {
    std::vector<char> in_rpo(nb, 0);
    const auto& rpo = cfg.rpo();
    order.assign(rpo.rbegin(), rpo.rend());
    for (uint32_t b : rpo) in_rpo[b] = 1;
    for (uint32_t b = nb; b-- > 0;)
      if (!in_rpo[b]) order.push_back(b);
  }
  std::vector<char> queued(nb, 1);
  std::vector<uint32_t> work(order.rbegin(), order.rend());  // pop_back yields post-order
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    queued[b] = 0;
    uint64_t* out = block_out_.data() + static_cast<size_t>(b) * words_;
    for (uint32_t s : cfg.succs(b)) {
      if (s >= nb) continue;
      const uint64_t* sin = block_in.data() + static_cast<size_t>(s) * words_;
      for (size_t w = 0; w < words_; ++w) out[w] |= sin[w];
    }
    uint64_t* in = block_in.data() + static_cast<size_t>(b) * words_;
    const uint64_t* g = gen.data() + static_cast<size_t>(b) * words_;
    const uint64_t* k = kill.data() + static_cast<size_t>(b) * words_;
    bool changed = false;
    for (size_t w = 0; w < words_; ++w) {
      uint64_t n = g[w] | (out[w] & ~k[w]);
      if (n != in[w]) {
        in[w] = n;
        changed = true;
      }
    }
    if (!changed) continue;
    for (uint32_t p : cfg.preds(b))
      if (p < nb && !queued[p]) {
        queued[p] = 1;
        work.push_back(p);
      }
  }

  // Per-instruction live-in sets.
  std::vector<uint64_t> cur(words_);
  for (uint32_t b = 0; b < nb; ++b) {
    const uint64_t* out = block_out_.data() + static_cast<size_t>(b) * words_;
    std::copy(out, out + words_, cur.begin());
    for (uint32_t i = block_last_[b]; i-- > cfg.first_inst(b);) {
      const uint32_t* regs = acc_regs.data() + acc_start[i];
      uint32_t ndefs = acc_ndefs[i], nall = acc_start[i + 1] - acc_start[i];
      if (!acc_cond[i])
        for (uint32_t d = 0; d < ndefs; ++d) clrb(cur.data(), regs[d]);
      for (uint32_t u = ndefs; u < nall; ++u) setb(cur.data(), regs[u]);
      std::copy(cur.begin(), cur.end(), inst_in_.begin() + static_cast<size_t>(i) * words_);
    }
  }
}

BitsView Liveness::live_out(uint32_t inst) const {
  uint32_t b = cfg_->block_of(inst);
  if (inst + 1 < block_last_[b]) return live_in(inst + 1);
  return block_live_out(b);
}

BitsView Liveness::block_live_in(uint32_t block) const { return live_in(cfg_->first_inst(block)); }

}  // namespace simtlm::frontend::analysis
