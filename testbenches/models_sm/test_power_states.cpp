// Register power states in the SM (models/regfile/power_states.h; GREENER,
// seed note 000 §2.12 and §7 items 20-25): a warp issues only when its
// operand registers are ON and pays the configured wake-up latency; the
// run-time correction keeps a register ON for a decoded instruction on the
// short path (Ex. 4.2.2); reading a register whose data was gated is a model
// error naming kernel, pc, warp and register; residency accounts for every
// register of the SM in every cycle. Two SMs side by side in one simulation
// give the comparisons (one SystemC elaboration per test process).
#include <gtest/gtest.h>

#include <string>

#include "frontend/passes/power_states_pass.h"
#include "models/regfile/power_states.h"
#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

using frontend::passes::PowerAnnotation;
using frontend::passes::PowerState;

const char* kPowerPtx = R"(
.version 7.0
.target sm_75
.address_size 64

// Ex. 4.2.2: S0 defines %r2; on the path every lane takes, %r2 is read two
// instructions later; on the other path only after more than W = 3.
.visible .entry ex422(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  add.s32 %r2, %r1, 7;
  @%p1 bra SHORT;
  add.s32 %r3, %r1, 1;
  add.s32 %r4, %r1, 2;
  add.s32 %r5, %r1, 3;
  add.s32 %r6, %r1, 4;
  add.s32 %r7, %r3, %r4;
  add.s32 %r8, %r5, %r6;
  add.s32 %r9, %r7, %r8;
  add.s32 %r2, %r2, %r9;
  bra.uni DONE;
SHORT:
  add.s32 %r2, %r2, 3;
DONE:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
  ret;
}

// Both sides of a divergent branch read %r2 last: per-thread liveness turns
// it OFF on the side that runs first, which the other side's lanes still need.
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.s32 %r2, %r1, 1000;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra THEN;
  st.global.u32 [%rd4], %r2;
  bra.uni JOIN;
THEN:
  st.global.u32 [%rd4], %r2;
JOIN:
  ret;
}

.visible .entry first()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 1;
  ret;
}
)";

SmParams power_params(const char* policy) {
  SmParams p = test_params();
  p.register_power_policy = policy;
  return p;
}

void annotate(SmBench& b, uint32_t window, bool divergence_rule = true) {
  for (ir::Function& fn : b.mutable_module().functions) {
    if (!fn.is_entry) continue;
    fn.annotations.attach(frontend::passes::kPowerStatesColumn,
                          frontend::passes::power_states(fn, window, divergence_rule), fn.insts.size());
  }
}

uint64_t first_issue(const SmBench& b, uint32_t pc) {
  for (const IssueRecord& r : b.trace)
    if (r.pc == pc) return r.cycle;
  ADD_FAILURE() << "pc " << pc << " never issued";
  return 0;
}

uint32_t pc_of(const SmBench& b, const char* kernel, const std::string& text) {
  const ir::Function& fn = *b.module().find_kernel(kernel);
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc)
    if (fn.insts[pc].text.rfind(text, 0) == 0) return pc;
  ADD_FAILURE() << text;
  return 0;
}

// §7 item 21: the first instruction writes a register that is OFF at launch
// (GREENER) or SLEEP (Sleep-Reg): it issues the configured wake-up latency
// later than with every register ON.
TEST(RegisterPowerStates, AWarpIssuesOnlyOnceItsRegistersAreOn) {
  SmParams on = power_params("always_on");
  SmParams greener = power_params("greener");
  greener.register_off_wakeup = 5;
  SmParams sleep_reg = power_params("sleep_reg");
  sleep_reg.register_sleep_wakeup = 3;
  SmBench a(kPowerPtx, on, 100, 1u << 20, "sm_on");
  SmBench g(kPowerPtx, greener, 100, 1u << 20, "sm_greener");
  SmBench s(kPowerPtx, sleep_reg, 100, 1u << 20, "sm_sleep");
  annotate(g, 3);
  for (SmBench* b : {&a, &g, &s}) b->launch("first", dim(1), dim(32), Args());
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  for (SmBench* b : {&a, &g, &s}) ASSERT_TRUE(b->all_done());
  const uint64_t t0 = first_issue(a, 0);
  EXPECT_EQ(first_issue(g, 0), t0 + 5);
  EXPECT_EQ(first_issue(s, 0), t0 + 3);
}

// Ex. 4.2.2: the analysis gives %r2 SLEEP after S0 (MAX takes the long path);
// with the run-time correction the use on the short path is already decoded
// when S0 writes back, so %r2 stays ON and the use does not wait for a wake-up.
TEST(RegisterPowerStates, RuntimeCorrectionKeepsTheShortPathsRegisterOn) {
  SmParams with = power_params("greener");
  with.register_sleep_wakeup = 3;
  SmParams without = with;
  without.register_power_runtime_correction = false;
  SmBench c(kPowerPtx, with, 100, 1u << 20, "sm_corrected");
  SmBench n(kPowerPtx, without, 100, 1u << 20, "sm_static");
  annotate(c, 3);
  annotate(n, 3);
  // The compiler's state of %r2 after S0 is SLEEP.
  const uint32_t s0 = pc_of(c, "ex422", "add.s32 %r2, %r1, 7");
  const uint32_t use = pc_of(c, "ex422", "add.s32 %r2, %r2, 3");
  const auto* ann = c.module().find_kernel("ex422")->annotations.find<PowerAnnotation>(
      frontend::passes::kPowerStatesColumn);
  ASSERT_NE(ann, nullptr);
  EXPECT_EQ((*ann)[s0].encoded.at(0).state, PowerState::Sleep);
  std::vector<uint64_t> out(32, 0);
  for (SmBench* b : {&c, &n}) {
    const uint64_t addr = b->upload(out);
    b->launch("ex422", dim(1), dim(32), Args().add(addr));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(c.all_done());
  ASSERT_TRUE(n.all_done());
  const uint64_t corrected = first_issue(c, use) - first_issue(c, s0);
  const uint64_t compiler_only = first_issue(n, use) - first_issue(n, s0);
  EXPECT_EQ(compiler_only, corrected + 3);  // the SLEEP -> ON wake-up the correction saved
}

// §7 item 20: a register turned OFF and then read is a model error that names
// the kernel, the pc, the warp and the register.
TEST(RegisterPowerStates, ReadingAGatedRegisterIsAModelError) {
  SmParams p = power_params("greener");
  p.register_power_runtime_correction = false;  // it would keep %r1 ON for the decoded add
  SmBench b(kPowerPtx, p, 100, 1u << 20, "sm_bad");
  ir::Function& fn = b.mutable_module().functions[b.module().function_index.at("first")];
  // A wrong analysis: every register OFF after every access.
  std::vector<PowerAnnotation> bad = frontend::passes::power_states(fn, 3);
  for (PowerAnnotation& a : bad)
    for (PowerAnnotation::Reg& r : a.regs) r.state = PowerState::Off;
  fn.annotations.attach(frontend::passes::kPowerStatesColumn, std::move(bad), fn.insts.size());
  b.launch("first", dim(1), dim(32), Args());
  b.run();
  ASSERT_TRUE(b.sm().fault() != nullptr) << b.trace.size() << " issued";
  try {
    std::rethrow_exception(b.sm().fault());
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel 'first'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pc 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("warp slot 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("physical register"), std::string::npos) << msg;
  }
}

// §7 item 25 and the leakage hook: every warp-wide register of the SM is in
// exactly one state in every cycle; Sleep-Reg never gates an allocated
// register (its OFF residency is the unallocated registers'); the residency
// reported to the energy model is the OFF-equivalent fraction.
TEST(RegisterPowerStates, ResidencyCoversEveryRegisterInEveryCycle) {
  SmParams sp = power_params("sleep_reg");
  SmBench s(kPowerPtx, sp, 100, 1u << 20, "sm_sleep");
  SmParams gp = power_params("greener");
  gp.id = 1;  // its own residency instance
  SmBench g(kPowerPtx, gp, 100, 1u << 20, "sm_greener");
  annotate(g, 3);
  std::vector<uint64_t> out(64, 0);
  for (SmBench* b : {&s, &g}) {
    const uint64_t addr = b->upload(out);
    b->launch("ex422", dim(1), dim(64), Args().add(addr));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  stats::Registry reg;
  s.sm().register_stats(stats::Group(reg, "gpu.sm[0]"));
  g.sm().register_stats(stats::Group(reg, "gpu.sm[1]"));
  const auto v = reg.capture();
  const double capacity = sp.registers / sp.warp_size;
  for (SmBench* b : {&s, &g}) {
    ASSERT_TRUE(b->all_done());
    const std::string p = b == &s ? "gpu.sm[0].regfile.power." : "gpu.sm[1].regfile.power.";
    const double total = reg.value(p + "residency_on", v) + reg.value(p + "residency_sleep", v) +
                         reg.value(p + "residency_off", v);
    EXPECT_DOUBLE_EQ(total, capacity * static_cast<double>(b->cycles())) << p;  // up to now
    EXPECT_GT(reg.value(p + "residency_unallocated", v), 0.0);
  }
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].regfile.power.residency_off", v),
                   reg.value("gpu.sm[0].regfile.power.residency_unallocated", v));
  EXPECT_EQ(reg.value("gpu.sm[0].regfile.power.wakeups_from_off", v), 0.0);
  EXPECT_GT(reg.value("gpu.sm[0].regfile.power.wakeups_from_sleep", v), 0.0);
  EXPECT_GT(reg.value("gpu.sm[1].regfile.power.wakeups_from_off", v), 0.0);
  EXPECT_EQ(reg.value("gpu.power.residency.regfile[0].reduced_ratio", v), sp.register_off_leakage);
}

// The divergence rule (docs/greener.md): without it, the lanes of the side
// that runs second read a register the first side gated; the data-safety
// check catches it. With it, the register sleeps instead and every lane reads
// its value.
TEST(RegisterPowerStates, TheDivergenceRuleKeepsOtherLanesData) {
  SmParams p = power_params("greener");
  p.register_power_runtime_correction = false;  // the other side's read is not decoded anyway
  SmParams q = p;
  q.id = 1;
  SmBench with(kPowerPtx, p, 100, 1u << 20, "sm_rule");
  SmBench without(kPowerPtx, q, 100, 1u << 20, "sm_thread_liveness");
  annotate(with, 3, true);
  annotate(without, 3, false);
  without.sm().set_fault_callback([](Sm&, std::exception_ptr) {});  // do not stop the other SM
  std::vector<uint32_t> out(32, 0);
  uint64_t addr = 0;
  for (SmBench* b : {&with, &without}) {
    addr = b->upload(out);
    b->launch("diverge", dim(1), dim(32), Args().add(addr));
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(with.all_done());
  EXPECT_TRUE(with.sm().fault() == nullptr);
  const std::vector<uint32_t> got = with.download<uint32_t>(addr, 32);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(got[i], i + 1000) << i;
  ASSERT_TRUE(without.sm().fault() != nullptr);
  try {
    std::rethrow_exception(without.sm().fault());
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'diverge'"), std::string::npos) << e.what();
  }
}

// §2.12: the thesis's lookup table is 1280 bytes for 64 warps, 2 entries per
// warp, a 32-bit pc and 8 register fields of log2(64) bits.
TEST(RegisterPowerStates, LookupTableSizeIsTheThesissFigure) {
  EXPECT_EQ(regfile::RegisterPowerStates::lookup_table_bits(64, 2, 64), 1280u * 8u);
}

}  // namespace
}  // namespace simtlm::models::test
