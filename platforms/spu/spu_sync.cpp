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
                 std::vector<models::spu::TileMover*> movers, Callbacks callbacks)
    : ClockedModule(name, period),
      p_(p),
      cb_bytes_(cb_bytes),
      latency_(sync_latency),
      nodes_(std::move(nodes)),
      node_at_(std::move(node_at)),
      cb_(std::move(callbacks)),
      movers_(std::move(movers)),
      node_unit_(nodes_.size(), -1),
      waits_(nodes_.size(), 0),
      wait_cycles_(nodes_.size(), 0),
      viu_spills_(nodes_.size(), 0),
      viu_restores_(nodes_.size(), 0) {
  for (unsigned n = 0; n < nodes_.size(); ++n) {
    observers_.push_back(std::make_unique<NodeObserver>(*this, n));
    nodes_[n]->subscribe(*observers_.back());
  }
}

SpuSync::~SpuSync() {
  for (unsigned n = 0; n < nodes_.size(); ++n) nodes_[n]->unsubscribe(*observers_[n]);
}

void SpuSync::register_node_stats(const stats::Group& g, unsigned node) {
  g.counter("blocksync_waits", &waits_.at(node), "rendezvous",
            "bar.blocksync rendezvous the unit on this node arrived at (all warps of its CTA waiting)");
  g.counter("blocksync_wait_cycles", &wait_cycles_.at(node), "core cycles",
            "cycles from the unit's arrival at a bar.blocksync rendezvous to its warps' release");
  if (node < p_ * p_) return;
  g.counter("viu_spills", &viu_spills_.at(node), "faces",
            "faces this interface unit spilled to global memory as a virtual IU (multi-pass launches)");
  g.counter("viu_restores", &viu_restores_.at(node), "faces",
            "faces this interface unit restored from global memory as a virtual IU (multi-pass launches)");
}

void SpuSync::register_stats(const stats::Group& g) {
  g.counter("passes", &passes_, "passes", "passes of SPU launches completed (a grid larger than p x p runs in several)");
}

void SpuSync::begin_plain() {
  ctx_ = nullptr;
  fabric_.reset();
  spills_.reset();
  vius_.clear();
  order_.clear();
  placed_ = pass_end_ = 0;
  launch_done_ = false;
  std::fill(node_unit_.begin(), node_unit_.end(), -1);
  releases_.clear();
  dma_.kick = false;
  launch_spills_.clear();
  launch_restores_.clear();
}

void SpuSync::begin(functional::LaunchContext& ctx) {
  begin_plain();
  const functional::Dim3u g = ctx.grid();
  ctx_ = &ctx;
  failed_ = false;
  plan_ = functional::spu::PassPlan::of(p_, g.x, g.y);
  order_ = plan_.cta_order();
  spills_ = std::make_unique<functional::spu::SpillSlots>(ctx.memory());
  dma_.stream.reset();
  if (!dma_.links.empty()) {  // DMA IUs: read the kernel's face-stream contract (Error(Launch) if broken)
    dma_.stream = std::make_unique<models::spu::FaceStream>(models::spu::FaceStream::of(ctx, cb_bytes_));
  }
  launch_spills_.assign(4 * size_t(p_), 0);
  launch_restores_.assign(4 * size_t(p_), 0);
  start_pass(0, 0);
}

unsigned SpuSync::sm_of(uint64_t cta) const {
  const uint64_t x = cta % plan_.gx, y = cta / plan_.gx;
  return static_cast<unsigned>((y % p_) * p_ + x % p_);
}

void SpuSync::on_admit(unsigned node, uint32_t cta_slot, uint64_t cta_id) {
  if (!fabric_) return;
  int index = pending_unit_;
  if (index < 0) {  // a grid CTA of the current pass: its unit is (X - x0, Y - y0)
    const uint64_t x = cta_id % plan_.gx - uint64_t(px_) * p_, y = cta_id / plan_.gx - uint64_t(py_) * p_;
    index = static_cast<int>(y * fabric_->grid_x() + x);
  }
  Unit& u = fabric_->units().at(size_t(index));
  functional::Cta& cta = *nodes_[node]->cta_table()[cta_slot].cta;
  cta.set_spu_unit(&u, u.name);
  // %smid as on the functional backend: y * p + x for an SM, p * p + the IU's
  // index among the pass's IUs.
  const uint32_t sms = fabric_->grid_x() * fabric_->grid_y();
  cta.set_sm_id(u.is_iu ? p_ * p_ + (uint32_t(index) - sms) : uint32_t(u.y) * p_ + uint32_t(u.x));
  u.cta = &cta;
  node_unit_[node] = index;
  unit_slot_[size_t(index)] = cta_slot;
}

void SpuSync::on_issue(unsigned node, const models::IssueRecord& r) {
  const int index = unit_on(node);
  if (index < 0 || failed_ || !fabric_->units()[size_t(index)].is_iu || r.exec == nullptr) return;
  const Unit& u = fabric_->units()[size_t(index)];
  try {
    functional::spu::check_iu_capabilities(*r.exec, u.cta->warps().at(r.warp_in_cta), *u.cta, *ctx_);
  } catch (...) {
    failed_ = true;
    cb_.fail(std::current_exception());
  }
}

void SpuSync::snapshot() {
  const auto& units = fabric_->units();
  for (size_t i = 0; i < units.size(); ++i) before_[i] = units[i].waiting;
}

bool SpuSync::release_changed(uint64_t now) {
  const auto& units = fabric_->units();
  bool released = false;
  for (size_t i = 0; i < units.size(); ++i) {
    if (before_[i] == SyncKind::None || units[i].waiting != SyncKind::None || units[i].finished) continue;
    releases_.emplace_back(now + latency_, static_cast<unsigned>(i));
    released = true;
  }
  if (released) wake_at(now + latency_);
  return released;
}

void SpuSync::on_arrive(unsigned node, bool warp_finished) {
  const int index = unit_on(node);
  if (index < 0 || failed_) return;
  Unit& u = fabric_->units()[size_t(index)];
  snapshot();
  const bool had_warps_waiting = u.warp_kind != SyncKind::None;
  if (warp_finished && u.cta->finished()) {
    fabric_->finish(u);
  } else {
    fabric_->poll(u);
  }
  const uint64_t now = clock().now();
  const bool arrived = had_warps_waiting && u.warp_kind == SyncKind::None && !u.finished;
  if (arrived) {
    ++waits_[node];
    arrived_at_[size_t(index)] = now;
    before_[size_t(index)] = SyncKind::Global;  // it was released if it no longer waits
  }
  if (!release_changed(now) && (arrived || u.finished)) deadlock_check();
}

void SpuSync::deadlock_check() {
  if (!releases_.empty()) return;
  bool any = false;
  for (const Unit& u : fabric_->units()) {
    if (u.finished) continue;
    if (u.waiting == SyncKind::None || (u.cta == nullptr && !u.viu && !u.dma)) return;
    any = true;
  }
  if (!any) return;
  failed_ = true;
  const bool multi = plan_.passes() > 1;
  cb_.fail(std::make_exception_ptr(Error(
      ErrorKind::Deadlock,
      "deadlock in kernel '" + ctx_->kernel().name + "' on the SPU (" + std::to_string(fabric_->grid_x()) + "x" +
          std::to_string(fabric_->grid_y()) + " CTAs and their interface units" +
          (multi ? ", pass (" + std::to_string(px_) + "," + std::to_string(py_) + ") of " +
                       std::to_string(plan_.npx) + "x" + std::to_string(plan_.npy)
                 : std::string()) +
          "): no unit can make progress" + fabric_->describe_waiting(*ctx_))));
}

uint64_t SpuSync::tick(uint64_t c) {
  if (dma_.kick) {
    dma_.kick = false;
    for (size_t d = 0; d < dma_.units.size(); ++d) dma_step(d);
  }
  while (!releases_.empty() && releases_.front().first <= c) {
    const unsigned index = releases_.front().second;
    releases_.pop_front();
    if (unit_viu_[index] >= 0) {  // a virtual IU: its next spill or restore
      viu_step(size_t(unit_viu_[index]));
      continue;
    }
    const unsigned node = unit_node_[index];
    wait_cycles_[node] += c - arrived_at_[index];
    if (dma_.of_unit[index] >= 0) {  // a DMA IU: its next face
      dma_step(size_t(dma_.of_unit[index]));
      continue;
    }
    nodes_[node]->release_external_barrier(unit_slot_[index]);
  }
  if (releases_.empty()) check_pass_end();
  return releases_.empty() ? kSleep : std::max(releases_.front().first, c + 1);
}

bool SpuSync::cta_done(unsigned n) {
  const int index = fabric_ ? node_unit_[n] : -1;
  if (index < 0) return false;
  node_unit_[n] = -1;
  Unit& u = fabric_->units()[size_t(index)];
  u.cta = nullptr;
  const bool iu = u.is_iu;
  check_pass_end();
  return iu;
}

std::string SpuSync::describe() const {
  if (!fabric_ || !ctx_) return "";
  for (const Unit& u : fabric_->units())
    if (!u.finished && u.cta == nullptr && !u.viu && !u.dma) return "";
  return "\nSPU units:" + fabric_->describe_waiting(*ctx_);
}

}  // namespace simtlm::platforms::spu
