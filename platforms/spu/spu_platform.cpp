// SpuPlatform: the nodes, the links and their binding, the launch hooks
// (see spu_platform.h); the rendezvous and the per-launch state are in
// spu_sync.cpp.
#include "platforms/spu/spu_platform.h"

#include <algorithm>

#include "functional/spu/spu_launch.h"
#include "models/spu/spu_timing.h"
#include "platforms/common/platform_registry.h"
#include "platforms/spu/spu_sync.h"
#include "simtlm/error.h"

namespace simtlm::platforms::spu {

namespace {

const PlatformRegistration kSpu("spu", [](const sc_core::sc_module_name& name, const Config& cfg) {
  return std::make_unique<SpuPlatform>(name, cfg);
});

models::SmParams node_params(const Config& cfg, unsigned id) {
  models::SmParams p = models::sm_params_from_config(cfg, id);
  p.memory_spaces = models::spu::cb_spaces();
  return p;
}

// CTA (X, Y) on SM (X mod p, Y mod p): the restricted mapping (note §1.7).
// The CTAs of the current pass are placed at its start (one per SM), in the
// dispatch order SpuSync::cta_at() gives the platform.
class RestrictedPlacement final : public CtaPlacement {
 public:
  explicit RestrictedPlacement(SpuSync& sync) : sync_(sync) {}
  void place(PlacementTarget& t) override {
    while (t.waiting() != 0 && sync_.may_place()) {
      const unsigned sm = sync_.sm_of(t.next_cta());
      if (!t.can_admit(sm)) break;
      t.place(sm);
      sync_.placed();
    }
  }

 private:
  SpuSync& sync_;
};

}  // namespace

SpuPlatform::SpuPlatform(const sc_core::sc_module_name& name, const Config& cfg)
    : GpuPlatform(name, cfg, node_params, Deferred{8 * cfg.u32("spu.grid_size")}),
      p_(cfg.u32("spu.grid_size")),
      dma_ius_(cfg.str("spu.iu.kind") == "dma") {
  models::spu::register_cb_timing();
  for (unsigned k = 0; k < 4 * p_; ++k) {
    const std::string nm = "iu[" + std::to_string(k) + "]";
    ius_.push_back(std::make_unique<models::Sm>(nm.c_str(), node_params(cfg, p_ * p_ + k)));
  }
  build_links(cfg);
  bind_nodes();
  std::vector<models::Sm*> nodes;
  for (unsigned n = 0; n < p_ * p_ + 4 * p_; ++n) nodes.push_back(&node(n));
  // One TileMover per interface unit for its virtual IU, on the crossbar
  // ports after the IUs'.
  std::vector<models::spu::TileMover*> movers;
  for (unsigned k = 0; k < 4 * p_; ++k) {
    const std::string nm = "viu_mover[" + std::to_string(k) + "]";
    movers_.push_back(std::make_unique<models::spu::TileMover>(nm.c_str(), core_clock().period(),
                                                              int32_t(p_ * p_ + k), cfg.u32("gpu.sm.smem.latency")));
    movers_.back()->socket().bind(noc().target_socket(p_ * p_ + 4 * p_ + k));
    movers.push_back(movers_.back().get());
  }
  SpuSync::Callbacks callbacks;
  callbacks.fail = [this](std::exception_ptr e) { fail(e); };
  callbacks.ius_done = [this] { launch_work_done(); };
  callbacks.redispatch = [this] { redispatch(); };
  SpuSync::Mode mode;
  mode.overlapped = cfg.str("spu.passes") == "overlapped";
  mode.scoreboard = cfg.boolean("spu.spill_scoreboard");
  sync_ = std::make_unique<SpuSync>("spu_sync", core_clock().period(), p_, cfg.u32("spu.cb_bytes"),
                                    cfg.u32("spu.sync_latency"), std::move(nodes),
                                    [this](int x, int y) { return node_at(x, y); }, std::move(movers),
                                    std::move(callbacks), mode);
  if (dma_ius_) sync_->set_dma(iu_links_);
  for (auto& iu : ius_) {
    iu->set_cta_done_callback([this](models::Sm& s, const functional::LaunchContext&, uint64_t cta) {
      if (launch_running()) claim_cta_done(s, cta);
    });
    iu->set_fault_callback([this](models::Sm&, std::exception_ptr e) { fail(e); });
  }
  finish_construction();
}

SpuPlatform::~SpuPlatform() = default;

models::Sm& SpuPlatform::node(unsigned n) { return n < p_ * p_ ? sm(n) : *ius_.at(n - p_ * p_); }

int SpuPlatform::node_at(int x, int y) const {
  const int p = static_cast<int>(p_), sms = p * p;
  const bool in_x = x >= 0 && x < p, in_y = y >= 0 && y < p;
  if (in_x && in_y) return y * p + x;
  if (in_x && y == -1) return sms + x;
  if (in_y && x == -1) return sms + p + y;
  if (in_x && y == p) return sms + 2 * p + x;
  if (in_y && x == p) return sms + 3 * p + y;
  return -1;
}

void SpuPlatform::build_links(const Config& cfg) {
  models::spu::CbParams cp;
  cp.clock_period = core_clock().period();
  cp.latency = cfg.u32("gpu.sm.smem.latency");
  // Vertical links v(x, y) (x < p, y <= p) first, then horizontal h(x, y).
  for (unsigned i = 0; i < 2 * p_ * (p_ + 1); ++i) {
    const std::string nm = "cb[" + std::to_string(i) + "]";
    links_.push_back(std::make_unique<models::spu::CbLink>(nm.c_str(), cp));
  }
  no_link_ = std::make_unique<models::spu::CbNoLink>("cb_none", 12 * p_);  // 3 unused ports per IU
}

// Every node's four CB ports: north/west on the consumer side of its incoming
// links, south/east on the producer side of its outgoing ones; an IU's
// ports away from the grid go to the no-link target.
void SpuPlatform::bind_nodes() {
  const int p = static_cast<int>(p_);
  auto vlink = [&](int x, int y) { return x >= 0 && x < p && y >= 0 && y <= p ? x * (p + 1) + y : -1; };
  auto hlink = [&](int x, int y) { return y >= 0 && y < p && x >= 0 && x <= p ? p * (p + 1) + y * (p + 1) + x : -1; };
  const auto& spaces = models::spu::cb_spaces();
  unsigned unused = 0;
  iu_links_.assign(4 * p_, nullptr);
  for (int y = -1; y <= p; ++y) {
    for (int x = -1; x <= p; ++x) {
      const int n = node_at(x, y);
      if (n < 0) continue;
      models::Sm& s = node(static_cast<unsigned>(n));
      const int link[4] = {vlink(x, y), hlink(x, y), vlink(x, y + 1), hlink(x + 1, y)};
      for (unsigned d = 0; d < 4; ++d) {
        auto& socket = s.memory_space_socket(spaces[d]);
        if (link[d] >= 0 && n >= p * p) iu_links_[size_t(n - p * p)] = links_[size_t(link[d])].get();
        if (link[d] < 0) {
          socket.bind(no_link_->socket(unused++));
        } else if (d < 2) {
          socket.bind(links_[size_t(link[d])]->consumer_socket());
        } else {
          socket.bind(links_[size_t(link[d])]->producer_socket());
        }
      }
    }
  }
  if (unused != 12 * p_) throw Error(ErrorKind::Internal, "SPU: unexpected number of unconnected CB ports");
  for (unsigned k = 0; k < ius_.size(); ++k) ius_[k]->mem_socket().bind(noc().target_socket(p_ * p_ + k));
}

void SpuPlatform::launch_begins(functional::LaunchContext& ctx) {
  if (!functional::spu::uses_spu_instructions(ctx.kernel())) {
    sync_->begin_plain();
    set_cta_placement(make_cta_placement(config().str("gpu.cta_placement")));
    return;
  }
  const functional::Dim3u& g = ctx.grid();
  if (g.z != 1) {
    throw Error(ErrorKind::Launch, "kernel '" + ctx.kernel().name + "' is launched with a grid of " +
                                       std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z) +
                                       " CTAs on the SPU: its grid of SMs is two-dimensional (grid z must be 1)");
  }
  sync_->begin(ctx);
  set_cta_placement(std::make_unique<RestrictedPlacement>(*sync_));
}

uint64_t SpuPlatform::cta_in_dispatch_order(uint64_t n) const { return sync_->cta_at(n); }

// The IUs' global loads and stores are off-chip accesses too (the thesis's
// I/O count includes the loading and storing IUs', Table 6.3), and so are the
// virtual IUs' spill and restore words.
uint64_t SpuPlatform::extra_offchip_accesses() const {
  uint64_t n = sync_->viu_words() + sync_->dma_words();
  for (const auto& iu : ius_) n += iu->stats().offchip_accesses;
  return n;
}

void SpuPlatform::complete_figures(LaunchFigures& f) const {
  sync_->complete_figures(f.spu_passes, f.viu_spills, f.viu_restores);
}

bool SpuPlatform::claim_cta_done(models::Sm& s, uint64_t cta) {
  (void)cta;
  return sync_->cta_done(s.id());
}

bool SpuPlatform::launch_work_pending() const { return sync_->work_left(); }

uint64_t SpuPlatform::extra_warp_instructions() const {
  uint64_t n = 0;
  for (const auto& iu : ius_) n += iu->progress();
  return n;
}

uint64_t SpuPlatform::extra_issue_per_cycle() const {
  uint64_t n = 0;
  for (const auto& iu : ius_) n += uint64_t{iu->params().schedulers} * iu->params().max_issue_per_warp;
  return n;
}

uint64_t SpuPlatform::extra_thread_instructions() const {
  uint64_t n = 0;
  for (const auto& iu : ius_) n += iu->stats().thread_instructions;
  return n;
}

uint64_t SpuPlatform::extra_last_issue_cycle() const {
  uint64_t c = 0;
  for (const auto& iu : ius_) c = std::max(c, iu->last_issue_cycle());
  return c;
}

std::string SpuPlatform::describe_extra_stall() const {
  std::string out;
  for (const auto& iu : ius_) {
    if (!iu->busy()) continue;
    out += "\n" + std::string(iu->name()) + ": " + std::to_string(iu->busy_ctas()) + " CTA(s)\n" + iu->describe_stall();
  }
  return out + sync_->describe();
}

}  // namespace simtlm::platforms::spu
