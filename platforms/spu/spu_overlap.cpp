// Overlapped passes on the timing backend (spu.passes = overlapped; thesis
// §4.3, note §1.7; docs/spu.md, "Overlapped passes"). Every physical node
// (grid SM or IU) runs its own sequence of units, one per pass it takes part
// in, in row-wise pass order: a grid CTA, an IU's CTA (a real loader or
// storer, or on a grid SM the edge IU of a partial pass), a DMA IU
// (spu.iu.kind = dma, spu_dma_timing.cpp) or a virtual IU. It takes up its
// next unit as soon as the current one has left it: a CTA when it completes
// on the node, a VIU when it has finished and its TileMover is idle, a DMA IU
// when it has finished (after its last face's transfer). So the pass registers are per unit (each unit reads its own pass),
// and several passes' fabrics live at once, each with its own links,
// rendezvous and global barrier (a unit that has not started yet still
// counts at its pass's global barrier). Restores wait on the spill channel's
// scoreboard (functional/spu/spu_passes.h, SpillChannel): restore n of a
// boundary lane in pass P after spill n of that lane in the producer pass
// (invariant 12). A pass is retired once all its units have left their
// nodes and no release of it is pending.
#include <string>

#include "functional/cta.h"
#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

void SpuSync::begin_overlapped() {
  const size_t n = nodes_.size();
  ov_.seq.assign(n, {});
  ov_.pos.assign(n, 0);
  ov_.next.assign(n, UnitRef{});
  for (uint32_t py = 0; py < plan_.npy; ++py) {
    for (uint32_t px = 0; px < plan_.npx; ++px) {
      // Only the positions of the pass's units matter here (Fabric's order).
      const functional::spu::Fabric layout(plan_.width(px), plan_.height(py), 8);
      const auto& units = layout.units();
      for (size_t i = 0; i < units.size(); ++i) {
        const int node = node_at_(units[i].x, units[i].y);
        if (node < 0) throw Error(ErrorKind::Internal, "SPU unit " + units[i].name + " has no node");
        ov_.seq[size_t(node)].emplace_back(py * plan_.npx + px, static_cast<int>(i));
      }
    }
  }
  in_event_ = true;  // enter every node's first unit before looking for progress
  for (unsigned node = 0; node < n; ++node) enter_next(node);
  in_event_ = false;
  advance();
}

SpuSync::PassState& SpuSync::pass_state(uint32_t linear) {
  const auto it = passes_.find(linear);
  if (it != passes_.end()) return *it->second;
  return make_pass(linear % plan_.npx, linear / plan_.npx);
}

// Node `node` takes up the next unit of its sequence.
void SpuSync::enter_next(unsigned node) {
  if (failed_ || ov_.pos[node] >= ov_.seq[node].size()) return;
  const auto [linear, index] = ov_.seq[node][ov_.pos[node]++];
  try {
    PassState& ps = pass_state(linear);
    const size_t i = size_t(index);
    ps.entered[i] = 1;
    const Unit& u = ps.fabric->units()[i];
    if (u.viu) {
      viu_step(ps, size_t(ps.unit_viu[i]));
    } else if (u.is_iu) {
      launch_iu(ps, i);
    } else {
      ov_.next[node] = UnitRef{&ps, index};
      order_.push_back(functional::spu::unit_cta(u, plan_, ps.px, ps.py));
      pass_end_ = order_.size();
      if (cb_.redispatch) cb_.redispatch();  // no-op before the launch runs: it dispatches then
    }
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
  }
}

bool SpuSync::pass_retired(const PassState& ps) const {
  const auto& units = ps.fabric->units();
  for (size_t i = 0; i < units.size(); ++i)
    if (!units[i].finished || !ps.left[i]) return false;
  for (const Release& r : releases_)
    if (r.pass == &ps) return false;
  return true;
}

// Restoring VIUs of `ps` whose wait may be over: their spill has completed,
// the producer's channel closed, or their partner exited.
bool SpuSync::wake_restores(PassState& ps) {
  bool woken = false;
  for (size_t v = 0; v < ps.vius.size() && !failed_; ++v) {
    const functional::spu::VirtualIu& vi = ps.vius[v];
    if (!vi.blocked) continue;
    const functional::spu::SpillChannel& ch = *vi.channel;
    if (ch.completed > vi.next || ch.closed || vi.unit->partner_done) {
      viu_step(ps, v);
      woken = true;
    }
  }
  return woken;
}

// After every event: VIUs that finished leave their nodes (a spilling one
// closes its channel), the nodes take up their next units, waiting restores
// proceed, and finished passes retire; until nothing changes. Then the
// launch's work may be done, or a deadlock may show.
void SpuSync::advance() {
  if (in_event_ || failed_ || ctx_ == nullptr || launch_done_) return;
  in_event_ = true;
  bool changed = true;
  while (changed && !failed_) {
    changed = false;
    for (auto& [linear, pp] : passes_) {
      PassState& ps = *pp;
      for (size_t v = 0; v < ps.vius.size(); ++v) {
        functional::spu::VirtualIu& vi = ps.vius[v];
        const size_t i = size_t(vi.unit - ps.fabric->units().data());
        if (!vi.unit->finished || !ps.entered[i] || ps.left[i]) continue;
        if (movers_.at(ps.unit_node[i] - p_ * p_)->busy()) continue;
        ps.left[i] = 1;
        if (functional::spu::viu_spills(vi)) vi.channel->closed = true;
        enter_next(ps.unit_node[i]);
        changed = true;
      }
      for (const auto& engine : ps.dma) {  // DMA IUs: finished, their last face moved
        const size_t i = size_t(&engine->unit() - ps.fabric->units().data());
        if (!engine->unit().finished || ps.left[i]) continue;
        ps.left[i] = 1;
        enter_next(ps.unit_node[i]);
        changed = true;
      }
    }
    for (auto& [linear, pp] : passes_) changed |= wake_restores(*pp);
    for (auto it = passes_.begin(); it != passes_.end();) {
      if (!pass_retired(*it->second)) {
        ++it;
        continue;
      }
      ++st_.passes;
      it = passes_.erase(it);
      changed = true;
    }
  }
  in_event_ = false;
  if (failed_) return;
  bool nodes_done = true;
  for (size_t n = 0; n < ov_.seq.size(); ++n) nodes_done &= ov_.pos[n] >= ov_.seq[n].size();
  if (nodes_done && passes_.empty()) {
    launch_done_ = true;
    spills_.reset();
    if (cb_.ius_done) cb_.ius_done();
    return;
  }
  deadlock_check();
}

}  // namespace simtlm::platforms::spu
