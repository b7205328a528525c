#include "models/sm/l1d_locality.h"

namespace simtlm::models {

void L1dLocality::on_warp_launch(const WarpEvent& e) {
  if (e.warp_slot >= warp_uid_.size()) warp_uid_.resize(e.warp_slot + 1, 0);
  warp_uid_[e.warp_slot] = ++next_uid_;
}

void L1dLocality::on_cache_event(const CacheEvent& e) {
  if (e.access != AccessKind::Load) return;
  const uint64_t who = uid(e.warp_id);
  switch (e.kind) {
    case CacheEventKind::Hit: {
      const auto it = owner_.find(e.line_addr);
      // A line present without a recorded allocation cannot happen for
      // loads (every allocation is a miss we saw); count it as inter-warp.
      (it != owner_.end() && it->second == who ? c_.hits_intra_warp : c_.hits_inter_warp)++;
      break;
    }
    case CacheEventKind::Miss: {
      const auto it = owner_.find(e.line_addr);
      if (it == owner_.end()) {
        ++c_.misses_compulsory;
        owner_.emplace(e.line_addr, who);
      } else {
        (it->second == who ? c_.misses_intra_warp : c_.misses_inter_warp)++;
        it->second = who;
      }
      break;
    }
    case CacheEventKind::MshrMerge: ++c_.merges; break;
    case CacheEventKind::SectorMiss: ++c_.sector_misses; break;
    default: break;
  }
}

void L1dLocality::register_stats(const stats::Group& g, const std::string& instructions) {
  g.counter("hits_intra_warp", &c_.hits_intra_warp, "hits", "L1D load hits on lines allocated by the same warp");
  g.counter("hits_inter_warp", &c_.hits_inter_warp, "hits", "L1D load hits on lines allocated by another warp");
  g.counter("misses_compulsory", &c_.misses_compulsory, "misses", "L1D load misses on lines never in this L1D");
  g.counter("misses_intra_warp", &c_.misses_intra_warp, "misses",
            "L1D load misses on lines last allocated by the same warp (lost intra-warp locality)");
  g.counter("misses_inter_warp", &c_.misses_inter_warp, "misses",
            "L1D load misses on lines last allocated by another warp (lost inter-warp locality)");
  g.counter("merges", &c_.merges, "loads", "L1D load lookups that joined a miss in flight");
  g.counter("sector_misses", &c_.sector_misses, "loads", "L1D load lookups that found the line without the sectors");
  const std::string kinst = "(" + instructions + " / 1000)";
  g.formula("mpki", "(@misses_compulsory + @misses_intra_warp + @misses_inter_warp) / " + kinst, "misses/kinst",
            "L1D load misses per thousand warp instructions");
  g.formula("intra_warp_hits_pki", "@hits_intra_warp / " + kinst, "hits/kinst", "intra-warp hits per kinst");
  g.formula("inter_warp_hits_pki", "@hits_inter_warp / " + kinst, "hits/kinst", "inter-warp hits per kinst");
}

}  // namespace simtlm::models
