// Inter-procedural slot layouts (see moving_stack.h).
#include "frontend/passes/moving_stack.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::frontend::passes {

namespace {

void check(const CallChain& c) {
  if (c.frames.empty() || c.live_across.size() + 1 != c.frames.size())
    throw Error(ErrorKind::Internal, "call chain: one live-across set per call is needed");
  for (size_t j = 0; j < c.live_across.size(); ++j)
    for (uint32_t s : c.live_across[j])
      if (s >= c.frames[j]) throw Error(ErrorKind::Internal, "call chain: a live slot outside its frame");
}

}  // namespace

uint32_t traditional_depth(const CallChain& chain) {
  check(chain);
  uint32_t d = 0;
  for (uint32_t f : chain.frames) d += f;
  return d;
}

uint32_t register_stack_depth(const CallChain& chain) {
  check(chain);
  uint32_t d = chain.frames.back();
  for (const auto& live : chain.live_across)
    d += live.empty() ? 0 : *std::max_element(live.begin(), live.end()) + 1;
  return d;
}

std::vector<uint32_t> moving_stack_bases(const CallChain& chain) {
  check(chain);
  std::vector<uint32_t> bases = {0};
  for (const auto& live : chain.live_across) bases.push_back(bases.back() + static_cast<uint32_t>(live.size()));
  return bases;
}

uint32_t moving_stack_depth(const CallChain& chain) { return moving_stack_bases(chain).back() + chain.frames.back(); }

std::vector<std::pair<uint32_t, uint32_t>> compaction_moves(const std::vector<uint32_t>& live) {
  std::vector<uint32_t> sorted = live;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const uint32_t m = static_cast<uint32_t>(sorted.size());
  std::vector<char> taken(m, 0);
  for (uint32_t s : sorted)
    if (s < m) taken[s] = 1;
  std::vector<std::pair<uint32_t, uint32_t>> moves;
  uint32_t free = 0;
  for (uint32_t s : sorted) {
    if (s < m) continue;
    while (taken[free]) ++free;
    taken[free] = 1;
    moves.emplace_back(s, free);
  }
  return moves;
}

std::vector<uint32_t> max_live_over_calls(const std::vector<ProcedureLiveness>& procedures,
                                          const std::vector<std::string>& names) {
  const size_t n = procedures.size();
  std::vector<uint32_t> result(n, 0);
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on the path, 2 done
  // Depth-first, bottom-up; an explicit stack keeps deep DAGs off the C++ stack.
  for (size_t root = 0; root < n; ++root) {
    if (state[root] == 2) continue;
    std::vector<std::pair<uint32_t, size_t>> stack = {{static_cast<uint32_t>(root), 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [p, next] = stack.back();
      const ProcedureLiveness& proc = procedures[p];
      bool descended = false;
      for (; next < proc.callee.size(); ++next) {
        const int32_t q = proc.callee[next];
        if (q < 0) continue;
        if (state[q] == 1)
          throw Error(ErrorKind::Input, "procedure '" + names.at(q) + "' is called recursively (from '" +
                                            names.at(p) + "'): its slot frame has no static size");
        if (state[q] == 0) {
          state[q] = 1;
          stack.push_back({static_cast<uint32_t>(q), 0});
          descended = true;
          break;
        }
      }
      if (descended) continue;
      uint32_t best = 0;
      for (size_t i = 0; i < proc.live_on_exit.size(); ++i) {
        const int32_t q = i < proc.callee.size() ? proc.callee[i] : -1;
        best = std::max(best, proc.live_on_exit[i] + (q >= 0 ? result[q] : 0));
      }
      result[p] = best;
      state[p] = 2;
      stack.pop_back();
    }
  }
  return result;
}

}  // namespace simtlm::frontend::passes
