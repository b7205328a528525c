// The Stencil Processing Unit on the timing backend (sim.platform = spu;
// Rajasree, seed note 003 §1, §6.1; docs/spu.md). The gpu platform's memory
// side (crossbar, L2, DRAM: platforms/gpu/) with
//
//   - the p x p grid of unchanged SMs (gpu.num_sms = p * p; SM (x, y) is
//     gpu.sm[y * p + x]);
//   - 4p interface units (IUs) on the edges, truncated SMs: Sm modules with
//     the same parameters, each reaching global memory through its own
//     crossbar port (after the SMs'), whose code the capability table of
//     Table 5.2 restricts (functional::spu::check_iu_capabilities, after
//     every instruction);
//   - a CB pair per directed link (models/spu/cb_link.h), 2p(p+1) links, each
//     joined by TLM sockets to its producer's and its consumer's LD/ST unit
//     (memory spaces cb_north ... cb_east, models/spu/spu_timing.h);
//   - the bar.blocksync rendezvous (spu_sync.h): a unit arrives when all warps
//     of its CTA wait at it (the SM's on_warp_barrier / on_warp_finish), the
//     functional fabric (functional/spu/spu_fabric.h) completes it and swaps
//     the CBs, and the released units' warps leave the barrier
//     spu.sync_latency cycles later (Sm::release_external_barrier).
//
// A kernel with SPU instructions runs as an SPU launch: CTA (x, y) on SM
// (x, y), the IUs around the grid running the same kernel. A grid smaller
// than p x p keeps the north and west IUs; its east (south) IUs run on the
// grid SMs just east (south) of it, as the thesis's partial passes let SMs
// take the IU role (note §1.4). A grid wider or taller than p runs in
// passes (spu_sync.h; virtual IUs spill and restore the faces between passes
// through one models::spu::TileMover per IU, on the crossbar ports after the
// IUs'). A kernel without SPU instructions runs as on the gpu
// platform (gpu.cta_placement over the grid's SMs; the IUs stay idle).
//
// With spu.iu.kind = dma the IUs on their own nodes are DMA engines
// (models/spu/dma_iu.h, spu_dma_timing.cpp): they run no CTA (their Sm
// modules stay idle) and move their faces with the node's TileMover.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/spu/cb_link.h"
#include "models/spu/tile_mover.h"
#include "platforms/gpu/gpu_platform.h"

namespace simtlm::platforms::spu {

class SpuSync;

class SpuPlatform final : public GpuPlatform {
 public:
  // Throws Error(Config) for a configuration the platform cannot build.
  SpuPlatform(const sc_core::sc_module_name& name, const Config& cfg);
  ~SpuPlatform() override;

  unsigned grid_size() const { return p_; }
  unsigned num_ius() const { return static_cast<unsigned>(ius_.size()); }
  models::Sm& iu(unsigned k) { return *ius_.at(k); }
  unsigned num_links() const { return static_cast<unsigned>(links_.size()); }
  models::spu::CbLink& link(unsigned i) { return *links_.at(i); }
  // Physical nodes: the grid SMs 0 .. p*p-1 (y * p + x), then the IUs
  // p*p + k: north by column (k = x), west by row (p + y), south by column
  // (2p + x), east by row (3p + y).
  models::Sm& node(unsigned n);
  // The node at grid coordinates (x, y), -1 <= x, y <= p (IUs outside the
  // grid, none at the corners); -1 when there is none.
  int node_at(int x, int y) const;

 private:
  void build_links(const Config& cfg);
  void bind_nodes();

  void register_topology_stats(const stats::Group& top) override;
  void refresh_topology_stats() override;
  void summarize_topology(const stats::Values& values, const SummaryLine& line) const override;
  void launch_begins(functional::LaunchContext& ctx) override;
  bool claim_cta_done(models::Sm& sm, uint64_t cta) override;
  bool launch_work_pending() const override;
  uint64_t extra_warp_instructions() const override;
  uint64_t extra_thread_instructions() const override;
  uint64_t extra_offchip_accesses() const override;
  uint64_t extra_issue_per_cycle() const override;
  uint64_t extra_last_issue_cycle() const override;
  std::string describe_extra_stall() const override;
  void complete_figures(LaunchFigures& f) const override;
  uint64_t cta_in_dispatch_order(uint64_t n) const override;

  unsigned p_;
  std::vector<std::unique_ptr<models::Sm>> ius_;
  std::vector<std::unique_ptr<models::spu::CbLink>> links_;
  std::unique_ptr<models::spu::CbNoLink> no_link_;
  std::vector<std::unique_ptr<models::spu::TileMover>> movers_;
  std::vector<models::spu::CbLink*> iu_links_;  // each IU node's link into the grid
  bool dma_ius_;                                 // spu.iu.kind = dma
  std::unique_ptr<SpuSync> sync_;
};

}  // namespace simtlm::platforms::spu
