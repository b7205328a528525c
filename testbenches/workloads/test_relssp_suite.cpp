// relssp placement over the workload suite on the functional backend (Jatala
// §3.2.3; seed note 000 §7 items 16, 17 and 19): every workload with shared
// memory runs with placement opt and postdom and passes its CPU check; every
// thread executes relssp exactly once, and no thread touches shared memory
// after it; the inserted instructions executed per thread are 1 or 2 per
// kernel (relssp, plus a split edge's branch on some paths).
//
// The check is independent of the placement's own notion of a shared access:
// a test pass after `relssp` puts a marker before every load, store, atomic
// and reduction in the .shared space or the generic space, and before every
// ret/exit. The markers' semantics look at the executing lanes at run time:
// a generic access counts when its address falls in the shared window.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/rewrite.h"
#include "frontend/ptx/extensions.h"
#include "functional/cta.h"
#include "functional/extensions.h"
#include "functional/launch.h"
#include "simtlm/config.h"
#include "simtlm/device.h"
#include "testbenches/workloads/workload_harness.h"

namespace simtlm::workloads::testing {
namespace {

using frontend::passes::FunctionRewriter;

// What the markers saw: per live thread, relssp executed so far.
struct Observed {
  std::map<uint64_t, uint32_t> relssp;  // key: CTA << 32 | thread
  uint64_t threads_ended = 0, threads_with_relssp = 0;
  std::vector<std::string> violations;
  void violation(const std::string& v) {
    if (violations.size() < 10) violations.push_back(v);
  }
};
Observed* g_seen = nullptr;

uint64_t key(const functional::Cta& cta, const functional::Warp& warp, unsigned lane) {
  return (cta.linear_id() << 32) | (warp.first_thread() + lane);
}

struct Markers {
  uint16_t shared_access, generic_access, thread_end;
};

// Registers the markers once (parser registry: for register-use queries and
// printing; semantics: the checks).
Markers markers() {
  static const Markers m = [] {
    auto& reg = frontend::ptx::ExtensionRegistry::global();
    frontend::ptx::ExtensionDef s;
    s.mnemonic = "simtlmtest.shared_access";
    s.max_types = 0;
    frontend::ptx::ExtensionDef g = s;
    g.mnemonic = "simtlmtest.generic_access";
    frontend::ptx::ExtOperand addr;
    addr.kinds = frontend::ptx::kExtAddress;
    g.operands = {addr};
    frontend::ptx::ExtensionDef e = s;
    e.mnemonic = "simtlmtest.thread_end";
    frontend::ptx::ExtOperand expected;  // relssp each thread must have executed (0 or 1)
    expected.kinds = frontend::ptx::kExtImm;
    e.operands = {expected};
    Markers out{reg.add(s), reg.add(g), reg.add(e)};
    functional::register_extension_semantics(out.shared_access, [](functional::ExtensionCall& c) {
      for (unsigned l = 0; l < c.warp.width(); ++l)
        if (((c.exec_mask >> l) & 1) && g_seen->relssp[key(c.cta, c.warp, l)] != 0)
          g_seen->violation("shared access after relssp at PTX line " + std::to_string(c.inst.loc.line));
    });
    functional::register_extension_semantics(out.generic_access, [](functional::ExtensionCall& c) {
      const ir::Operand& a = c.inst.ops[0];
      if (a.base != ir::OperandKind::Reg) return;  // a variable's generic address is global
      const uint64_t* base = c.warp.reg(a.reg);
      for (unsigned l = 0; l < c.warp.width(); ++l) {
        if (!((c.exec_mask >> l) & 1)) continue;
        const uint64_t addr = base[l] + static_cast<uint64_t>(a.offset);
        const bool shared = addr >= functional::kSharedWindowBase &&
                            addr < functional::kSharedWindowBase + functional::kWindowSize;
        if (shared && g_seen->relssp[key(c.cta, c.warp, l)] != 0)
          g_seen->violation("generic shared access after relssp at PTX line " + std::to_string(c.inst.loc.line));
      }
    });
    functional::register_extension_semantics(out.thread_end, [](functional::ExtensionCall& c) {
      for (unsigned l = 0; l < c.warp.width(); ++l) {
        if (!((c.exec_mask >> l) & 1)) continue;
        auto it = g_seen->relssp.find(key(c.cta, c.warp, l));
        const uint32_t n = it == g_seen->relssp.end() ? 0 : it->second;
        ++g_seen->threads_ended;
        if (n == 1) ++g_seen->threads_with_relssp;
        if (n != c.inst.ops[0].imm)
          g_seen->violation("a thread of a kernel " + std::string(c.inst.ops[0].imm ? "with" : "without") +
                            " shared accesses executed relssp " + std::to_string(n) + " times");
        if (it != g_seen->relssp.end()) g_seen->relssp.erase(it);
      }
    });
    return out;
  }();
  return m;
}

bool is_memory(const ir::Instruction& i) {
  return i.op == ir::Opcode::Ld || i.op == ir::Opcode::Ldu || i.op == ir::Opcode::St || i.op == ir::Opcode::Atom ||
         i.op == ir::Opcode::Red;
}

ir::Instruction marker(uint16_t id, const ir::Instruction& at) {
  ir::Instruction m;
  m.op = ir::Opcode::Extension;
  m.ext_id = id;
  m.loc = at.loc;
  m.text = "marker";
  return m;
}

// The pass `relssp_check`: markers before memory accesses and exits.
void register_check_pass() {
  static bool done = false;
  if (done) return;
  done = true;
  frontend::PassInfo p;
  p.name = "relssp_check";
  p.description = "test markers around shared accesses and exits";
  p.after = {"relssp"};
  p.enabled_by_default = false;
  p.run = [](frontend::PassContext& c) {
    const Markers ids = markers();
    for (ir::Function& f : c.module.functions) {
      if (!f.is_entry || f.insts.empty()) continue;
      // The seed's rule: a kernel with a shared access releases exactly once
      // per thread, one without never.
      uint64_t expected = 0;
      for (const ir::Instruction& i : f.insts)
        if ((is_memory(i) && i.space == ir::StateSpace::Shared) ||
            (i.op == ir::Opcode::Cvta && !i.cvta_to && i.space == ir::StateSpace::Shared))
          expected = 1;
      FunctionRewriter rw(f);
      for (uint32_t pc = 0; pc < f.insts.size(); ++pc) {
        const ir::Instruction& i = f.insts[pc];
        if (is_memory(i) && (i.space == ir::StateSpace::Shared || i.space == ir::StateSpace::Generic)) {
          ir::Instruction m = marker(i.space == ir::StateSpace::Shared ? ids.shared_access : ids.generic_access, i);
          if (i.space == ir::StateSpace::Generic)
            for (const ir::Operand& o : i.ops)
              if (o.kind == ir::OperandKind::Address) m.ops = {o};
          m.has_guard = i.has_guard, m.guard_negated = i.guard_negated, m.guard_reg = i.guard_reg;
          rw.insert_before(pc, m, 9);
        }
        if (i.op == ir::Opcode::Ret || i.op == ir::Opcode::Exit) {
          ir::Instruction m = marker(ids.thread_end, i);
          ir::Operand e;
          e.kind = ir::OperandKind::Imm;
          e.imm = expected;
          m.ops = {e};
          m.has_guard = i.has_guard, m.guard_negated = i.guard_negated, m.guard_reg = i.guard_reg;
          rw.insert_before(pc, m, 9);
        }
      }
      rw.apply(f);
      f.annotations = ir::InstructionAnnotations();  // the pass's marks no longer match
    }
    frontend::analysis::analyze(c.module);
  };
  frontend::PassRegistry::global().add(std::move(p));
}

struct SuiteRun {
  bool passed = false;
  std::string detail;
  std::vector<LaunchStats> stats;
};

SuiteRun run(const std::string& name, const std::string& placement, bool check,
             const std::string& layout = "declared") {
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("gpu.sm.smem.alloc_policy=sharing");
  cfg->apply_override("frontend.relssp.placement=" + placement);
  cfg->apply_override("frontend.relssp.layout=" + layout);
  if (check) cfg->apply_override("frontend.passes=relssp_check.enabled=true");
  cfg->validate();
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.config = cfg;
  Device dev(opts);
  auto w = make_workload(name);
  SuiteRun r;
  if (!w) return r;
  w->setup(dev, Size::Small, 1);
  r.stats = w->run(dev);
  const CheckResult c = w->check(dev);
  r.passed = c.passed;
  r.detail = c.detail;
  return r;
}

class RelsspSuite : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    markers();
    register_check_pass();
  }
};

TEST_P(RelsspSuite, EveryThreadReleasesOnceAfterItsLastSharedAccess) {
  const std::string placement = GetParam();
  unsigned workloads_with_relssp = 0;
  for (const std::string& name : WorkloadRegistry::names()) {
    Observed seen;
    g_seen = &seen;
    functional::register_extension_semantics(frontend::ptx::ExtensionRegistry::kRelssp,
                                             [](functional::ExtensionCall& c) {
                                               for (unsigned l = 0; l < c.warp.width(); ++l)
                                                 if ((c.exec_mask >> l) & 1) ++g_seen->relssp[key(c.cta, c.warp, l)];
                                             });
    const SuiteRun r = run(name, placement, true);
    functional::unregister_extension_semantics(frontend::ptx::ExtensionRegistry::kRelssp);
    g_seen = nullptr;
    EXPECT_TRUE(r.passed) << name << " (" << placement << "): " << r.detail;
    EXPECT_TRUE(seen.violations.empty()) << name << " (" << placement << "): " << seen.violations.front();
    EXPECT_TRUE(seen.relssp.empty()) << name << ": threads with relssp that never reached an exit";
    if (seen.threads_with_relssp != 0) ++workloads_with_relssp;
    std::printf("[ relssp   ] %s %s: %llu of %llu threads executed relssp once\n", placement.c_str(), name.c_str(),
                static_cast<unsigned long long>(seen.threads_with_relssp),
                static_cast<unsigned long long>(seen.threads_ended));
  }
  EXPECT_GE(workloads_with_relssp, 10u);  // the suite has many scratchpad kernels
}

// The access-range layout moves variables (and relssp follows the shared
// region only): results must not change (seed note 000 §7 item 19).
TEST(RelsspLayout, EveryWorkloadPassesWithTheAccessRangeLayout) {
  for (const std::string& name : WorkloadRegistry::names()) {
    for (const char* placement : {"opt", "exit"}) {
      const SuiteRun r = run(name, placement, false, "access_range");
      EXPECT_TRUE(r.passed) << name << " (" << placement << ", access_range): " << r.detail;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Placements, RelsspSuite, ::testing::Values("opt", "postdom"));

}  // namespace
}  // namespace simtlm::workloads::testing

namespace simtlm::workloads::testing {
namespace {

// The instructions placement adds, per thread and kernel (seed Table 3.5:
// SO - U is threads x 1, x 2 or a mix): opt against exit, thread
// instructions over threads launched. A kernel with shared accesses adds
// between 1 (relssp) and 2 (relssp and a split edge's branch) per thread,
// one without adds nothing.
TEST(RelsspOverhead, OneOrTwoInstructionsPerThreadPerKernel) {
  unsigned kernels_with_relssp = 0;
  for (const std::string& name : WorkloadRegistry::names()) {
    for (const char* placement : {"opt", "postdom"}) {
      const SuiteRun base = run(name, "exit", false);
      const SuiteRun placed = run(name, placement, false);
      ASSERT_EQ(base.stats.size(), placed.stats.size()) << name;
      std::map<std::string, std::pair<uint64_t, uint64_t>> extra;  // kernel -> (instructions added, threads)
      for (size_t i = 0; i < base.stats.size(); ++i) {
        ASSERT_EQ(base.stats[i].kernel, placed.stats[i].kernel);
        ASSERT_GE(placed.stats[i].thread_instructions, base.stats[i].thread_instructions) << name;
        auto& e = extra[base.stats[i].kernel];
        e.first += placed.stats[i].thread_instructions - base.stats[i].thread_instructions;
        e.second += base.stats[i].ctas * base.stats[i].threads_per_cta;
      }
      for (const auto& [kernel, e] : extra) {
        if (e.first == 0) continue;
        const double per_thread = double(e.first) / double(e.second);
        EXPECT_GE(per_thread, 1.0) << name << " " << kernel << " " << placement;
        EXPECT_LE(per_thread, 2.0) << name << " " << kernel << " " << placement;
        if (std::string(placement) == "opt") ++kernels_with_relssp;
        std::printf("[ overhead ] %-8s %-14s %-40.40s %.4f instructions/thread\n", placement, name.c_str(),
                    kernel.c_str(), per_thread);
      }
    }
  }
  EXPECT_GE(kernels_with_relssp, 10u);
}

}  // namespace
}  // namespace simtlm::workloads::testing
