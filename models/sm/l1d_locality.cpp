#include "models/sm/l1d_locality.h"

namespace simtlm::models {

L1dLocality::L1dLocality(uint32_t max_warps, uint32_t line_bytes)
    : warp_uid_(max_warps, 0), slots_(max_warps), line_mask_(~uint64_t{line_bytes - 1}) {}

void L1dLocality::on_warp_issue(const IssueRecord& r) {
  if (r.cls != functional::ExecClass::Load || r.exec == nullptr || r.exec->addresses == nullptr) return;
  // Lanes per line of this load (a warp's load touches few lines: a short list).
  uint64_t lines[64];
  uint64_t masks[64];
  unsigned n = 0;
  for (uint64_t m = r.exec->exec_mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
    const uint64_t line = r.exec->addresses[lane] & line_mask_;
    unsigned i = 0;
    while (i < n && lines[i] != line) ++i;
    if (i == n) {
      lines[n] = line;
      masks[n++] = 0;
    }
    masks[i] |= uint64_t{1} << lane;
  }
  for (unsigned i = 0; i < n; ++i) issued_[lines[i] * slots_ + r.warp_slot] = masks[i];
}

uint64_t L1dLocality::lanes_of(int32_t slot, uint64_t line) const {
  if (slot < 0) return 0;
  const auto it = issued_.find((line & line_mask_) * slots_ + static_cast<uint32_t>(slot));
  return it == issued_.end() ? 0 : it->second;
}

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
      if (it != owner_.end() && it->second == who) {
        ++c_.hits_intra_warp;
        uint64_t& touched = touched_[e.line_addr];
        const uint64_t lanes = lanes_of(e.warp_id, e.line_addr);
        if ((lanes & touched) != 0) ++c_.hits_intra_thread;
        touched |= lanes;
      } else {
        ++c_.hits_inter_warp;
      }
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
      touched_[e.line_addr] = lanes_of(e.warp_id, e.line_addr);
      break;
    }
    case CacheEventKind::MshrMerge: ++c_.merges; break;
    case CacheEventKind::SectorMiss: ++c_.sector_misses; break;
    default: break;
  }
}

void L1dLocality::register_stats(const stats::Group& g, const std::string& instructions) {
  g.counter("hits_intra_warp", &c_.hits_intra_warp, "hits", "L1D load hits on lines allocated by the same warp");
  g.counter("hits_intra_thread", &c_.hits_intra_thread, "hits",
            "of the intra-warp hits, those where a hitting lane had touched the line since its allocation");
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
  g.formula("intra_thread_hits_pki", "@hits_intra_thread / " + kinst, "hits/kinst", "intra-thread hits per kinst");
  g.formula("inter_warp_hits_pki", "@hits_inter_warp / " + kinst, "hits/kinst", "inter-warp hits per kinst");
}

}  // namespace simtlm::models
