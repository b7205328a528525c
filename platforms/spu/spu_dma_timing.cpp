// DMA interface units on the timing backend (spu.iu.kind = dma; see
// spu_sync.h and models/spu/dma_iu.h). A real IU of a pass whose node is an
// interface-unit node runs as a DMA engine: no CTA, no instruction; each of
// its faces is one transfer of the node's TileMover (one span per face row,
// sent line by line on the node's mover port), and between faces it arrives
// at the rendezvous its program names, as the kernel's IU code would. It is
// released spu.sync_latency cycles after the rendezvous completes, as any
// unit. IU roles hosted on grid SMs (the east/south IUs of a partial grid)
// keep running the kernel's IU code: an SM has no DMA engine.
#include <string>

#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

bool SpuSync::start_dma_unit(size_t unit) {
  if (!dma_.stream || unit_node_[unit] < p_ * p_) return false;
  Unit& u = fabric_->units()[unit];
  u.dma = true;
  dma_.of_unit[unit] = static_cast<int>(dma_.units.size());
  dma_.units.push_back(std::make_unique<models::spu::DmaIu>(u, *dma_.stream));
  return true;
}

// The DMA IU starts, was released, or finished moving a face: its next step.
void SpuSync::dma_step(size_t d) {
  if (failed_) return;
  models::spu::DmaIu& dma = *dma_.units[d];
  Unit& u = dma.unit();
  const size_t unit = size_t(&u - fabric_->units().data());
  const unsigned node = unit_node_[unit];
  const size_t iu = node - p_ * p_;
  const uint64_t now = clock().now();
  snapshot();
  try {
    switch (dma.next()) {
      case models::spu::DmaIu::Step::Move: {
        const models::spu::DmaIu::Moved m = dma.move(*fabric_, ctx_->memory());
        dma_.words += m.words;
        dma_.links.at(iu)->count_direct(!m.to_memory, m.cb_rows);
        movers_.at(iu)->start_spans(m.spans, m.to_memory, [this, d] { dma_step(d); });
        return;
      }
      case models::spu::DmaIu::Step::Sync:
        ++waits_[node];
        arrived_at_[unit] = now;
        before_[unit] = SyncKind::Global;  // released if its arrival completes the rendezvous
        fabric_->arrive_engine(u, dma.sync_kind());
        break;
      case models::spu::DmaIu::Step::Finish:
        fabric_->finish(u);
        break;
    }
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
    return;
  }
  if (!release_changed(now)) deadlock_check();
  check_pass_end();
}

}  // namespace simtlm::platforms::spu
