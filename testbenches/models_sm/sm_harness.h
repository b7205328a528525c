// Test harness of the SM timing model (used by models_sm and models_sched):
//   MemTarget - fixed-latency memory behind the SM's memory socket: accepts up
//               to `capacity` outstanding requests (END_REQ held beyond) and
//               answers each `latency` core cycles after it arrives, one
//               response per cycle, logging every request.
//   SmBench   - one Sm (with its L1D) + a MemTarget, a PTX module loaded
//               through the front end, device memory mirrored into a second
//               GlobalMemory for the functional reference run, a trivial CTA
//               dispatcher (fills the SM, launches the next CTA when one
//               completes) and an issue trace.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/inline_calls.h"
#include "frontend/passes/layout_memory.h"
#include "frontend/ptx/parser.h"
#include "functional/executor.h"
#include "functional/launch.h"
#include "functional/memory.h"
#include "models/common/at_target_port.h"
#include "models/common/clock_domain.h"
#include "models/common/mem_extension.h"
#include "models/sm/sm.h"

namespace simtlm::models::test {

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

struct SeenRequest {
  uint64_t addr = 0;
  uint32_t sectors = 0;
  AccessKind kind = AccessKind::Load;
  StateSpace space = StateSpace::Global;
  bool write = false;
  uint64_t cycle = 0;
};

class MemTarget : public ClockedModule, private AtTargetPort::Listener {
 private:
  AtTargetPort port_;

 public:
  AtTargetPort::socket_type& socket;
  std::vector<SeenRequest> seen;

  MemTarget(const sc_core::sc_module_name& name, const sc_core::sc_time& period, uint64_t latency,
            size_t capacity = 1u << 20)
      : ClockedModule(name, period),
        port_("socket", static_cast<AtTargetPort::Listener&>(*this)),
        socket(port_.socket),
        latency_(latency),
        capacity_(capacity) {}

  size_t count(AccessKind kind) const {
    size_t n = 0;
    for (const SeenRequest& s : seen) n += s.kind == kind ? 1 : 0;
    return n;
  }

 private:
  struct Entry {
    tlm::tlm_generic_payload* trans;
    uint64_t ready;
  };

  void accept(tlm::tlm_generic_payload& t) {
    const MemExtension* e = find_mem_ext(t);
    SeenRequest s;
    s.addr = t.get_address();
    s.sectors = e ? e->sector_mask : 0;
    s.kind = e ? e->kind : AccessKind::Load;
    s.space = e ? e->space : StateSpace::Global;
    s.write = t.is_write();
    s.cycle = clock().registration_cycle_now();
    seen.push_back(s);
    queue_.push_back({&t, clock().registration_cycle_now() + latency_});
    wake_at(queue_.back().ready);
  }
  bool on_request(unsigned, tlm::tlm_generic_payload& t) override {
    if (queue_.size() >= capacity_) return false;
    accept(t);
    return true;
  }
  void on_response_done(unsigned, tlm::tlm_generic_payload&) override { wake_next(); }
  uint64_t tick(uint64_t c) override {
    if (port_.held_request() != nullptr && queue_.size() < capacity_) accept(port_.accept_request());
    if (!queue_.empty() && queue_.front().ready <= c && port_.response_ready()) {
      tlm::tlm_generic_payload* t = queue_.front().trans;
      queue_.pop_front();
      port_.send_response(*t);
    }
    if (port_.held_request() != nullptr && queue_.size() < capacity_) return c + 1;
    if (queue_.empty()) return kSleep;
    if (!port_.response_ready()) return kSleep;  // on_response_done wakes us
    return std::max(queue_.front().ready, c + 1);
  }

  uint64_t latency_;
  size_t capacity_;
  std::deque<Entry> queue_;
};

class Args {
 public:
  template <typename T>
  Args& add(const T& v) {
    std::vector<uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    args_.push_back(std::move(b));
    return *this;
  }
  const std::vector<std::vector<uint8_t>>& list() const { return args_; }

 private:
  std::vector<std::vector<uint8_t>> args_;
};

inline functional::Dim3u dim(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  functional::Dim3u d;
  d.x = x;
  d.y = y;
  d.z = z;
  return d;
}

// SM parameters for tests: 1 ns core clock, perfect instruction cache, the
// gtx480 pipeline otherwise.
inline SmParams test_params() {
  SmParams p;
  p.clock_period = ns(1);
  p.icache_perfect = true;
  p.l1d.sets = 32;
  p.l1d.ways = 4;
  p.l1d.line_bytes = 128;
  p.l1d.sector_bytes = 32;
  p.l1d.mshrs = 32;
  p.l1d.mshr_merge_limit = 8;
  p.l1d.hit_latency = 35;
  p.l1d.miss_queue = 8;
  p.l1d.write_policy = WritePolicy::WriteEvict;
  p.l1d.write_allocate = false;
  return p;
}

inline std::unique_ptr<ir::Module> load_ptx(const std::string& ptx) {
  auto m = frontend::parse_ptx(ptx, "test.ptx");
  frontend::passes::inline_calls(*m);
  frontend::passes::layout_memory(*m);
  frontend::analysis::analyze(*m);
  return m;
}

class SmBench {
 public:
  SmBench(const std::string& ptx, const SmParams& params, uint64_t mem_latency = 100, size_t mem_capacity = 1u << 20,
          const std::string& name = "sm")
      : module_(load_ptx(ptx)),
        sm_(std::make_unique<Sm>(name.c_str(), params)),
        target_(std::make_unique<MemTarget>((name + "_mem").c_str(), params.clock_period, mem_latency, mem_capacity)) {
    sm_->mem_socket().bind(target_->socket);
    const auto& vars = module_->vars;
    var_addresses_.assign(vars.size(), 0);
    for (size_t i = 0; i < vars.size(); ++i) {
      const ir::Variable& v = vars[i];
      if (v.space != ir::StateSpace::Global && v.space != ir::StateSpace::Const) continue;
      var_addresses_[i] = alloc(v.size ? v.size : 1);
      if (!v.init.empty()) write(var_addresses_[i], v.init.data(), v.init.size());
    }
    sm_->subscribe(issue_log_);
    sm_->set_cta_done_callback([this](Sm& sm, const functional::LaunchContext&, uint64_t) {
      ++completed;
      dispatch(sm);
    });
  }

  Sm& sm() { return *sm_; }
  const ir::Module& module() const { return *module_; }
  // Before launch(): e.g. to attach annotations as a front-end pass would.
  ir::Module& mutable_module() { return *module_; }
  MemTarget& target() { return *target_; }
  functional::GlobalMemory& memory() { return mem_; }
  functional::GlobalMemory& reference_memory() { return ref_; }

  uint64_t alloc(uint64_t bytes) {
    const uint64_t a = mem_.allocate(bytes);
    const uint64_t b = ref_.allocate(bytes);
    EXPECT_EQ(a, b);
    return a;
  }
  void write(uint64_t addr, const void* data, uint64_t bytes) {
    mem_.write(addr, data, bytes);
    ref_.write(addr, data, bytes);
  }
  template <typename T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = alloc(v.size() * sizeof(T));
    if (!v.empty()) write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <typename T>
  std::vector<T> download(uint64_t addr, size_t n, bool reference = false) const {
    std::vector<T> v(n);
    if (n) (reference ? ref_ : mem_).read(v.data(), addr, n * sizeof(T));
    return v;
  }

  functional::LaunchRequest request(const std::string& kernel, functional::Dim3u grid, functional::Dim3u block,
                                    const Args& args, uint32_t dynamic_shared = 0) const {
    const ir::Function* k = module_->find_kernel(kernel);
    EXPECT_NE(k, nullptr) << kernel;
    functional::LaunchRequest r;
    r.module = module_.get();
    r.kernel = k;
    r.grid = grid;
    r.block = block;
    r.warp_size = sm_->params().warp_size;
    r.dynamic_shared_bytes = dynamic_shared;
    r.var_addresses = &var_addresses_;
    r.params.assign(k->param_bytes, 0);
    for (size_t i = 0; i < k->params.size() && i < args.list().size(); ++i) {
      const ir::Variable& p = module_->vars[k->params[i]];
      std::memcpy(r.params.data() + p.param_offset, args.list()[i].data(), args.list()[i].size());
    }
    return r;
  }

  // Places the launch's first CTAs on the SM (they start when the simulation
  // runs) and runs the same launch functionally on the reference memory.
  void launch(const std::string& kernel, functional::Dim3u grid, functional::Dim3u block, const Args& args,
              uint32_t dynamic_shared = 0) {
    request_ = request(kernel, grid, block, args, dynamic_shared);
    ctx_ = std::make_unique<functional::LaunchContext>(request_, mem_);
    next_cta_ = 0;
    completed = 0;
    dispatch(*sm_);
    reference = functional::run_launch(request_, ref_);  // may throw (device fault)
  }

  // Runs until the simulation has no more events (or `limit`).
  void run(const sc_core::sc_time& limit = sc_core::sc_time(10, sc_core::SC_MS)) { sc_core::sc_start(limit); }

  bool all_done() const { return ctx_ && completed == ctx_->num_ctas(); }
  uint64_t cycles() const { return sc_core::sc_time_stamp().value() / sm_->params().clock_period.value(); }

  std::vector<IssueRecord> trace;
  uint64_t completed = 0;
  functional::LaunchCounters reference;

 private:
  void dispatch(Sm& sm) {
    if (!ctx_) return;
    const CtaShape shape = CtaShape::of(*ctx_);
    while (next_cta_ < ctx_->num_ctas() && sm.can_admit(shape)) sm.launch_cta(*ctx_, next_cta_++);
  }

  // Records every issued instruction into `trace`.
  struct IssueLog : SmObserver {
    explicit IssueLog(std::vector<IssueRecord>& t) : trace(t) {}
    void on_warp_issue(const IssueRecord& r) override { trace.push_back(r); }
    std::vector<IssueRecord>& trace;
  };

  IssueLog issue_log_{trace};
  std::unique_ptr<ir::Module> module_;
  functional::GlobalMemory mem_;
  functional::GlobalMemory ref_;
  std::vector<uint64_t> var_addresses_;
  std::unique_ptr<Sm> sm_;
  std::unique_ptr<MemTarget> target_;
  functional::LaunchRequest request_;
  std::unique_ptr<functional::LaunchContext> ctx_;
  uint64_t next_cta_ = 0;
};

}  // namespace simtlm::models::test
