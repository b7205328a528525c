// Static release tail of the relssp placement (see relssp_release.h).
#include "frontend/passes/relssp_release.h"

#include <algorithm>
#include <vector>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/static_cost.h"
#include "frontend/passes/rewrite.h"

namespace simtlm::frontend::passes {

std::optional<RelsspRelease> relssp_release(const ir::Function& fn, uint64_t unknown_iterations) {
  const auto* marks = fn.annotations.find<uint8_t>("relssp.inserted");
  if (marks == nullptr || !fn.analysis.analyses) return std::nullopt;
  const analysis::FunctionAnalyses& a = *fn.analysis.analyses;
  const analysis::Cfg& cfg = a.cfg;
  const std::vector<uint64_t> times = analysis::block_multipliers(
      cfg, a.loops, analysis::constant_trip_counts(fn, cfg, a.dominators, a.loops), unknown_iterations);
  std::vector<uint64_t> weight(cfg.num_blocks());
  for (uint32_t b = 0; b < cfg.num_blocks(); ++b)
    weight[b] = analysis::saturating_mul(cfg.end_inst(b) - cfg.first_inst(b), times[b]);
  const std::vector<uint64_t> to_exit = analysis::longest_path_to_exit(cfg, a.loops, weight);

  std::optional<RelsspRelease> out;
  for (uint32_t pc = 0; pc < marks->size() && pc < fn.insts.size(); ++pc) {
    if ((*marks)[pc] != kInsertedRelssp) continue;
    const uint32_t b = cfg.block_of(pc);
    // The rest of b after the relssp, then the longest way on from b. (A
    // relssp runs once per thread, so it is never inside a loop and the
    // block's multiplier is 1; weighting keeps the count right regardless.)
    uint64_t beyond = 0;
    for (uint32_t s : cfg.succs(b))
      if (s == cfg.exit_node() || (cfg.reachable(s) && !a.loops.is_back_edge(b, s))) beyond = std::max(beyond, to_exit[s]);
    const uint64_t rest = analysis::saturating_mul(cfg.end_inst(b) - pc - 1, times[b]);
    const uint64_t after = rest > ~uint64_t{0} - beyond ? ~uint64_t{0} : rest + beyond;
    if (!out) out = RelsspRelease{0, to_exit[cfg.entry()]};
    out->after = std::max(out->after, after);
  }
  return out;
}

}  // namespace simtlm::frontend::passes
