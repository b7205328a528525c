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
// With spu.passes = overlapped (spu_overlap.cpp; docs/spu.md, "Overlapped
// passes") every node runs its own sequence of passes: it takes its unit of
// the next pass (a CTA, an IU's CTA, a DMA IU or a VIU) as soon as its unit
// of the current one has left it, so several passes' fabrics live at once
// (one PassState each, with its own pass registers, links and barriers), and
// a restoring VIU's restore n waits on the spill channel's scoreboard until
// spill n of the producer pass has completed (invariant 12).
//
// With spu.iu.kind = dma (set_dma), a real IU on an IU node is a DMA engine
// (models/spu/dma_iu.h): no CTA; its faces are transfers of the node's
// TileMover and it arrives at its rendezvous between them
// (spu_dma_timing.cpp). Its engine belongs to its pass's PassState, so with
// overlapped passes each DMA IU node runs its face stream once per pass of
// its sequence.
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
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
  // spu.passes and spu.spill_scoreboard.
  struct Mode {
    bool overlapped = false;
    bool scoreboard = true;
  };
  // `nodes`: every physical node's SM (grid SMs, then IUs; spu_platform.h),
  // `node_at(x, y)` their placement.
  SpuSync(const sc_core::sc_module_name& name, const sc_core::sc_time& period, unsigned p, uint32_t cb_bytes,
          uint32_t sync_latency, std::vector<models::Sm*> nodes, std::function<int(int, int)> node_at,
          std::vector<models::spu::TileMover*> movers, Callbacks callbacks, Mode mode);
  ~SpuSync() override;

  // spu.iu.kind = dma: the interface units on their own nodes are DMA
  // engines (models/spu/dma_iu.h) moving faces with the node's TileMover;
  // `links`: each IU node's CB link (spu_dma_timing.cpp).
  void set_dma(std::vector<models::spu::CbLink*> links) { dma_.links = std::move(links); }
  // An SPU launch of `ctx` begins: plans its passes, builds the first pass's
  // fabric and launches its interface units' CTAs (and VIUs) on their nodes
  // (overlapped: every node's first unit).
  void begin(functional::LaunchContext& ctx);
  // A launch without SPU instructions begins (no fabric; nodes run CTAs as SMs).
  void begin_plain();
  // The CTA that completed on node `n` was an interface unit's (true), or a
  // CTA of the launch (false).
  bool cta_done(unsigned n);
  // Units of the launch still to run (interface units, VIUs, later passes).
  bool work_left() const { return ctx_ != nullptr && !launch_done_; }
  // The n-th CTA to dispatch (pass after pass; overlapped: in the order the
  // SMs became free); whether the next one may be placed now, and that it was.
  uint64_t cta_at(uint64_t n) const { return n < order_.size() ? order_[n] : n; }
  bool may_place() const { return placed_ < pass_end_; }
  void placed() { ++placed_; }
  // The SM of grid CTA `cta` (its restricted mapping).
  unsigned sm_of(uint64_t cta) const;
  // Off-chip accesses of the virtual IUs so far (words spilled and restored).
  uint64_t viu_words() const { return st_.viu_words; }
  // Off-chip accesses of the DMA IUs so far (words moved).
  uint64_t dma_words() const { return dma_.words; }
  // This launch's passes and per-IU VIU faces (LaunchFigures).
  void complete_figures(uint32_t& passes, std::vector<uint64_t>& spills, std::vector<uint64_t>& restores) const;
  // What every unfinished unit waits for ("" without an SPU launch).
  std::string describe() const;

  // <top>.sm[i] / <top>.iu[k]: blocksync_waits, blocksync_wait_cycles;
  // <top>.iu[k] also viu_spills, viu_restores (and, overlapped,
  // viu_restore_waits, viu_restore_wait_cycles).
  void register_node_stats(const stats::Group& g, unsigned node);
  // <top>.passes.
  void register_stats(const stats::Group& g);

 private:
  class NodeObserver;
  friend class NodeObserver;

  // One pass's fabric and the timing state of its units (by unit index).
  struct PassState {
    uint32_t px = 0, py = 0;
    std::unique_ptr<functional::spu::Fabric> fabric;
    std::vector<functional::spu::VirtualIu> vius;
    std::vector<int> unit_viu;           // VIU index of each unit, -1: none
    std::vector<unsigned> unit_node;     // node of each unit
    std::vector<uint32_t> unit_slot;     // its CTA slot there
    std::vector<uint64_t> arrived_at;    // cycle the unit arrived at its rendezvous
    std::vector<functional::spu::SyncKind> before;  // scratch: what each unit waited at
    std::vector<uint8_t> entered, left;  // overlapped: its node took it up / has moved on
    std::vector<uint64_t> blocked_at;    // by VIU: cycle its restore began to wait (scoreboard)
    std::vector<std::unique_ptr<models::spu::DmaIu>> dma;  // this pass's DMA engines (spu.iu.kind = dma)
    std::vector<int> unit_dma;           // engine of each unit, -1: none
  };
  struct UnitRef {
    PassState* pass = nullptr;
    int unit = -1;
  };
  struct Release {
    uint64_t cycle;
    PassState* pass;
    unsigned unit;
  };

  uint64_t tick(uint64_t cycle) override;
  void on_admit(unsigned node, uint32_t cta_slot, uint64_t cta_id);
  void on_issue(unsigned node, const models::IssueRecord& r);
  // A warp of the unit on `node` arrived at a barrier or exited.
  void on_arrive(unsigned node, bool warp_finished);
  void deadlock_check();
  std::string deadlock_message() const;
  // Schedules the release of every unit of `ps` whose wait ended since before was taken.
  bool release_changed(PassState& ps, uint64_t now);
  static void snapshot(PassState& ps);
  // Multi-pass (spu_passes_timing.cpp).
  PassState& make_pass(uint32_t px, uint32_t py);
  void start_pass(uint32_t px, uint32_t py);
  void launch_iu(PassState& ps, size_t unit);
  void viu_step(PassState& ps, size_t v);
  void viu_moved(PassState& ps, size_t v);
  void check_pass_end();
  void after_event();  // sequential: check_pass_end(); overlapped: advance()
  // Overlapped passes (spu_overlap.cpp).
  void begin_overlapped();
  PassState& pass_state(uint32_t linear);
  void enter_next(unsigned node);
  void advance();
  bool pass_retired(const PassState& ps) const;
  bool wake_restores(PassState& ps);
  // DMA IUs (spu_dma_timing.cpp): unit `unit` of `ps` as a DMA engine (false:
  // not one, it runs the IU code); the next step of engine `d` of `ps`.
  bool start_dma_unit(PassState& ps, size_t unit);
  void dma_step(PassState& ps, size_t d);

  unsigned p_;
  uint32_t cb_bytes_;
  uint32_t latency_;
  Mode mode_;
  std::vector<models::Sm*> nodes_;
  std::function<int(int, int)> node_at_;
  Callbacks cb_;
  std::vector<models::spu::TileMover*> movers_;  // by IU (node p*p + k)
  std::vector<std::unique_ptr<NodeObserver>> observers_;
  // Per launch.
  functional::LaunchContext* ctx_ = nullptr;
  std::map<uint32_t, std::unique_ptr<PassState>> passes_;  // live passes by linear index (py * npx + px)
  PassState* cur_ = nullptr;            // pass by pass: the pass in progress
  std::vector<UnitRef> node_unit_;      // CTA unit running on each node
  UnitRef pending_;                     // the IU unit being launched (on_admit)
  struct Overlap {  // overlapped passes: each node's sequence of units
    std::vector<std::vector<std::pair<uint32_t, int>>> seq;  // (pass, unit) per node, in pass order
    std::vector<size_t> pos;       // the entry in progress (seq.size(): done)
    std::vector<UnitRef> next;     // the grid CTA queued for each node
  } ov_;
  functional::spu::PassPlan plan_;
  std::vector<uint64_t> order_;         // CTAs in dispatch order
  uint64_t placed_ = 0, pass_end_ = 0;  // CTAs placed; CTAs that may be placed now
  bool launch_done_ = false;
  std::unique_ptr<functional::spu::SpillSlots> spills_;
  std::deque<Release> releases_;        // in cycle order
  bool failed_ = false;
  bool in_event_ = false;               // overlapped: advance() is running
  struct Stats {  // per node, and per IU of the launch
    std::vector<uint64_t> waits, wait_cycles;
    std::vector<uint64_t> viu_spills, viu_restores;            // per node (IUs)
    std::vector<uint64_t> restore_waits, restore_wait_cycles;  // per node (IUs; overlapped)
    std::vector<uint64_t> launch_spills, launch_restores;      // per IU, this launch
    uint64_t passes = 0;
    uint64_t viu_words = 0;
  } st_;
  // DMA IUs (spu_dma_timing.cpp; no links: spu.iu.kind = sm). The engines
  // themselves live in their pass's PassState.
  struct DmaState {
    std::vector<models::spu::CbLink*> links;                 // by IU
    std::unique_ptr<models::spu::FaceStream> stream;         // this launch's contract
    std::vector<std::pair<PassState*, size_t>> kick;         // engines to start at the next tick
    uint64_t words = 0;                                      // words moved (off-chip accesses)
  } dma_;
};

}  // namespace simtlm::platforms::spu
