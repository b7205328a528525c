// Multi-pass SPU launches on the timing backend (see spu_sync.h): a pass's
// state, the passes one after the other (spu.passes = sequential), and the
// virtual IUs' spills and restores timed by the TileMover of their node.
#include <string>

#include "functional/cta.h"
#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

SpuSync::PassState& SpuSync::make_pass(uint32_t px, uint32_t py) {
  auto owned = std::make_unique<PassState>();
  PassState& ps = *owned;
  ps.px = px;
  ps.py = py;
  const uint32_t w = plan_.width(px), h = plan_.height(py);
  ps.fabric = std::make_unique<functional::spu::Fabric>(w, h, cb_bytes_);
  const size_t units = ps.fabric->units().size();
  ps.unit_node.assign(units, 0);
  ps.unit_slot.assign(units, 0);
  ps.arrived_at.assign(units, 0);
  ps.before.assign(units, SyncKind::None);
  ps.unit_viu.assign(units, -1);
  ps.entered.assign(units, 0);
  ps.left.assign(units, 0);
  ps.unit_dma.assign(units, -1);
  ps.vius.reserve(units);
  for (size_t i = 0; i < units; ++i) {
    Unit& u = ps.fabric->units()[i];
    functional::spu::place_unit(u, plan_, px, py, w, h);
    const int n = node_at_(u.x, u.y);
    if (n < 0) throw Error(ErrorKind::Internal, "SPU unit " + u.name + " has no node");
    ps.unit_node[i] = static_cast<unsigned>(n);
    if (u.viu) {
      ps.unit_viu[i] = static_cast<int>(ps.vius.size());
      ps.vius.push_back(functional::spu::make_virtual_iu(u, px, py, *spills_));
    }
  }
  ps.blocked_at.assign(ps.vius.size(), 0);
  passes_[py * plan_.npx + px] = std::move(owned);
  return ps;
}

// A real loader or storer on its node: a DMA engine (spu.iu.kind = dma, on an
// IU node), or else an IU's CTA.
void SpuSync::launch_iu(PassState& ps, size_t i) {
  if (start_dma_unit(ps, i)) return;
  const Unit& u = ps.fabric->units()[i];
  models::Sm& sm = *nodes_[ps.unit_node[i]];
  if (!sm.can_admit(models::CtaShape::of(*ctx_))) {
    throw Error(ErrorKind::Launch, "kernel '" + ctx_->kernel().name + "': " + u.name + " cannot start on " +
                                       sm.name() + " (it does not admit a CTA of the launch's shape)");
  }
  pending_ = UnitRef{&ps, static_cast<int>(i)};
  sm.launch_cta(*ctx_, functional::spu::unit_cta(u, plan_, ps.px, ps.py));
  pending_ = UnitRef{};
}

void SpuSync::start_pass(uint32_t px, uint32_t py) {
  passes_.clear();
  cur_ = &make_pass(px, py);
  PassState& ps = *cur_;
  pass_end_ += uint64_t(ps.fabric->grid_x()) * ps.fabric->grid_y();
  const size_t units = ps.fabric->units().size();
  for (size_t i = 0; i < units; ++i) {
    const Unit& u = ps.fabric->units()[i];
    if (u.is_iu && !u.viu) launch_iu(ps, i);
  }
  for (size_t v = 0; v < ps.vius.size(); ++v) viu_step(ps, v);
}

// The VIU starts or was released: its move (timed by its node's TileMover),
// then its next synchronisation (viu_moved). A restore that must wait for
// its spill (scoreboard) is taken up again by wake_restores.
void SpuSync::viu_step(PassState& ps, size_t v) {
  if (failed_) return;
  functional::spu::VirtualIu& vi = ps.vius[v];
  const size_t unit = size_t(vi.unit - ps.fabric->units().data());
  const bool was_blocked = vi.blocked;
  snapshot(ps);
  uint32_t bytes = 0;
  try {
    bytes = functional::spu::viu_move(vi, *ps.fabric, *spills_, mode_.scoreboard);
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
    return;
  }
  const unsigned node = ps.unit_node[unit];
  if (was_blocked && !vi.blocked) st_.restore_wait_cycles[node] += clock().now() - ps.blocked_at[v];
  if (!was_blocked && vi.blocked) {
    ++st_.restore_waits[node];
    ps.blocked_at[v] = clock().now();
  }
  if (bytes != 0) {
    const size_t iu = node - p_ * p_;
    const bool spill = functional::spu::viu_spills(vi);
    ++(spill ? st_.viu_spills : st_.viu_restores)[node];
    ++(spill ? st_.launch_spills : st_.launch_restores)[iu];
    st_.viu_words += bytes / 4;
    PassState* pp = &ps;
    movers_.at(iu)->start(vi.last_addr, bytes, spill, [this, pp, v] { viu_moved(*pp, v); });
  } else if (!vi.unit->finished && !vi.blocked) {
    ps.before[unit] = SyncKind::Global;  // released if its arrival completes a sync
    functional::spu::viu_sync(vi, *ps.fabric);
  }
  if (!release_changed(ps, clock().now())) deadlock_check();
  after_event();
}

void SpuSync::viu_moved(PassState& ps, size_t v) {
  if (failed_) return;
  functional::spu::VirtualIu& vi = ps.vius[v];
  if (functional::spu::viu_spills(vi)) functional::spu::viu_spill_done(vi);  // its data is in memory now
  snapshot(ps);
  ps.before[size_t(vi.unit - ps.fabric->units().data())] = SyncKind::Global;  // released if its arrival completes a sync
  functional::spu::viu_sync(vi, *ps.fabric);
  if (!release_changed(ps, clock().now())) deadlock_check();
  after_event();
}

void SpuSync::after_event() {
  if (mode_.overlapped) {
    advance();
  } else {
    check_pass_end();
  }
}

// The pass ends when every unit finished and left its node, and no VIU
// transfer or release is under way; then the next pass starts, or the launch
// has no work left.
void SpuSync::check_pass_end() {
  if (cur_ == nullptr || ctx_ == nullptr || launch_done_ || failed_ || cur_->fabric->unfinished() != 0 ||
      !releases_.empty())
    return;
  PassState& ps = *cur_;
  for (const Unit& u : ps.fabric->units())
    if (u.cta != nullptr) return;
  for (const auto& vi : ps.vius)
    if (movers_.at(ps.unit_node[size_t(vi.unit - ps.fabric->units().data())] - p_ * p_)->busy()) return;
  for (auto& vi : ps.vius)
    if (functional::spu::viu_spills(vi)) vi.channel->closed = true;
  ++st_.passes;  // counted as it ends: the first starts before the launch's statistics window
  if (ps.px + 1 < plan_.npx || ps.py + 1 < plan_.npy) {
    const bool next_row = ps.px + 1 == plan_.npx;
    try {
      start_pass(next_row ? 0 : ps.px + 1, next_row ? ps.py + 1 : ps.py);
    } catch (...) {
      failed_ = true;
      cb_.fail(std::current_exception());
      return;
    }
    if (cb_.redispatch) cb_.redispatch();
    return;
  }
  launch_done_ = true;
  ps.vius.clear();
  spills_.reset();
  if (cb_.ius_done) cb_.ius_done();
}

void SpuSync::complete_figures(uint32_t& passes, std::vector<uint64_t>& spills,
                               std::vector<uint64_t>& restores) const {
  if (ctx_ == nullptr || st_.launch_spills.empty()) return;
  passes = plan_.passes();
  spills = st_.launch_spills;
  restores = st_.launch_restores;
}

}  // namespace simtlm::platforms::spu
