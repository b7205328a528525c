// The SM's mechanism hooks, each exercised through a real SM running a real
// kernel (docs/architecture.md, "Adding a mechanism"): life-event observers,
// issue gates, a scheduler policy that vetoes and hears L1D events, an
// allocator that sees the warp and CTA life cycle, CTA suspend/resume, and
// an extension instruction timed as a load through the LD/ST unit onto an
// extra memory space with its own port.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "frontend/ptx/extensions.h"
#include "functional/extensions.h"
#include "models/sched/gto.h"
#include "models/sm/extension_timing.h"
#include "simtlm/error.h"
#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

constexpr uint32_t kN = 200;  // vadd elements: 4 CTAs of 64 threads, the last one partly idle

struct VaddRun {
  uint64_t a = 0, b = 0, c = 0;
};

VaddRun start_vadd(SmBench& b) {
  std::vector<float> av(kN), bv(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    av[i] = static_cast<float>(i);
    bv[i] = 0.5f * static_cast<float>(i);
  }
  VaddRun r;
  r.a = b.upload(av);
  r.b = b.upload(bv);
  r.c = b.alloc(kN * 4);
  b.launch("vadd", dim((kN + 63) / 64), dim(64), Args().add(r.a).add(r.b).add(r.c).add(kN));
  return r;
}

void expect_vadd_result(SmBench& b, const VaddRun& r) {
  ASSERT_TRUE(b.all_done());
  const std::vector<float> c = b.download<float>(r.c, kN);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], 1.5f * static_cast<float>(i)) << i;
}

// ---------------------------------------------------------------- observers

struct EventLog : SmObserver {
  std::vector<std::string> cta;          // "admit 0", "activate 0", ...
  std::map<uint32_t, uint64_t> launch;   // warp slot -> launch cycle (last)
  uint64_t warps_launched = 0, warps_finished = 0, issues = 0, reads = 0, reads_with_dst = 0, writebacks = 0;
  uint64_t arrivals = 0, releases = 0;
  bool issue_before_launch = false;

  void on_cta_admit(const CtaEvent& e) override { cta.push_back("admit " + std::to_string(e.cta_id)); }
  void on_cta_activate(const CtaEvent& e) override { cta.push_back("activate " + std::to_string(e.cta_id)); }
  void on_cta_exit(const CtaEvent& e) override { cta.push_back("exit " + std::to_string(e.cta_id)); }
  void on_cta_suspend(const CtaEvent& e) override { cta.push_back("suspend " + std::to_string(e.cta_id)); }
  void on_cta_resume(const CtaEvent& e) override { cta.push_back("resume " + std::to_string(e.cta_id)); }
  void on_warp_launch(const WarpEvent& e) override {
    ++warps_launched;
    launch[e.warp_slot] = e.cycle;
  }
  void on_warp_finish(const WarpEvent&) override { ++warps_finished; }
  void on_warp_issue(const IssueRecord& r) override {
    ++issues;
    if (launch.count(r.warp_slot) == 0 || launch[r.warp_slot] > r.cycle) issue_before_launch = true;
  }
  void on_operand_read(const RegisterAccess& a) override {
    ++reads;
    if (a.inst->num_dst != 0) ++reads_with_dst;
  }
  void on_writeback(const RegisterAccess&) override { ++writebacks; }
  void on_warp_barrier(const WarpEvent&, sched::BarrierEvent kind) override {
    (kind == sched::BarrierEvent::Arrive ? arrivals : releases)++;
  }

  size_t index(const std::string& what) const {
    return static_cast<size_t>(std::find(cta.begin(), cta.end(), what) - cta.begin());
  }
};

TEST(SmHooks, EveryObserverSeesEveryLifeEventInOrder) {
  SmBench b(kVaddPtx, test_params());
  EventLog one, two;
  b.sm().subscribe(one);
  b.sm().subscribe(two);
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  const SmStats& s = b.sm().stats();
  for (const EventLog* log : {&one, &two}) {
    EXPECT_EQ(log->warps_launched, 8u);
    EXPECT_EQ(log->warps_finished, 8u);
    EXPECT_EQ(log->issues, s.warp_instructions);
    EXPECT_EQ(log->issues, b.trace.size());
    EXPECT_EQ(log->reads, log->issues);
    // Every instruction with a destination is written back exactly once.
    EXPECT_EQ(log->writebacks, log->reads_with_dst);
    EXPECT_GT(log->writebacks, 0u);
    EXPECT_FALSE(log->issue_before_launch);
    for (int cta = 0; cta < 4; ++cta) {
      const std::string id = std::to_string(cta);
      ASSERT_LT(log->index("exit " + id), log->cta.size()) << id;
      EXPECT_LT(log->index("admit " + id), log->index("activate " + id)) << id;
      EXPECT_LT(log->index("activate " + id), log->index("exit " + id)) << id;
    }
  }
  EXPECT_EQ(one.cta, two.cta);
}

TEST(SmHooks, BarrierEventsReachObservers) {
  SmBench b(kBarrierPtx, test_params());
  EventLog log;
  b.sm().subscribe(log);
  const uint64_t out = b.alloc(64 * 4);
  b.launch("barrier", dim(1), dim(64), Args().add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  // Warp 1 reaches bar.sync first and waits; warp 0's arrival releases it.
  EXPECT_EQ(log.arrivals, 1u);
  EXPECT_EQ(log.releases, 1u);
}

// ---------------------------------------------------------------- gates

// Holds every instruction before `open_at`, charging the slot `kind`.
struct ClosedUntil : IssueGate {
  ClosedUntil(uint64_t open_at, sched::StallKind kind) : open_at(open_at), kind(kind) {}
  const char* name() const override { return "closed until"; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override {
    ++asked;
    if (q.inst != nullptr && q.timing != nullptr) ++with_instruction;
    if (q.cycle >= open_at) return true;
    stall = kind;
    return false;
  }
  uint64_t open_at;
  sched::StallKind kind;
  uint64_t asked = 0, with_instruction = 0;
};

uint64_t first_issue(const SmBench& b) {
  uint64_t c = ~0ull;
  for (const IssueRecord& r : b.trace) c = std::min(c, r.cycle);
  return c;
}

TEST(SmHooks, AGateHoldsIssueAndChargesItsStallKind) {
  SmBench b(kVaddPtx, test_params());
  ClosedUntil gate(3000, sched::StallKind::Throttled);
  b.sm().add_issue_gate(gate);
  ASSERT_EQ(b.sm().issue_gates().size(), 1u);
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  EXPECT_GE(first_issue(b), 3000u);
  EXPECT_GT(gate.asked, 0u);
  EXPECT_EQ(gate.with_instruction, gate.asked);
  // Both schedulers had warps with filled I-buffers from about cycle 10 to
  // 3000: those slots are the gate's.
  EXPECT_GE(b.sm().stats().slot_throttled, 2u * 2900u);
}

TEST(SmHooks, AGateMayChargeAPipelineStall) {
  SmBench b(kVaddPtx, test_params());
  ClosedUntil gate(3000, sched::StallKind::Pipeline);
  b.sm().add_issue_gate(gate);
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  EXPECT_GE(first_issue(b), 3000u);
  const SmStats& s = b.sm().stats();
  EXPECT_GE(s.slot_pipeline, 2u * 2900u);
  EXPECT_EQ(s.slot_throttled, 0u);
}

// A gate driven by a per-instruction annotation (as GREENER's power states
// or FineReg's live-register vectors would be): an instruction whose
// "test.hold_until" value is above the cycle waits.
struct AnnotationGate : IssueGate {
  const char* name() const override { return "annotation"; }
  bool allows(const GateQuery& q, sched::StallKind& stall) override {
    const std::vector<uint64_t>* hold = q.kernel->annotations.find<uint64_t>("test.hold_until");
    if (hold == nullptr || q.pc >= hold->size() || q.cycle >= (*hold)[q.pc]) return true;
    stall = sched::StallKind::Throttled;
    return false;
  }
};

TEST(SmHooks, AGateReadsTheKernelsPerInstructionAnnotations) {
  SmBench b(kVaddPtx, test_params());
  ir::Function& k = b.mutable_module().functions[b.module().function_index.at("vadd")];
  std::vector<uint64_t> hold(k.insts.size(), 0);
  uint32_t store_pc = 0;
  for (uint32_t pc = 0; pc < k.insts.size(); ++pc) {
    if (k.insts[pc].op == ir::Opcode::St) store_pc = pc;
  }
  ASSERT_GT(store_pc, 0u);
  hold[store_pc] = 4000;  // the store waits for cycle 4000
  k.annotations.attach("test.hold_until", std::move(hold), k.insts.size());
  AnnotationGate gate;
  b.sm().add_issue_gate(gate);
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  uint64_t stores = 0, before = 0;
  for (const IssueRecord& rec : b.trace) {
    if (rec.pc == store_pc) {
      ++stores;
      EXPECT_GE(rec.cycle, 4000u);
    } else if (rec.cycle < 4000) {
      ++before;
    }
  }
  EXPECT_EQ(stores, 7u);  // 200 elements: the warps with a lane below n store
  EXPECT_GT(before, 0u);
}

// ---------------------------------------------------------------- policy

// Offers warps in slot order; vetoes the loads of odd warp slots before
// `kOpen`; counts the L1D events it hears.
class VetoingPolicy : public sched::Policy {
 public:
  static constexpr uint64_t kOpen = 2500;
  static inline std::map<CacheEventKind, uint64_t> heard;
  static inline uint64_t vetoes = 0;

  explicit VetoingPolicy(const sched::PolicyParams& p) : per_sched_(p.schedulers) {}
  const char* name() const override { return "test_veto"; }
  void warp_added(const sched::WarpInfo& w) override {
    auto& v = per_sched_[w.scheduler];
    v.insert(std::upper_bound(v.begin(), v.end(), w.slot), w.slot);
    sched_of_[w.slot] = w.scheduler;
  }
  void warp_removed(uint32_t slot) override {
    auto& v = per_sched_[sched_of_[slot]];
    v.erase(std::find(v.begin(), v.end(), slot));
  }
  const std::vector<uint32_t>& order(unsigned s, uint64_t cycle) override {
    now_ = cycle;
    out_ = per_sched_[s];
    return out_;
  }
  bool vetoes_issue() const override { return true; }
  bool allows(uint32_t slot, functional::ExecClass cls) const override {
    const bool ok = !(slot % 2 == 1 && cls == functional::ExecClass::Load && now_ < kOpen);
    if (!ok) ++vetoes;
    return ok;
  }
  bool wants_cache_events() const override { return true; }
  void on_cache_event(const CacheEvent& e) override { ++heard[e.kind]; }

 private:
  std::vector<std::vector<uint32_t>> per_sched_;
  std::map<uint32_t, uint32_t> sched_of_;
  std::vector<uint32_t> out_;
  uint64_t now_ = 0;
};

TEST(SmHooks, ARegisteredPolicyVetoesLoadsAndHearsCacheEvents) {
  sched::policies().add("test_veto", [](const sched::PolicyParams& p) { return std::make_unique<VetoingPolicy>(p); });
  SmParams p = test_params();
  p.policy.name = "test_veto";
  SmBench b(kVaddPtx, p);
  EXPECT_EQ(std::string(b.sm().policy().name()), "test_veto");
  EXPECT_EQ(b.sm().issue_gates().size(), 1u);  // the policy's veto
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  uint64_t odd_loads = 0, even_loads_before = 0;
  for (const IssueRecord& rec : b.trace) {
    if (rec.cls != functional::ExecClass::Load) continue;
    if (rec.warp_slot % 2 == 1) {
      ++odd_loads;
      EXPECT_GE(rec.cycle, VetoingPolicy::kOpen) << "slot " << rec.warp_slot;
    } else if (rec.cycle < VetoingPolicy::kOpen) {
      ++even_loads_before;
    }
  }
  EXPECT_GT(odd_loads, 0u);
  EXPECT_GT(even_loads_before, 0u);
  EXPECT_GT(VetoingPolicy::vetoes, 0u);
  EXPECT_GT(b.sm().stats().slot_throttled, 0u);
  // vadd's loads miss the cold L1D and fill it.
  EXPECT_GT(VetoingPolicy::heard[CacheEventKind::Miss], 0u);
  EXPECT_GT(VetoingPolicy::heard[CacheEventKind::Fill], 0u);
}

// GTO that records every issued instruction in detail.
class DetailPolicy : public sched::GtoPolicy {
 public:
  struct Seen {
    uint32_t slot, pc, next_pc, lanes;
    bool l1d_load;
    std::string kernel;
  };
  static inline std::vector<Seen> seen;
  explicit DetailPolicy(const sched::PolicyParams& p) : sched::GtoPolicy(p) {}
  bool wants_issue_details() const override { return true; }
  void on_issue_detail(const sched::IssueDetail& d) override {
    seen.push_back(Seen{d.slot, d.rec->pc, d.rec->next_pc, static_cast<uint32_t>(__builtin_popcountll(d.rec->active_mask)),
                        d.l1d_load, d.kernel->name});
  }
};

TEST(SmHooks, APolicyHearsEveryIssuedInstructionInDetail) {
  sched::policies().add("test_detail", [](const sched::PolicyParams& p) { return std::make_unique<DetailPolicy>(p); });
  SmParams p = test_params();
  p.policy.name = "test_detail";
  SmBench b(kVaddPtx, p);
  EXPECT_TRUE(b.sm().issue_gates().empty());  // details alone add no gate
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  ASSERT_EQ(DetailPolicy::seen.size(), b.trace.size());
  // Per warp (CTA, warp index): its loads through the L1D and its others.
  std::map<std::pair<uint64_t, uint32_t>, std::pair<uint32_t, uint32_t>> loads;
  for (size_t i = 0; i < b.trace.size(); ++i) {
    const DetailPolicy::Seen& s = DetailPolicy::seen[i];
    const IssueRecord& t = b.trace[i];
    EXPECT_EQ(s.slot, t.warp_slot) << i;
    EXPECT_EQ(s.pc, t.pc) << i;
    EXPECT_EQ(s.kernel, "vadd");
    EXPECT_GT(s.lanes, 0u);
    if (s.l1d_load) {
      EXPECT_EQ(t.cls, functional::ExecClass::Load) << i;
    }
    if (t.cls == functional::ExecClass::Load) {
      auto& n = loads[{t.cta_id, t.warp_in_cta}];
      (s.l1d_load ? n.first : n.second) += 1;
    }
  }
  // vadd: four ld.param (not through the L1D) per warp, and two ld.global
  // (through it) per warp with a thread below kN (all but CTA 3's warp 1).
  ASSERT_EQ(loads.size(), 8u);
  for (const auto& [warp, n] : loads) {
    EXPECT_EQ(n.second, 4u) << warp.first << "/" << warp.second;
    EXPECT_EQ(n.first, warp.first * 64 + warp.second * 32 < kN ? 2u : 0u) << warp.first << "/" << warp.second;
  }
}

TEST(SmHooks, AnUnregisteredPolicyIsAConfigErrorNamingTheKey) {
  SmParams p = test_params();
  p.policy.name = "bogus";
  try {
    Sm sm("sm", p);
    FAIL() << "built an SM with an unregistered policy";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("gpu.sm.scheduler.policy 'bogus'"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- allocator

// The baseline allocator, recording the life-cycle calls it gets.
class RecordingAllocator : public regfile::BaselineAllocator {
 public:
  static inline std::vector<std::string> calls;
  static inline uint64_t finished_warps = 0;
  using BaselineAllocator::BaselineAllocator;
  const char* name() const override { return "test_recording"; }
  void admit(uint32_t slot, const CtaShape& s) override {
    calls.push_back("admit " + std::to_string(slot));
    BaselineAllocator::admit(slot, s);
  }
  void release(uint32_t slot) override {
    calls.push_back("release " + std::to_string(slot));
    BaselineAllocator::release(slot);
  }
  void warp_finished(uint32_t slot, uint32_t warp) override {
    calls.push_back("finished " + std::to_string(slot) + "." + std::to_string(warp));
    ++finished_warps;
  }
  void suspend(uint32_t slot) override { calls.push_back("suspend " + std::to_string(slot)); }
  void resume(uint32_t slot) override { calls.push_back("resume " + std::to_string(slot)); }
  void register_stats(const stats::Group& g) override {
    g.counter("finished_warps", &finished_warps, "warps", "warps the allocator saw finish");
  }
};

size_t find_call(const std::string& what) {
  const auto& c = RecordingAllocator::calls;
  return static_cast<size_t>(std::find(c.begin(), c.end(), what) - c.begin());
}

TEST(SmHooks, ARegisteredAllocatorSeesWarpAndCtaLifeCycle) {
  regfile::allocators().add("test_recording", [](const regfile::AllocatorParams& p) {
    return std::make_unique<RecordingAllocator>(p);
  });
  SmParams p = test_params();
  p.register_alloc_policy = "test_recording";
  p.max_ctas = 2;  // CTA slots 0 and 1 are reused: 4 CTAs, each admitted after one left
  SmBench b(kVaddPtx, p);
  EXPECT_EQ(std::string(b.sm().register_allocator().name()), "test_recording");
  const VaddRun r = start_vadd(b);
  b.run();
  expect_vadd_result(b, r);
  EXPECT_EQ(RecordingAllocator::finished_warps, 8u);
  size_t admits = 0, releases = 0;
  for (const std::string& c : RecordingAllocator::calls) {
    admits += c.rfind("admit", 0) == 0;
    releases += c.rfind("release", 0) == 0;
  }
  EXPECT_EQ(admits, 4u);
  EXPECT_EQ(releases, 4u);
  // The first CTA in slot 0: both its warps finish before it is released.
  EXPECT_LT(find_call("admit 0"), find_call("finished 0.0"));
  EXPECT_LT(find_call("finished 0.0"), find_call("release 0"));
  EXPECT_LT(find_call("finished 0.1"), find_call("release 0"));
  // The SM registers the allocator's statistics under its own group.
  stats::Registry reg;
  b.sm().register_stats(stats::Group(reg, "gpu.sm[0]"));
  ASSERT_TRUE(reg.contains("gpu.sm[0].regfile.finished_warps"));
  EXPECT_EQ(reg.value("gpu.sm[0].regfile.finished_warps", reg.capture()), 8.0);
}

// ---------------------------------------------------------------- suspend / resume

// Suspends CTA 0 when it activates and resumes it when CTA 1 exits.
struct Switcher : SmObserver {
  explicit Switcher(Sm& sm) : sm(sm) {}
  void on_cta_activate(const CtaEvent& e) override {
    if (e.cta_id == 0) {
      slot0 = e.cta_slot;
      sm.suspend_cta(e.cta_slot);
    }
  }
  void on_cta_exit(const CtaEvent& e) override {
    if (e.cta_id == 1) {
      resumed_at = e.cycle;
      sm.resume_cta(slot0);
    }
  }
  Sm& sm;
  uint32_t slot0 = 0;
  uint64_t resumed_at = 0;
};

TEST(SmHooks, ASuspendedCtaIssuesNothingUntilResumed) {
  RecordingAllocator::calls.clear();
  regfile::allocators().add("test_recording2", [](const regfile::AllocatorParams& p) {
    return std::make_unique<RecordingAllocator>(p);
  });
  SmParams p = test_params();
  p.register_alloc_policy = "test_recording2";
  SmBench b(kVaddPtx, p);
  Switcher sw(b.sm());
  EventLog log;
  b.sm().subscribe(sw);
  b.sm().subscribe(log);
  std::vector<float> av(128, 1.0f), bv(128, 2.0f);
  const uint64_t a = b.upload(av), bb = b.upload(bv), c = b.alloc(128 * 4);
  b.launch("vadd", dim(2), dim(64), Args().add(a).add(bb).add(c).add(uint32_t(128)));
  b.run();
  ASSERT_TRUE(b.all_done());
  const std::vector<float> out = b.download<float>(c, 128);
  for (float v : out) ASSERT_EQ(v, 3.0f);
  ASSERT_GT(sw.resumed_at, 0u);
  uint64_t cta0 = 0;
  for (const IssueRecord& r : b.trace) {
    if (r.cta_id != 0) continue;
    ++cta0;
    EXPECT_GE(r.cycle, sw.resumed_at);
  }
  EXPECT_GT(cta0, 0u);
  EXPECT_LT(log.index("suspend 0"), log.index("exit 1"));
  EXPECT_LT(log.index("resume 0"), log.index("exit 0"));
  EXPECT_LT(find_call("suspend " + std::to_string(sw.slot0)), find_call("resume " + std::to_string(sw.slot0)));
}

// ---------------------------------------------------------------- extension

// `simtlmtest.ldmem d, a;`: d = 3 * a, read from the test memory space at
// address a (4 bytes per lane).
const char* const kLdmemPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry ldmem(.param .u64 pout)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  simtlmtest.ldmem %r3, %r2;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)PTX";

uint16_t ldmem_extension() {
  auto& reg = frontend::ptx::ExtensionRegistry::global();
  const int existing = reg.id_of("simtlmtest.ldmem");
  if (existing >= 0) return static_cast<uint16_t>(existing);
  frontend::ptx::ExtensionDef def;
  def.mnemonic = "simtlmtest.ldmem";
  def.description = "test load from an extra memory space";
  def.max_types = 0;
  frontend::ptx::ExtOperand d;
  d.is_dst = true;
  d.type = ir::DataType::U32;
  frontend::ptx::ExtOperand a;
  a.type = ir::DataType::U32;
  def.operands = {d, a};
  const uint16_t id = reg.add(def);
  functional::register_extension_semantics(id, [](functional::ExtensionCall& call) {
    const uint64_t* a = call.warp.reg(call.inst.ops[1].reg);
    uint64_t* dst = call.warp.reg(call.inst.ops[0].reg);
    uint64_t* addr = call.warp.addresses();
    for (unsigned l = 0; l < call.warp.width(); ++l) {
      if (!((call.exec_mask >> l) & 1)) continue;
      addr[l] = a[l];
      dst[l] = (3 * a[l]) & 0xFFFFFFFFu;
    }
    call.record.cls = functional::ExecClass::Load;
    call.record.access_bytes = 4;
    call.record.addresses = addr;
  });
  ExtensionTiming t;
  t.cls = functional::ExecClass::Load;
  t.memory_space = "testmem";
  register_extension_timing(id, t);
  return id;
}

TEST(SmHooks, AnExtensionLoadGoesThroughLdstToItsMemorySpace) {
  ldmem_extension();
  SmParams p = test_params();
  p.memory_spaces = {"testmem"};
  SmBench b(kLdmemPtx, p);
  MemTarget space("testmem", p.clock_period, 300);
  b.sm().memory_space_socket("testmem").bind(space.socket);
  const uint64_t out = b.alloc(64 * 4);
  b.launch("ldmem", dim(1), dim(64), Args().add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  const std::vector<uint32_t> v = b.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(v[t], 12 * t) << t;
  // Two warps, each 32 lanes x 4 contiguous bytes = one 128-byte line.
  ASSERT_EQ(space.seen.size(), 2u);
  for (const SeenRequest& s : space.seen) {
    EXPECT_EQ(s.kind, AccessKind::Load);
    EXPECT_EQ(s.space, StateSpace::Extra);
    EXPECT_EQ(s.sectors, 0xFu);
  }
  EXPECT_EQ(space.seen[0].addr, 0u);
  EXPECT_EQ(space.seen[1].addr, 128u);
  // The store that uses the loaded value waits for the space's 300 cycles.
  uint64_t ext_issue = 0, store_issue = 0;
  for (const IssueRecord& r : b.trace) {
    if (r.warp_slot != 0) continue;
    if (r.cls == functional::ExecClass::Load && ext_issue == 0) ext_issue = r.cycle;
    if (r.cls == functional::ExecClass::Store) store_issue = r.cycle;
  }
  EXPECT_GE(store_issue, ext_issue + 300);
  // None of it went to the global-memory port.
  EXPECT_EQ(b.target().count(AccessKind::Load), 0u);
}

TEST(SmHooks, AnExtensionOnAnSmWithoutItsMemorySpaceIsAnErrorNamingTheLine) {
  ldmem_extension();
  SmBench b(kLdmemPtx, test_params());
  const uint64_t out = b.alloc(64 * 4);
  try {
    b.launch("ldmem", dim(1), dim(64), Args().add(out));
    b.run();
    FAIL() << "ran an extension whose memory space the SM does not have";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    const std::string m = e.what();
    EXPECT_NE(m.find("test.ptx:12"), std::string::npos) << m;
    EXPECT_NE(m.find("simtlmtest.ldmem"), std::string::npos) << m;
    EXPECT_NE(m.find("'testmem'"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace simtlm::models::test
