// Multi-pass SPU launches on the timing backend (see spu_sync.h): the passes
// one after the other, and the virtual IUs' spills and restores timed by the
// TileMover of their node.
#include <string>

#include "functional/cta.h"
#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

void SpuSync::start_pass(uint32_t px, uint32_t py) {
  px_ = px;
  py_ = py;
  const uint32_t w = plan_.width(px), h = plan_.height(py);
  vius_.clear();
  fabric_ = std::make_unique<functional::spu::Fabric>(w, h, cb_bytes_);
  const size_t units = fabric_->units().size();
  unit_node_.assign(units, 0);
  unit_slot_.assign(units, 0);
  arrived_at_.assign(units, 0);
  before_.assign(units, SyncKind::None);
  unit_viu_.assign(units, -1);
  dma_.of_unit.assign(units, -1);
  dma_.units.clear();
  vius_.reserve(units);
  for (size_t i = 0; i < units; ++i) {
    Unit& u = fabric_->units()[i];
    functional::spu::place_unit(u, plan_, px, py, w, h);
    const int n = node_at_(u.x, u.y);
    if (n < 0) throw Error(ErrorKind::Internal, "SPU unit " + u.name + " has no node");
    unit_node_[i] = static_cast<unsigned>(n);
    if (u.viu) {
      unit_viu_[i] = static_cast<int>(vius_.size());
      vius_.push_back(functional::spu::make_virtual_iu(u, px, py, *spills_));
    }
  }
  pass_end_ += uint64_t(w) * h;
  for (size_t i = 0; i < units; ++i) {
    const Unit& u = fabric_->units()[i];
    if (!u.is_iu || u.viu) continue;
    if (start_dma_unit(i)) continue;
    models::Sm& sm = *nodes_[unit_node_[i]];
    if (!sm.can_admit(models::CtaShape::of(*ctx_))) {
      throw Error(ErrorKind::Launch, "kernel '" + ctx_->kernel().name + "': " + u.name + " cannot start on " +
                                         sm.name() + " (it does not admit a CTA of the launch's shape)");
    }
    pending_unit_ = static_cast<int>(i);
    sm.launch_cta(*ctx_, functional::spu::unit_cta(u, plan_, px, py));
    pending_unit_ = -1;
  }
  for (size_t v = 0; v < vius_.size(); ++v) viu_step(v);
  if (!dma_.units.empty()) {  // the DMA IUs start at the next edge, inside the launch's statistics window
    dma_.kick = true;
    wake_next();
  }
}

// The VIU starts or was released: its move (timed by its node's TileMover),
// then its next synchronisation (viu_moved).
void SpuSync::viu_step(size_t v) {
  if (failed_) return;
  functional::spu::VirtualIu& vi = vius_[v];
  snapshot();
  const uint32_t bytes = functional::spu::viu_move(vi, *fabric_, *spills_);
  if (bytes != 0) {
    const size_t unit = size_t(vi.unit - fabric_->units().data());
    const unsigned node = unit_node_[unit];
    const size_t iu = node - p_ * p_;
    const bool spill = functional::spu::viu_spills(vi);
    ++(spill ? viu_spills_ : viu_restores_)[node];
    ++(spill ? launch_spills_ : launch_restores_)[iu];
    viu_words_ += bytes / 4;
    movers_.at(iu)->start(vi.last_addr, bytes, spill, [this, v] { viu_moved(v); });
  } else if (!vi.unit->finished) {
    before_[size_t(vi.unit - fabric_->units().data())] = SyncKind::Global;  // released if its arrival completes a sync
    functional::spu::viu_sync(vi, *fabric_);
  }
  if (!release_changed(clock().now())) deadlock_check();
  check_pass_end();
}

void SpuSync::viu_moved(size_t v) {
  if (failed_) return;
  snapshot();
  before_[size_t(vius_[v].unit - fabric_->units().data())] = SyncKind::Global;  // released if its arrival completes a sync
  functional::spu::viu_sync(vius_[v], *fabric_);
  if (!release_changed(clock().now())) deadlock_check();
  check_pass_end();
}

// The pass ends when every unit finished and left its node, and no VIU
// transfer or release is under way; then the next pass starts, or the launch
// has no work left.
void SpuSync::check_pass_end() {
  if (!fabric_ || !ctx_ || launch_done_ || failed_ || fabric_->unfinished() != 0 || !releases_.empty()) return;
  for (const Unit& u : fabric_->units())
    if (u.cta != nullptr) return;
  for (const auto& vi : vius_)
    if (movers_.at(unit_node_[size_t(vi.unit - fabric_->units().data())] - p_ * p_)->busy()) return;
  ++passes_;  // counted as it ends: the first starts before the launch's statistics window
  if (px_ + 1 < plan_.npx || py_ + 1 < plan_.npy) {
    const bool next_row = px_ + 1 == plan_.npx;
    try {
      start_pass(next_row ? 0 : px_ + 1, next_row ? py_ + 1 : py_);
    } catch (...) {
      failed_ = true;
      cb_.fail(std::current_exception());
      return;
    }
    if (cb_.redispatch) cb_.redispatch();
    return;
  }
  launch_done_ = true;
  vius_.clear();
  spills_.reset();
  if (cb_.ius_done) cb_.ius_done();
}

void SpuSync::complete_figures(uint32_t& passes, std::vector<uint64_t>& spills,
                               std::vector<uint64_t>& restores) const {
  if (order_.empty()) return;
  passes = plan_.passes();
  spills = launch_spills_;
  restores = launch_restores_;
}

}  // namespace simtlm::platforms::spu
