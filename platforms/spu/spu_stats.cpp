// SpuPlatform statistics (spu platform only): under <top>.spu the interface
// units' SM counters (iu[k], Sm::register_stats), every link's CB accesses
// (cb[i]: the thesis's CB_ACC, per link), the blocksync waits per node
// (sm[i] for the grid, iu[k]) and their totals; the summary's SPU lines.
#include <string>

#include "platforms/common/summary_format.h"
#include "platforms/spu/spu_platform.h"
#include "platforms/spu/spu_sync.h"

namespace simtlm::platforms::spu {

void SpuPlatform::register_topology_stats(const stats::Group& top) {
  GpuPlatform::register_topology_stats(top);
  const stats::Group spu = top.child("spu");
  for (unsigned i = 0; i < p_ * p_; ++i) sync_->register_node_stats(spu.child("sm", i), i);
  for (unsigned k = 0; k < ius_.size(); ++k) {
    const stats::Group g = spu.child("iu", k);
    ius_[k]->register_stats(g);
    sync_->register_node_stats(g, p_ * p_ + k);
    movers_[k]->register_stats(g);
    if (dma_ius_) movers_[k]->register_dma_stats(g);
  }
  for (unsigned i = 0; i < links_.size(); ++i) links_[i]->register_stats(spu.child("cb", i));
  const std::string p = spu.prefix() + ".";
  spu.formula("cb_writes", "sum(" + p + "cb[*].writes)", "transactions", "CB stores, all links");
  spu.formula("cb_reads", "sum(" + p + "cb[*].reads)", "transactions", "CB loads, all links");
  spu.formula("cb_accesses", "@cb_writes + @cb_reads", "transactions",
              "CB accesses, all links (CB_ACC: one per 128-byte bank row a warp accesses)");
  spu.formula("blocksync_waits", "sum(" + p + "sm[*].blocksync_waits) + sum(" + p + "iu[*].blocksync_waits)",
              "rendezvous", "bar.blocksync arrivals of every unit (grid SMs and interface units)");
  spu.formula("blocksync_wait_cycles",
              "sum(" + p + "sm[*].blocksync_wait_cycles) + sum(" + p + "iu[*].blocksync_wait_cycles)", "core cycles",
              "cycles units spent between arriving at a bar.blocksync rendezvous and their release");
  sync_->register_stats(spu);
  spu.formula("viu_spills", "sum(" + p + "iu[*].viu_spills)", "faces",
              "faces the virtual IUs spilled to global memory (multi-pass launches)");
  spu.formula("viu_restores", "sum(" + p + "iu[*].viu_restores)", "faces",
              "faces the virtual IUs restored from global memory (multi-pass launches)");
  spu.formula("iu_warp_instructions", "sum(" + p + "iu[*].warp_instructions)", "instructions",
              "warp instructions of the interface units (those on their own nodes)");
}

void SpuPlatform::refresh_topology_stats() {
  GpuPlatform::refresh_topology_stats();
  for (auto& iu : ius_) {
    iu->stats();
    if (models::Cache* l1 = iu->l1d()) l1->stats();
  }
}

void SpuPlatform::summarize_topology(const stats::Values& v, const SummaryLine& line) const {
  GpuPlatform::summarize_topology(v, line);
  const stats::Registry& r = registry();
  const std::string p = std::string(name()) + ".spu.";
  auto count = [&](const std::string& n) { return summary_number(r.value(p + n, v), 0); };
  line("SPU", std::to_string(p_) + "x" + std::to_string(p_) + " SMs, " + std::to_string(ius_.size()) +
                  " IUs; CB accesses " + count("cb_accesses") + " (" + count("cb_writes") + " writes), IU " +
                  count("iu_warp_instructions") + " warp instructions");
  line("SPU blocksync", count("blocksync_waits") + " waits, " + count("blocksync_wait_cycles") + " cycles waited");
  line("SPU VIUs", count("passes") + " passes; virtual IUs spilled " + count("viu_spills") + " and restored " +
                         count("viu_restores") + " faces");
}

}  // namespace simtlm::platforms::spu
