// The `power_states` pass on real PTX: it is off by default, attaches one
// annotation per instruction when enabled, encodes one destination and two
// sources in operand order, rejects a bad window, and keeps a register that
// lanes of the other side of a divergent branch still need out of OFF.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/regalloc.h"
#include "frontend/load.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/power_states_pass.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {
namespace {

const char* kDivergent = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra THEN;
  add.s32 %r3, %r2, 5;
  bra.uni JOIN;
THEN:
  mul.lo.s32 %r3, %r2, 3;
JOIN:
  add.s32 %r4, %r3, %r1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r4;
  ret;
}
)";

std::unique_ptr<ir::Module> load(const std::string& options) {
  PassPipeline pipeline(PassRegistry::global(), PassOptions::parse(options, "test"));
  return load_ptx_text(kDivergent, "divergent.ptx", pipeline);
}

const std::vector<PowerAnnotation>& column(const ir::Module& m) {
  const std::vector<PowerAnnotation>* c = m.functions.at(0).annotations.find<PowerAnnotation>(kPowerStatesColumn);
  if (c == nullptr) throw std::runtime_error("no column");
  return *c;
}

uint32_t pc_of(const ir::Function& fn, const std::string& prefix) {
  for (uint32_t pc = 0; pc < fn.insts.size(); ++pc) {
    if (fn.insts[pc].text.rfind(prefix, 0) == 0) return pc;
  }
  throw std::runtime_error("no instruction " + prefix);
}

TEST(PowerStatesPass, OffByDefault) {
  auto m = load("");
  EXPECT_FALSE(m->functions.at(0).annotations.has(kPowerStatesColumn));
}

TEST(PowerStatesPass, EncodesOneDestinationAndTwoSourcesInOperandOrder) {
  auto m = load("power_states.enabled=true; power_states.window=1");
  const ir::Function& fn = m->functions.at(0);
  const auto& col = column(*m);
  ASSERT_EQ(col.size(), fn.insts.size());
  // add.s32 %r4, %r3, %r1: destination (operand 0), sources 1 and 2.
  const PowerAnnotation& add = col[pc_of(fn, "add.s32 %r4")];
  ASSERT_EQ(add.encoded.size(), 3u);
  EXPECT_EQ(add.encoded[0].operand, 0);
  EXPECT_EQ(add.encoded[1].operand, 1);
  EXPECT_EQ(add.encoded[2].operand, 2);
  // W = 1: %r4 is next read three instructions later (SLEEP), %r1 by the
  // next one (ON); %r3 is dead, and its state is that of its physical register.
  auto phys = [&](const char* name) {
    for (uint32_t v = 0; v < fn.regs.size(); ++v)
      if (fn.regs[v].name == name) return fn.analysis.phys_regs[v];
    return ir::kNoPhysReg;
  };
  EXPECT_EQ(add.encoded[0].state, PowerState::Sleep);
  // physical register of %r3 holds %r4 next (read 3 away: SLEEP), or half of
  // %rd3 (rewritten by the next instruction: ON), or nothing live (OFF).
  const uint32_t r3 = phys("%r3"), rd3 = phys("%rd3");
  const PowerState r3_state = r3 == phys("%r4")                  ? PowerState::Sleep
                              : (r3 == rd3 || r3 == rd3 + 1) ? PowerState::On
                                                             : PowerState::Off;
  EXPECT_EQ(add.encoded[1].state, r3_state);
  EXPECT_EQ(add.encoded[2].state, PowerState::On);
  EXPECT_GE(add.regs.size(), 2u);
  // st.global [%rd4], %r4: no destination; the address is not encoded, %r4 is
  // (dead afterwards: OFF), and %rd4's registers default to SLEEP.
  const PowerAnnotation& st = col[pc_of(fn, "st.global")];
  ASSERT_EQ(st.encoded.size(), 1u);
  EXPECT_EQ(st.encoded[0].operand, 1);
  EXPECT_EQ(st.encoded[0].state, PowerState::Off);
  unsigned sleeping = 0;
  for (const PowerAnnotation::Reg& r : st.regs) sleeping += r.state == PowerState::Sleep;
  EXPECT_EQ(sleeping, 2u);
  // The guard of `@%p1 bra` and the branch are not encoded.
  EXPECT_TRUE(col[pc_of(fn, "@%p1 bra")].encoded.empty());
}

TEST(PowerStatesPass, ARegisterTheOtherPathStillReadsIsNotTurnedOff) {
  auto m = load("power_states.enabled=true; power_states.window=1");
  const ir::Function& fn = m->functions.at(0);
  const auto& col = column(*m);
  // Fall-through path: `add.s32 %r3, %r2, 5` is %r2's last read on this path,
  // but the lanes waiting to run THEN read it: it must keep its data.
  const uint32_t pc = pc_of(fn, "add.s32");
  const PowerAnnotation& add = col[pc];
  ASSERT_EQ(add.encoded.size(), 2u);  // %r3, %r2 (the immediate is not a register)
  EXPECT_NE(add.encoded[1].state, PowerState::Off);
  // ... although per-thread liveness says %r2 is dead after it.
  const auto& a = *fn.analysis.analyses;
  uint32_t r2 = 0;
  for (uint32_t v = 0; v < fn.regs.size(); ++v)
    if (fn.regs[v].name == "%r2") r2 = v;
  EXPECT_FALSE(a.liveness.is_live_out(pc, r2));
}

TEST(PowerStatesPass, RejectsAWindowOutsideItsRange) {
  EXPECT_THROW(load("power_states.enabled=true; power_states.window=0"), Error);
  EXPECT_THROW(load("power_states.enabled=true; power_states.window=65"), Error);
}

TEST(PowerStatesPass, PrintsTheStatesAfterTheOperands) {
  auto m = load("power_states.enabled=true; power_states.window=1");
  std::ostringstream out;
  print_power_states(out, *m, m->functions.at(0));
  EXPECT_NE(out.str().find("THEN:\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("st.global.u32 [%rd4], %r4, OFF;"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace simtlm::frontend::passes
