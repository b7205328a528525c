// Natural-loop detection from back edges (see loops.h).
#include "frontend/analysis/loops.h"

#include <algorithm>

namespace simtlm::frontend::analysis {

LoopInfo::LoopInfo(const Cfg& cfg, const DominatorTree& dom) {
  const uint32_t nb = cfg.num_blocks();
  innermost_.assign(nb, kNoLoop);

  // Back edges grouped by header, headers in ascending order.
  std::vector<std::vector<uint32_t>> latches_of(nb);
  for (uint32_t b = 0; b < nb; ++b) {
    if (!cfg.reachable(b)) continue;
    for (uint32_t s : cfg.succs(b))
      if (s < nb && dom.dominates(s, b)) latches_of[s].push_back(b);
  }

  std::vector<char> in_body(nb, 0);
  std::vector<uint32_t> work;
  for (uint32_t h = 0; h < nb; ++h) {
    if (latches_of[h].empty()) continue;
    Loop loop;
    loop.header = h;
    loop.latches = latches_of[h];
    std::sort(loop.latches.begin(), loop.latches.end());
    std::fill(in_body.begin(), in_body.end(), 0);
    in_body[h] = 1;
    for (uint32_t l : loop.latches)
      if (!in_body[l]) {
        in_body[l] = 1;
        work.push_back(l);
      }
    while (!work.empty()) {
      uint32_t v = work.back();
      work.pop_back();
      for (uint32_t p : cfg.preds(v))
        if (p < nb && !in_body[p] && cfg.reachable(p)) {
          in_body[p] = 1;
          work.push_back(p);
        }
    }
    for (uint32_t b = 0; b < nb; ++b)
      if (in_body[b]) loop.blocks.push_back(b);
    loops_.push_back(std::move(loop));
  }

  // Nesting: loop A contains loop B when B's header is in A's body (and A != B).
  // Natural loops with distinct headers are either nested or disjoint, so the
  // innermost container of a block is the containing loop with the fewest blocks.
  for (uint32_t li = 0; li < loops_.size(); ++li) {
    for (uint32_t b : loops_[li].blocks) {
      uint32_t cur = innermost_[b];
      if (cur == kNoLoop || loops_[li].blocks.size() < loops_[cur].blocks.size()) innermost_[b] = li;
    }
  }
  for (uint32_t li = 0; li < loops_.size(); ++li) {
    Loop& loop = loops_[li];
    uint32_t best = kNoLoop;
    for (uint32_t lj = 0; lj < loops_.size(); ++lj) {
      if (lj == li) continue;
      const auto& body = loops_[lj].blocks;
      if (loops_[lj].blocks.size() <= loop.blocks.size()) continue;
      if (!std::binary_search(body.begin(), body.end(), loop.header)) continue;
      if (best == kNoLoop || body.size() < loops_[best].blocks.size()) best = lj;
    }
    loop.parent = best;
  }
  // Depths: parents have strictly larger bodies, so process by body size descending.
  std::vector<uint32_t> order(loops_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return loops_[a].blocks.size() > loops_[b].blocks.size();
  });
  for (uint32_t li : order)
    loops_[li].depth = loops_[li].parent == kNoLoop ? 1 : loops_[loops_[li].parent].depth + 1;
}

std::vector<uint32_t> LoopInfo::headers() const {
  std::vector<uint32_t> out;
  for (const Loop& l : loops_) out.push_back(l.header);
  return out;
}

bool LoopInfo::is_back_edge(uint32_t from, uint32_t to) const {
  for (const Loop& l : loops_)
    if (l.header == to) return std::binary_search(l.latches.begin(), l.latches.end(), from);
  return false;
}

}  // namespace simtlm::frontend::analysis
