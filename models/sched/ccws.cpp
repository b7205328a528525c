#include "models/sched/ccws.h"

#include <algorithm>

namespace simtlm::models::sched {

namespace {

uint32_t bits_for(uint64_t values) {
  uint32_t n = 0;
  while ((uint64_t{1} << n) < values) ++n;
  return n;
}

}  // namespace

CcwsPolicy::CcwsPolicy(const PolicyParams& params)
    : gto_(params),
      scores_(params.max_warps, params.base_score, params.k_throttle),
      vta_(params.max_warps, params.vta_entries_per_warp, params.vta_ways, params.line_bytes),
      storage_bits_(storage_bits(params, params.l1d_lines)) {}

void CcwsPolicy::warp_added(const WarpInfo& warp) {
  gto_.warp_added(warp);
  vta_.clear(warp.slot);
  scores_.add(warp.slot, warp.age, cycle_);
  updated_ = ~0ull;
}

void CcwsPolicy::warp_removed(uint32_t slot) {
  gto_.warp_removed(slot);
  scores_.remove(slot, cycle_);
  updated_ = ~0ull;
}

const std::vector<uint32_t>& CcwsPolicy::order(unsigned scheduler, uint64_t cycle) {
  cycle_ = std::max(cycle_, cycle);
  if (updated_ != cycle) {
    scores_.update(cycle);
    blocked_warp_cycles_ += scores_.blocked();
    updated_ = cycle;
  }
  return gto_.order(scheduler, cycle);
}

void CcwsPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) {
  cycle_ = std::max(cycle_, cycle);
  gto_.on_issue(slot, scheduler, cls, cycle);
  scores_.instruction(cycle);
}

void CcwsPolicy::on_cache_event(const CacheEvent& e) {
  cycle_ = std::max(cycle_, e.cycle);
  if (e.kind == CacheEventKind::Evict) {
    if (e.owner_warp >= 0) {
      vta_.insert(static_cast<uint32_t>(e.owner_warp), e.line_addr);
      ++vta_inserts_;
    }
  } else if (e.kind == CacheEventKind::Miss && e.access == AccessKind::Load && e.warp_id >= 0) {
    ++vta_probes_;
    if (vta_.probe(static_cast<uint32_t>(e.warp_id), e.line_addr)) {
      ++vta_hits_;
      scores_.vta_hit(static_cast<uint32_t>(e.warp_id), cycle_);
      updated_ = ~0ull;  // the permissions of this cycle change
    }
  }
}

void CcwsPolicy::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("ccws");
  g.counter("vta_inserts", &vta_inserts_, "tags", "L1D evictions whose tag entered the owner warp's victim tags");
  g.counter("vta_probes", &vta_probes_, "probes", "L1D load misses probed in the missing warp's victim tags");
  g.counter("vta_hits", &vta_hits_, "hits", "victim tag hits: lost intra-warp locality detected (Rogers §3.2.3)");
  g.counter("blocked_warp_cycles", &blocked_warp_cycles_, "warp-cycles",
            "sum over evaluated cycles of the warps whose loads were throttled");
  g.level("storage_bits", &storage_bits_, "bits",
          "victim tags + owner-warp ids of the L1D lines + 10-bit scores per warp (Rogers §3.4.7)");
}

std::string CcwsPolicy::describe(unsigned scheduler) const {
  return "ccws: " + std::to_string(scores_.blocked()) + " warps load-throttled, cutoff " +
         std::to_string(scores_.cutoff()) + ", VTA hits " + std::to_string(vta_hits_) + "; " +
         gto_.describe(scheduler);
}

uint64_t CcwsPolicy::storage_bits(const PolicyParams& p, uint64_t l1d_lines) {
  const VictimTagArray vta(p.max_warps, p.vta_entries_per_warp, p.vta_ways, p.line_bytes);
  const uint64_t owner_bits = l1d_lines * bits_for(p.max_warps);
  const uint64_t score_bits = static_cast<uint64_t>(p.max_warps) * 10;
  return vta.storage_bits() + owner_bits + score_bits;
}

}  // namespace simtlm::models::sched
