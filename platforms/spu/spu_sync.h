// The SPU platform's per-launch state on the timing backend (see
// spu_platform.h): which unit of the functional fabric
// (functional/spu/spu_fabric.h) runs on which node (SM or IU), the
// bar.blocksync rendezvous driven by the nodes' SM events, the delayed release
// of the units' warps, the IU capability check and the SPU statistics
// (blocksync waits per node).
//
// A unit arrives at its rendezvous when the last of its CTA's warps waits at
// bar.blocksync or exits while the others wait (on_warp_barrier /
// on_warp_finish: Fabric::poll); a unit whose warps all exited leaves the
// fabric (Fabric::finish, which may complete a global barrier). Units the
// rendezvous released leave the barrier spu.sync_latency cycles later: this
// module ticks then and calls Sm::release_external_barrier. When every
// unfinished unit waits at a rendezvous and no release is on its way, the
// launch ends at once with Error(Deadlock) naming every waiting unit, as the
// functional backend reports it.
//
// A grid larger than p x p runs in passes, pass by pass in row-wise order
// (functional/spu/spu_passes.h; docs/spu.md, "Passes"): one fabric per pass,
// the pass's CTAs dispatched once the previous pass has ended (every unit
// finished, every VIU transfer done: cta_at() gives the platform's dispatch
// order, may_place() the CTAs of the current pass). Virtual IUs run the
// runtime's code on their physical IU's node: each spill or restore is a
// transfer of the node's TileMover (models/spu/tile_mover.h), and the VIU
// synchronises again when it ends (spu_passes_timing.cpp).
//
// With spu.iu.kind = dma (set_dma), a real IU on an IU node is a DMA engine
// (models/spu/dma_iu.h): no CTA; its faces are transfers of the node's
// TileMover and it arrives at its rendezvous between them
// (spu_dma_timing.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "functional/executor.h"
#include "functional/spu/spu_fabric.h"
#include "functional/spu/spu_passes.h"
#include "models/spu/cb_link.h"
#include "models/spu/dma_iu.h"
#include "models/spu/tile_mover.h"
#include "models/common/clock_domain.h"
#include "models/sm/sm.h"
#include "simtlm/stats.h"

namespace simtlm::platforms::spu {

class SpuSync final : public models::ClockedModule {
 public:
  struct Callbacks {
    std::function<void(std::exception_ptr)> fail;  // ends the launch with this error
    std::function<void()> ius_done;                // the last pass's units all finished
    std::function<void()> redispatch;              // a new pass's CTAs may be placed
  };
  // `nodes`: every physical node's SM (grid SMs, then IUs; spu_platform.h),
  // `node_at(x, y)` their placement.
  SpuSync(const sc_core::sc_module_name& name, const sc_core::sc_time& period, unsigned p, uint32_t cb_bytes,
          uint32_t sync_latency, std::vector<models::Sm*> nodes, std::function<int(int, int)> node_at,
          std::vector<models::spu::TileMover*> movers, Callbacks callbacks);
  ~SpuSync() override;

  // spu.iu.kind = dma: the interface units on their own nodes are DMA
  // engines (models/spu/dma_iu.h) moving faces with the node's TileMover;
  // `links`: each IU node's CB link (spu_dma_timing.cpp).
  void set_dma(std::vector<models::spu::CbLink*> links) { dma_.links = std::move(links); }
  // An SPU launch of `ctx` begins: plans its passes, builds the first pass's
  // fabric and launches its interface units' CTAs (and VIUs) on their nodes.
  void begin(functional::LaunchContext& ctx);
  // A launch without SPU instructions begins (no fabric; nodes run CTAs as SMs).
  void begin_plain();
  bool active() const { return fabric_ != nullptr && ctx_ != nullptr; }
  // The CTA that completed on node `n` was an interface unit's (true), or a
  // CTA of the launch (false).
  bool cta_done(unsigned n);
  // Units of the launch still to run (interface units, VIUs, later passes).
  bool work_left() const { return fabric_ != nullptr && ctx_ != nullptr && !launch_done_; }
  // The n-th CTA to dispatch (pass after pass); whether the next one belongs
  // to the current pass (it may be placed now), and that it was placed.
  uint64_t cta_at(uint64_t n) const { return n < order_.size() ? order_[n] : n; }
  bool may_place() const { return placed_ < pass_end_; }
  void placed() { ++placed_; }
  // The SM of grid CTA `cta` (its restricted mapping).
  unsigned sm_of(uint64_t cta) const;
  // Off-chip accesses of the virtual IUs so far (words spilled and restored).
  uint64_t viu_words() const { return viu_words_; }
  // Off-chip accesses of the DMA IUs so far (words moved).
  uint64_t dma_words() const { return dma_.words; }
  // This launch's passes and per-IU VIU faces (LaunchFigures).
  void complete_figures(uint32_t& passes, std::vector<uint64_t>& spills, std::vector<uint64_t>& restores) const;
  // What every unfinished unit waits for ("" without an SPU launch).
  std::string describe() const;

  // <top>.sm[i] / <top>.iu[k]: blocksync_waits, blocksync_wait_cycles;
  // <top>.iu[k] also viu_spills, viu_restores.
  void register_node_stats(const stats::Group& g, unsigned node);
  // <top>.passes.
  void register_stats(const stats::Group& g);

 private:
  class NodeObserver;
  friend class NodeObserver;

  uint64_t tick(uint64_t cycle) override;
  void on_admit(unsigned node, uint32_t cta_slot, uint64_t cta_id);
  void on_issue(unsigned node, const models::IssueRecord& r);
  // A warp of the unit on `node` arrived at a barrier or exited.
  void on_arrive(unsigned node, bool warp_finished);
  int unit_on(unsigned node) const { return node_unit_[node]; }
  void deadlock_check();
  // Schedules the release of every unit whose wait ended since before_ was taken.
  bool release_changed(uint64_t now);
  void snapshot();
  // Multi-pass (spu_passes_timing.cpp).
  void start_pass(uint32_t px, uint32_t py);
  void viu_step(size_t v);
  void viu_moved(size_t v);
  void check_pass_end();
  // DMA IUs (spu_dma_timing.cpp): a pass's DMA units; the next step of one.
  bool start_dma_unit(size_t unit);
  void dma_step(size_t d);

  unsigned p_;
  uint32_t cb_bytes_;
  uint32_t latency_;
  std::vector<models::Sm*> nodes_;
  std::function<int(int, int)> node_at_;
  Callbacks cb_;
  std::vector<models::spu::TileMover*> movers_;  // by IU (node p*p + k)
  std::vector<std::unique_ptr<NodeObserver>> observers_;
  // Per launch.
  functional::LaunchContext* ctx_ = nullptr;
  std::unique_ptr<functional::spu::Fabric> fabric_;
  std::vector<int> node_unit_;          // unit running on each node, -1: none
  int pending_unit_ = -1;               // the IU unit being launched (on_admit)
  functional::spu::PassPlan plan_;
  uint32_t px_ = 0, py_ = 0;            // the pass in progress
  std::vector<uint64_t> order_;         // CTAs in dispatch order
  uint64_t placed_ = 0, pass_end_ = 0;  // CTAs placed; end of the current pass in order_
  bool launch_done_ = false;
  std::unique_ptr<functional::spu::SpillSlots> spills_;
  std::vector<functional::spu::VirtualIu> vius_;
  std::vector<int> unit_viu_;           // VIU index of each unit, -1: none
  std::vector<unsigned> unit_node_;     // node of each unit
  std::vector<uint32_t> unit_slot_;     // its CTA slot there
  std::vector<uint64_t> arrived_at_;    // cycle the unit arrived at its rendezvous
  std::vector<functional::spu::SyncKind> before_;  // scratch: what each unit waited at
  std::deque<std::pair<uint64_t, unsigned>> releases_;  // (cycle, unit), in cycle order
  bool failed_ = false;
  // Statistics per node.
  std::vector<uint64_t> waits_;
  std::vector<uint64_t> wait_cycles_;
  std::vector<uint64_t> viu_spills_, viu_restores_;  // per node (IUs)
  std::vector<uint64_t> launch_spills_, launch_restores_;  // per IU, this launch
  uint64_t passes_ = 0;
  uint64_t viu_words_ = 0;
  // DMA IUs (spu_dma_timing.cpp; no links: spu.iu.kind = sm).
  struct DmaState {
    std::vector<models::spu::CbLink*> links;                 // by IU
    std::unique_ptr<models::spu::FaceStream> stream;         // this launch's contract
    std::vector<std::unique_ptr<models::spu::DmaIu>> units;  // this pass's engines
    std::vector<int> of_unit;                                // engine of each fabric unit, -1: none
    bool kick = false;                                       // the pass's engines start at the next tick
    uint64_t words = 0;                                      // words moved (off-chip accesses)
  } dma_;
};

}  // namespace simtlm::platforms::spu
