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
#include "models/common/clock_domain.h"
#include "models/sm/sm.h"
#include "simtlm/stats.h"

namespace simtlm::platforms::spu {

class SpuSync final : public models::ClockedModule {
 public:
  struct Callbacks {
    std::function<void(std::exception_ptr)> fail;  // ends the launch with this error
    std::function<void()> ius_done;                // the last interface unit finished
  };
  // `nodes`: every physical node's SM (grid SMs, then IUs; spu_platform.h),
  // `node_at(x, y)` their placement.
  SpuSync(const sc_core::sc_module_name& name, const sc_core::sc_time& period, unsigned p, uint32_t cb_bytes,
          uint32_t sync_latency, std::vector<models::Sm*> nodes, std::function<int(int, int)> node_at,
          Callbacks callbacks);
  ~SpuSync() override;

  // An SPU launch of `ctx` (its grid fits one pass) begins: builds the
  // fabric and launches the interface units' CTAs on their nodes.
  void begin(functional::LaunchContext& ctx);
  // A launch without SPU instructions begins (no fabric; nodes run CTAs as SMs).
  void begin_plain();
  bool active() const { return fabric_ != nullptr && ctx_ != nullptr; }
  // The CTA that completed on node `n` was an interface unit's (true), or a
  // CTA of the launch (false).
  bool cta_done(unsigned n);
  unsigned ius_left() const { return ius_left_; }
  // What every unfinished unit waits for ("" without an SPU launch).
  std::string describe() const;

  // <top>.sm[i] / <top>.iu[k]: blocksync_waits, blocksync_wait_cycles.
  void register_node_stats(const stats::Group& g, unsigned node);

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

  unsigned p_;
  uint32_t cb_bytes_;
  uint32_t latency_;
  std::vector<models::Sm*> nodes_;
  std::function<int(int, int)> node_at_;
  Callbacks cb_;
  std::vector<std::unique_ptr<NodeObserver>> observers_;
  // Per launch.
  functional::LaunchContext* ctx_ = nullptr;
  std::unique_ptr<functional::spu::Fabric> fabric_;
  std::vector<int> node_unit_;          // unit running on each node, -1: none
  int pending_unit_ = -1;               // the IU unit being launched (on_admit)
  std::vector<unsigned> unit_node_;     // node of each unit
  std::vector<uint32_t> unit_slot_;     // its CTA slot there
  std::vector<uint64_t> arrived_at_;    // cycle the unit arrived at its rendezvous
  std::vector<functional::spu::SyncKind> before_;  // scratch: what each unit waited at
  std::deque<std::pair<uint64_t, unsigned>> releases_;  // (cycle, unit), in cycle order
  unsigned ius_left_ = 0;
  bool failed_ = false;
  // Statistics per node.
  std::vector<uint64_t> waits_;
  std::vector<uint64_t> wait_cycles_;
};

}  // namespace simtlm::platforms::spu
