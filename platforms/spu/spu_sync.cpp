// The SPU launch state on the timing backend (see spu_sync.h).
#include "platforms/spu/spu_sync.h"

#include <sstream>

#include "functional/cta.h"
#include "functional/spu/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

using functional::spu::SyncKind;
using functional::spu::Unit;

class SpuSync::NodeObserver final : public models::SmObserver {
 public:
  NodeObserver(SpuSync& s, unsigned node) : s_(s), node_(node) {}
  void on_cta_admit(const models::CtaEvent& e) override { s_.on_admit(node_, e.cta_slot, e.cta_id); }
  void on_warp_issue(const models::IssueRecord& r) override { s_.on_issue(node_, r); }
  void on_warp_barrier(const models::WarpEvent&, models::sched::BarrierEvent kind) override {
    if (kind == models::sched::BarrierEvent::Arrive) s_.on_arrive(node_, false);
  }
  void on_warp_finish(const models::WarpEvent&) override { s_.on_arrive(node_, true); }

 private:
  SpuSync& s_;
  unsigned node_;
};

SpuSync::SpuSync(const sc_core::sc_module_name& name, const sc_core::sc_time& period, unsigned p, uint32_t cb_bytes,
                 uint32_t sync_latency, std::vector<models::Sm*> nodes, std::function<int(int, int)> node_at,
                 std::vector<models::spu::TileMover*> movers, Callbacks callbacks, Mode mode)
    : ClockedModule(name, period),
      p_(p),
      cb_bytes_(cb_bytes),
      latency_(sync_latency),
      mode_(mode),
      nodes_(std::move(nodes)),
      node_at_(std::move(node_at)),
      cb_(std::move(callbacks)),
      movers_(std::move(movers)),
      node_unit_(nodes_.size()) {
  const size_t n = nodes_.size();
  st_.waits.assign(n, 0);
  st_.wait_cycles.assign(n, 0);
  st_.viu_spills.assign(n, 0);
  st_.viu_restores.assign(n, 0);
  st_.restore_waits.assign(n, 0);
  st_.restore_wait_cycles.assign(n, 0);
  for (unsigned i = 0; i < n; ++i) {
    observers_.push_back(std::make_unique<NodeObserver>(*this, i));
    nodes_[i]->subscribe(*observers_.back());
  }
}

SpuSync::~SpuSync() {
  for (unsigned n = 0; n < nodes_.size(); ++n) nodes_[n]->unsubscribe(*observers_[n]);
}

void SpuSync::register_node_stats(const stats::Group& g, unsigned node) {
  g.counter("blocksync_waits", &st_.waits.at(node), "rendezvous",
            "bar.blocksync rendezvous the unit on this node arrived at (all warps of its CTA waiting)");
  g.counter("blocksync_wait_cycles", &st_.wait_cycles.at(node), "core cycles",
            "cycles from the unit's arrival at a bar.blocksync rendezvous to its warps' release");
  if (node < p_ * p_) return;
  g.counter("viu_spills", &st_.viu_spills.at(node), "faces",
            "faces this interface unit spilled to global memory as a virtual IU (multi-pass launches)");
  g.counter("viu_restores", &st_.viu_restores.at(node), "faces",
            "faces this interface unit restored from global memory as a virtual IU (multi-pass launches)");
  if (!mode_.overlapped) return;  // off means off: pass by pass, no restore ever waits
  g.counter("viu_restore_waits", &st_.restore_waits.at(node), "restores",
            "restores this virtual IU began before the producer pass's spill had completed, and so waited "
            "(spill-progress scoreboard, spu.passes = overlapped)");
  g.counter("viu_restore_wait_cycles", &st_.restore_wait_cycles.at(node), "core cycles",
            "cycles this virtual IU's restores waited for the producer pass's spills (scoreboard)");
}

void SpuSync::register_stats(const stats::Group& g) {
  g.counter("passes", &st_.passes, "passes",
            "passes of SPU launches completed (a grid larger than p x p runs in several)");
}

void SpuSync::begin_plain() {
  ctx_ = nullptr;
  passes_.clear();
  cur_ = nullptr;
  spills_.reset();
  order_.clear();
  placed_ = pass_end_ = 0;
  launch_done_ = false;
  std::fill(node_unit_.begin(), node_unit_.end(), UnitRef{});
  releases_.clear();
  dma_.kick.clear();
  st_.launch_spills.clear();
  st_.launch_restores.clear();
  ov_ = Overlap{};
}

void SpuSync::begin(functional::LaunchContext& ctx) {
  begin_plain();
  const functional::Dim3u g = ctx.grid();
  ctx_ = &ctx;
  failed_ = false;
  plan_ = functional::spu::PassPlan::of(p_, g.x, g.y);
  spills_ = std::make_unique<functional::spu::SpillSlots>(ctx.memory());
  dma_.stream.reset();
  if (!dma_.links.empty()) {  // DMA IUs: read the kernel's face-stream contract (Error(Launch) if broken)
    dma_.stream = std::make_unique<models::spu::FaceStream>(models::spu::FaceStream::of(ctx, cb_bytes_));
  }
  st_.launch_spills.assign(4 * size_t(p_), 0);
  st_.launch_restores.assign(4 * size_t(p_), 0);
  if (mode_.overlapped) {
    begin_overlapped();
    return;
  }
  order_ = plan_.cta_order();
  start_pass(0, 0);
}

unsigned SpuSync::sm_of(uint64_t cta) const {
  const uint64_t x = cta % plan_.gx, y = cta / plan_.gx;
  return static_cast<unsigned>((y % p_) * p_ + x % p_);
}

void SpuSync::on_admit(unsigned node, uint32_t cta_slot, uint64_t cta_id) {
  if (ctx_ == nullptr || passes_.empty()) return;
  UnitRef ref = pending_;
  if (ref.pass == nullptr && mode_.overlapped) {  // the grid CTA queued for this SM
    ref = ov_.next.at(node);
    ov_.next[node] = UnitRef{};
  } else if (ref.pass == nullptr) {  // a grid CTA of the current pass: its unit is (X - x0, Y - y0)
    ref.pass = cur_;
    const uint64_t x = cta_id % plan_.gx - uint64_t(cur_->px) * p_, y = cta_id / plan_.gx - uint64_t(cur_->py) * p_;
    ref.unit = static_cast<int>(y * cur_->fabric->grid_x() + x);
  }
  if (ref.pass == nullptr) throw Error(ErrorKind::Internal, "SPU: a CTA admitted on a node with no unit for it");
  PassState& ps = *ref.pass;
  Unit& u = ps.fabric->units().at(size_t(ref.unit));
  functional::Cta& cta = *nodes_[node]->cta_table()[cta_slot].cta;
  cta.set_spu_unit(&u, u.name);
  // %smid as on the functional backend: y * p + x for an SM, p * p + the IU's
  // index among the pass's IUs.
  const uint32_t sms = ps.fabric->grid_x() * ps.fabric->grid_y();
  cta.set_sm_id(u.is_iu ? p_ * p_ + (uint32_t(ref.unit) - sms) : uint32_t(u.y) * p_ + uint32_t(u.x));
  u.cta = &cta;
  node_unit_[node] = ref;
  ps.unit_slot[size_t(ref.unit)] = cta_slot;
}

void SpuSync::on_issue(unsigned node, const models::IssueRecord& r) {
  const UnitRef ref = node_unit_[node];
  if (ref.pass == nullptr || failed_ || r.exec == nullptr) return;
  const Unit& u = ref.pass->fabric->units()[size_t(ref.unit)];
  if (!u.is_iu) return;
  try {
    functional::spu::check_iu_capabilities(*r.exec, u.cta->warps().at(r.warp_in_cta), *u.cta, *ctx_);
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
  }
}

void SpuSync::snapshot(PassState& ps) {
  const auto& units = ps.fabric->units();
  for (size_t i = 0; i < units.size(); ++i) ps.before[i] = units[i].waiting;
}

bool SpuSync::release_changed(PassState& ps, uint64_t now) {
  const auto& units = ps.fabric->units();
  bool released = false;
  for (size_t i = 0; i < units.size(); ++i) {
    if (ps.before[i] == SyncKind::None || units[i].waiting != SyncKind::None || units[i].finished) continue;
    releases_.push_back(Release{now + latency_, &ps, static_cast<unsigned>(i)});
    released = true;
  }
  if (released) wake_at(now + latency_);
  return released;
}

void SpuSync::on_arrive(unsigned node, bool warp_finished) {
  const UnitRef ref = node_unit_[node];
  if (ref.pass == nullptr || failed_) return;
  PassState& ps = *ref.pass;
  const size_t index = size_t(ref.unit);
  Unit& u = ps.fabric->units()[index];
  snapshot(ps);
  const bool had_warps_waiting = u.warp_kind != SyncKind::None;
  if (warp_finished && u.cta->finished()) {
    ps.fabric->finish(u);
  } else {
    ps.fabric->poll(u);
  }
  const uint64_t now = clock().now();
  const bool arrived = had_warps_waiting && u.warp_kind == SyncKind::None && !u.finished;
  if (arrived) {
    ++st_.waits[node];
    ps.arrived_at[index] = now;
    ps.before[index] = SyncKind::Global;  // it was released if it no longer waits
  }
  if (!release_changed(ps, now) && (arrived || u.finished)) deadlock_check();
  if (mode_.overlapped && u.finished) advance();  // VIUs may have withdrawn
}

// Pass by pass: every unfinished unit of the pass waits at a rendezvous and
// no release is on its way. Overlapped: the same over every live pass, where
// a unit may also not have started yet (its node still runs an earlier
// pass's unit, which then waits itself) or be a restore waiting for a spill;
// no node may be between two units and no VIU transfer under way.
void SpuSync::deadlock_check() {
  if (!releases_.empty() || failed_) return;
  bool any = false;
  for (const auto& [linear, pp] : passes_) {
    const PassState& ps = *pp;
    const auto& units = ps.fabric->units();
    for (size_t i = 0; i < units.size(); ++i) {
      const Unit& u = units[i];
      if (!mode_.overlapped) {
        if (u.finished) continue;
        if (u.waiting == SyncKind::None || (u.cta == nullptr && !u.viu && !u.dma)) return;
        any = true;
        continue;
      }
      if (u.finished) {
        if (ps.entered[i] && !ps.left[i]) return;  // leaving its node: the node moves on
        continue;
      }
      if (!ps.entered[i]) continue;
      if (u.viu) {
        const auto& v = ps.vius[size_t(ps.unit_viu[i])];
        if (movers_.at(ps.unit_node[i] - p_ * p_)->busy()) return;
        if (u.waiting == SyncKind::None && !v.blocked) return;
      } else if (u.dma) {  // moving a face, or about to start (kick)
        if (u.waiting == SyncKind::None) return;
      } else if (u.cta == nullptr || u.waiting == SyncKind::None) {
        return;  // not admitted yet, or running
      }
      any = true;
    }
  }
  if (!any || placed_ < order_.size()) return;
  failed_ = true;
  cb_.fail(std::make_exception_ptr(Error(ErrorKind::Deadlock, deadlock_message())));
}

std::string SpuSync::deadlock_message() const {
  const bool multi = plan_.passes() > 1;
  std::string msg = "deadlock in kernel '" + ctx_->kernel().name + "' on the SPU (";
  if (mode_.overlapped) {
    msg += std::to_string(plan_.gx) + "x" + std::to_string(plan_.gy) + " CTAs in " + std::to_string(plan_.npx) +
           "x" + std::to_string(plan_.npy) + " overlapped passes): no unit can make progress";
    for (const auto& [linear, pp] : passes_)
      msg += "\n pass (" + std::to_string(pp->px) + "," + std::to_string(pp->py) + "):" +
             pp->fabric->describe_waiting(*ctx_);
    return msg;
  }
  const PassState& ps = *cur_;
  return msg + std::to_string(ps.fabric->grid_x()) + "x" + std::to_string(ps.fabric->grid_y()) +
         " CTAs and their interface units" +
         (multi ? ", pass (" + std::to_string(ps.px) + "," + std::to_string(ps.py) + ") of " +
                      std::to_string(plan_.npx) + "x" + std::to_string(plan_.npy)
                : std::string()) +
         "): no unit can make progress" + ps.fabric->describe_waiting(*ctx_);
}

uint64_t SpuSync::tick(uint64_t c) {
  if (!dma_.kick.empty()) {  // DMA IUs that entered their pass start now
    const auto kick = std::move(dma_.kick);
    dma_.kick.clear();
    for (const auto& [ps, d] : kick) dma_step(*ps, d);
  }
  while (!releases_.empty() && releases_.front().cycle <= c) {
    const Release r = releases_.front();
    releases_.pop_front();
    PassState& ps = *r.pass;
    if (ps.unit_viu[r.unit] >= 0) {  // a virtual IU: its next spill or restore
      viu_step(ps, size_t(ps.unit_viu[r.unit]));
      continue;
    }
    const unsigned node = ps.unit_node[r.unit];
    st_.wait_cycles[node] += c - ps.arrived_at[r.unit];
    if (ps.unit_dma[r.unit] >= 0) {  // a DMA IU: its next face
      dma_step(ps, size_t(ps.unit_dma[r.unit]));
      continue;
    }
    nodes_[node]->release_external_barrier(ps.unit_slot[r.unit]);
  }
  if (releases_.empty()) after_event();
  return releases_.empty() ? kSleep : std::max(releases_.front().cycle, c + 1);
}

bool SpuSync::cta_done(unsigned n) {
  const UnitRef ref = ctx_ != nullptr ? node_unit_[n] : UnitRef{};
  if (ref.pass == nullptr) return false;
  node_unit_[n] = UnitRef{};
  Unit& u = ref.pass->fabric->units()[size_t(ref.unit)];
  u.cta = nullptr;
  const bool iu = u.is_iu;
  if (mode_.overlapped) {
    ref.pass->left[size_t(ref.unit)] = 1;
    enter_next(n);
    advance();
    return iu;
  }
  check_pass_end();
  return iu;
}

std::string SpuSync::describe() const {
  if (ctx_ == nullptr || passes_.empty()) return "";
  if (!mode_.overlapped) {
    for (const Unit& u : cur_->fabric->units())
      if (!u.finished && u.cta == nullptr && !u.viu && !u.dma) return "";
    return "\nSPU units:" + cur_->fabric->describe_waiting(*ctx_);
  }
  std::string out = "\nSPU units (overlapped passes):";
  for (const auto& [linear, pp] : passes_)
    out += "\n pass (" + std::to_string(pp->px) + "," + std::to_string(pp->py) + "):" +
           pp->fabric->describe_waiting(*ctx_);
  return out;
}

}  // namespace simtlm::platforms::spu
