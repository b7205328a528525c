// DMA interface units on the timing backend (spu.iu.kind = dma; see
// spu_sync.h and models/spu/dma_iu.h). A real IU of a pass whose node is an
// interface-unit node runs as a DMA engine: no CTA, no instruction; each of
// its faces is one transfer of the node's TileMover (one span per face row,
// sent line by line on the node's mover port), and between faces it arrives
// at the rendezvous its program names, as the kernel's IU code would. It is
// released spu.sync_latency cycles after the rendezvous completes, as any
// unit. IU roles hosted on grid SMs (the east/south IUs of a partial grid)
// keep running the kernel's IU code: an SM has no DMA engine. Each engine
// belongs to its pass (PassState): pass by pass, a pass's engines start
// together; with overlapped passes an IU node's engine of its next pass
// starts once the previous unit of its sequence has left the node
// (spu_overlap.cpp), so the node runs its face stream once per pass.
#include <string>

#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

bool SpuSync::start_dma_unit(PassState& ps, size_t unit) {
  if (!dma_.stream || ps.unit_node[unit] < p_ * p_) return false;
  Unit& u = ps.fabric->units()[unit];
  u.dma = true;
  const size_t d = ps.dma.size();
  ps.unit_dma[unit] = static_cast<int>(d);
  ps.dma.push_back(std::make_unique<models::spu::DmaIu>(u, *dma_.stream));
  // It starts at the next edge, inside the launch's statistics window.
  dma_.kick.emplace_back(&ps, d);
  wake_next();
  return true;
}

// The DMA IU starts, was released, or finished moving a face: its next step.
void SpuSync::dma_step(PassState& ps, size_t d) {
  if (failed_) return;
  models::spu::DmaIu& dma = *ps.dma[d];
  Unit& u = dma.unit();
  const size_t unit = size_t(&u - ps.fabric->units().data());
  const unsigned node = ps.unit_node[unit];
  const size_t iu = node - p_ * p_;
  const uint64_t now = clock().now();
  snapshot(ps);
  try {
    switch (dma.next()) {
      case models::spu::DmaIu::Step::Move: {
        const models::spu::DmaIu::Moved m = dma.move(*ps.fabric, ctx_->memory());
        dma_.words += m.words;
        dma_.links.at(iu)->count_direct(!m.to_memory, m.cb_rows);
        PassState* pp = &ps;
        movers_.at(iu)->start_spans(m.spans, m.to_memory, [this, pp, d] { dma_step(*pp, d); });
        return;
      }
      case models::spu::DmaIu::Step::Sync:
        ++st_.waits[node];
        ps.arrived_at[unit] = now;
        ps.before[unit] = SyncKind::Global;  // released if its arrival completes the rendezvous
        ps.fabric->arrive_engine(u, dma.sync_kind());
        break;
      case models::spu::DmaIu::Step::Finish:
        ps.fabric->finish(u);
        break;
    }
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
    return;
  }
  if (!release_changed(ps, now)) deadlock_check();
  after_event();
}

}  // namespace simtlm::platforms::spu
