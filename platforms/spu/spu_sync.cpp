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
                 Callbacks callbacks)
    : ClockedModule(name, period),
      p_(p),
      cb_bytes_(cb_bytes),
      latency_(sync_latency),
      nodes_(std::move(nodes)),
      node_at_(std::move(node_at)),
      cb_(std::move(callbacks)),
      node_unit_(nodes_.size(), -1),
      waits_(nodes_.size(), 0),
      wait_cycles_(nodes_.size(), 0) {
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
}

void SpuSync::begin_plain() {
  ctx_ = nullptr;
  fabric_.reset();
  std::fill(node_unit_.begin(), node_unit_.end(), -1);
  releases_.clear();
  ius_left_ = 0;
}

namespace {

// The grid CTA an IU sees as %ctaid: the one next to it (as the functional
// backend's launch driver chooses).
uint64_t adjacent_cta(const Unit& u, uint32_t gx, uint32_t gy) {
  const uint32_t x = u.x < 0 ? 0 : (u.x >= int32_t(gx) ? gx - 1 : uint32_t(u.x));
  const uint32_t y = u.y < 0 ? 0 : (u.y >= int32_t(gy) ? gy - 1 : uint32_t(u.y));
  return uint64_t(y) * gx + x;
}

}  // namespace

void SpuSync::begin(functional::LaunchContext& ctx) {
  begin_plain();
  const functional::Dim3u g = ctx.grid();
  ctx_ = &ctx;
  failed_ = false;
  fabric_ = std::make_unique<functional::spu::Fabric>(g.x, g.y, cb_bytes_);
  const size_t units = fabric_->units().size();
  unit_node_.assign(units, 0);
  unit_slot_.assign(units, 0);
  arrived_at_.assign(units, 0);
  before_.assign(units, SyncKind::None);
  for (size_t i = 0; i < units; ++i) {
    const Unit& u = fabric_->units()[i];
    const int n = node_at_(u.x, u.y);
    if (n < 0) throw Error(ErrorKind::Internal, "SPU unit " + u.name + " has no node");
    unit_node_[i] = static_cast<unsigned>(n);
  }
  for (size_t i = 0; i < units; ++i) {
    const Unit& u = fabric_->units()[i];
    if (!u.is_iu) continue;
    models::Sm& sm = *nodes_[unit_node_[i]];
    if (!sm.can_admit(models::CtaShape::of(ctx))) {
      throw Error(ErrorKind::Launch, "kernel '" + ctx.kernel().name + "': " + u.name + " cannot start on " +
                                         sm.name() + " (it does not admit a CTA of the launch's shape)");
    }
    pending_unit_ = static_cast<int>(i);
    sm.launch_cta(ctx, adjacent_cta(u, g.x, g.y));
    pending_unit_ = -1;
    ++ius_left_;
  }
}

void SpuSync::on_admit(unsigned node, uint32_t cta_slot, uint64_t cta_id) {
  if (!fabric_) return;
  const int index = pending_unit_ >= 0 ? pending_unit_ : static_cast<int>(cta_id);
  Unit& u = fabric_->units().at(size_t(index));
  functional::Cta& cta = *nodes_[node]->cta_table()[cta_slot].cta;
  cta.set_spu_unit(&u, u.name);
  // %smid as on the functional backend: y * p + x for an SM, p * p + the IU's
  // index among the launch's IUs.
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

void SpuSync::on_arrive(unsigned node, bool warp_finished) {
  const int index = unit_on(node);
  if (index < 0 || failed_) return;
  auto& units = fabric_->units();
  Unit& u = units[size_t(index)];
  for (size_t i = 0; i < units.size(); ++i) before_[i] = units[i].waiting;
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
  }
  bool released = false;
  for (size_t i = 0; i < units.size(); ++i) {
    const bool was_waiting = before_[i] != SyncKind::None || (i == size_t(index) && arrived);
    if (!was_waiting || units[i].waiting != SyncKind::None || units[i].finished) continue;
    releases_.emplace_back(now + latency_, static_cast<unsigned>(i));
    released = true;
  }
  if (released) {
    wake_at(now + latency_);
  } else if (arrived || u.finished) {
    deadlock_check();
  }
}

void SpuSync::deadlock_check() {
  if (!releases_.empty()) return;
  bool any = false;
  for (const Unit& u : fabric_->units()) {
    if (u.finished) continue;
    if (u.waiting == SyncKind::None || u.cta == nullptr) return;
    any = true;
  }
  if (!any) return;
  failed_ = true;
  const functional::Dim3u g = ctx_->grid();
  cb_.fail(std::make_exception_ptr(Error(
      ErrorKind::Deadlock, "deadlock in kernel '" + ctx_->kernel().name + "' on the SPU (" + std::to_string(g.x) +
                               "x" + std::to_string(g.y) +
                               " CTAs and their interface units): no unit can make progress" +
                               fabric_->describe_waiting(*ctx_))));
}

uint64_t SpuSync::tick(uint64_t c) {
  while (!releases_.empty() && releases_.front().first <= c) {
    const unsigned index = releases_.front().second;
    releases_.pop_front();
    const unsigned node = unit_node_[index];
    wait_cycles_[node] += c - arrived_at_[index];
    nodes_[node]->release_external_barrier(unit_slot_[index]);
  }
  return releases_.empty() ? kSleep : std::max(releases_.front().first, c + 1);
}

bool SpuSync::cta_done(unsigned n) {
  const int index = fabric_ ? node_unit_[n] : -1;
  if (index < 0) return false;
  node_unit_[n] = -1;
  Unit& u = fabric_->units()[size_t(index)];
  u.cta = nullptr;
  if (!u.is_iu) return false;
  if (--ius_left_ == 0 && cb_.ius_done) cb_.ius_done();
  return true;
}

std::string SpuSync::describe() const {
  if (!fabric_ || !ctx_) return "";
  for (const Unit& u : fabric_->units())
    if (!u.finished && u.cta == nullptr) return "";
  return "\nSPU units:" + fabric_->describe_waiting(*ctx_);
}

}  // namespace simtlm::platforms::spu
