// FineReg's CTA status monitor (models/finereg/cta_status.h): every
// transition from every state (seed note 004 §2.4, including the launch into
// PEND_ACRF and the context-only switch), the illegal (2,1)
// encoding never reachable, and the switch-in priority (1,2) before (1,1).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <vector>

#include "models/finereg/cta_status.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {
namespace {

using S = CtaSwitchState;
using Op = void (CtaStatusMonitor::*)(uint32_t);

// Brings slot 0 into `s` through legal transitions.
void reach(CtaStatusMonitor& m, S s) {
  if (s == S::Free) return;
  m.launch(0);
  if (s == S::Active) return;
  m.context_out(0);
  if (s == S::PendAcrf) return;
  m.regs_out(0);
}

TEST(FineRegCtaStatus, EveryTransitionFromEveryState) {
  const std::vector<std::pair<const char*, Op>> ops = {
      {"launch", &CtaStatusMonitor::launch},         {"launch_pending", &CtaStatusMonitor::launch_pending},
      {"context_out", &CtaStatusMonitor::context_out},
      {"regs_out", &CtaStatusMonitor::regs_out},     {"regs_in", &CtaStatusMonitor::regs_in},
      {"context_in", &CtaStatusMonitor::context_in}, {"finish", &CtaStatusMonitor::finish}};
  // The seed's state machine (note §2.4), written out: (state, op) -> state.
  const std::map<std::pair<S, std::string>, S> legal = {
      {{S::Free, "launch"}, S::Active},          {{S::Free, "launch_pending"}, S::PendAcrf},
      {{S::Active, "context_out"}, S::PendAcrf},
      {{S::PendAcrf, "regs_out"}, S::PendPcrf},  {{S::PendPcrf, "regs_in"}, S::PendAcrf},
      {{S::PendAcrf, "context_in"}, S::Active},  {{S::Active, "finish"}, S::Free}};
  for (S from : {S::Free, S::Active, S::PendAcrf, S::PendPcrf}) {
    for (const auto& [name, op] : ops) {
      CtaStatusMonitor m(2);
      reach(m, from);
      ASSERT_EQ(m.state(0), from);
      auto it = legal.find({from, name});
      if (it == legal.end()) {
        EXPECT_THROW((m.*op)(0), Error) << to_string(from) << " " << name;
        EXPECT_EQ(m.state(0), from) << "a refused transition changes nothing";
      } else {
        (m.*op)(0);
        EXPECT_EQ(m.state(0), it->second) << to_string(from) << " " << name;
      }
      // Never context in the pipeline with registers in the PCRF.
      EXPECT_FALSE(m.context(0) == Where::InPlace && m.registers(0) == Where::Stored);
      EXPECT_EQ(m.state(1), S::Free) << "other slots untouched";
    }
  }
}

// The paths the note's §2.4 diagram adds to the switch through the PCRF: a
// launch beyond the scheduling limit into free ACRF space, (0,0) -> (1,2),
// switched in by its context; and a context-only switch, (2,2) -> (1,2) ->
// (2,2), the registers never leaving the ACRF. Each step changes the fields
// the paper's encodings say, and the PCRF field is never touched.
TEST(FineRegCtaStatus, LaunchPendingAndContextOnlySwitchKeepRegistersInTheAcrf) {
  CtaStatusMonitor m(2);
  m.launch_pending(0);
  EXPECT_EQ(int(m.context(0)), 1);
  EXPECT_EQ(int(m.registers(0)), 2);
  EXPECT_FALSE(m.active(0));
  EXPECT_EQ(m.select_ready([](uint32_t) { return true; }), 0u) << "a pending launch is a switch-in candidate";
  m.context_in(0);
  EXPECT_TRUE(m.active(0));
  m.context_out(0);
  EXPECT_EQ(m.state(0), S::PendAcrf);
  EXPECT_EQ(int(m.registers(0)), 2);
  m.context_in(0);
  EXPECT_EQ(m.state(0), S::Active);
  m.finish(0);
  EXPECT_EQ(m.state(0), S::Free);
  // A pending launch counts as pending from its launch: a CTA switched out
  // later is chosen after it.
  CtaStatusMonitor o(3);
  o.launch(0);
  o.launch_pending(1);
  o.context_out(0);
  EXPECT_EQ(o.select_ready([](uint32_t) { return true; }), 1u);
}

TEST(FineRegCtaStatus, EncodingsAreThePapers) {
  CtaStatusMonitor m(1);
  EXPECT_EQ(m.storage_bits(), 4u);  // 128 slots -> 512 bits = 64 B (seed §V-F)
  m.launch(0);
  EXPECT_EQ(int(m.context(0)), 2);
  EXPECT_EQ(int(m.registers(0)), 2);
  EXPECT_TRUE(m.active(0));
  m.context_out(0);
  EXPECT_EQ(int(m.context(0)), 1);
  EXPECT_EQ(int(m.registers(0)), 2);
  EXPECT_FALSE(m.active(0));
  m.regs_out(0);
  EXPECT_EQ(int(m.context(0)), 1);
  EXPECT_EQ(int(m.registers(0)), 1);
}

TEST(FineRegCtaStatus, SwitchInPrefersRegistersStillInTheAcrfThenTheLongestPending) {
  CtaStatusMonitor m(6);
  for (uint32_t s = 0; s < 5; ++s) m.launch(s);
  // Slots 1, 2 go to the PCRF (1 first); 3, 4 stay in the ACRF (4 first).
  m.context_out(1);
  m.regs_out(1);
  m.context_out(2);
  m.regs_out(2);
  m.context_out(4);
  m.context_out(3);
  auto all = [](uint32_t) { return true; };
  EXPECT_EQ(m.select_ready(all), 4u);
  EXPECT_EQ(m.select_ready([](uint32_t s) { return s != 4; }), 3u);
  EXPECT_EQ(m.select_ready([](uint32_t s) { return s < 3; }), 1u);
  EXPECT_EQ(m.select_ready([](uint32_t s) { return s == 2 || s == 0; }), 2u);  // 0 is active
  EXPECT_EQ(m.select_ready([](uint32_t) { return false; }), kNoCta);
  EXPECT_EQ(m.count(S::Active), 1u);
  EXPECT_EQ(m.count(S::PendAcrf), 2u);
  EXPECT_EQ(m.count(S::PendPcrf), 2u);
  EXPECT_EQ(m.count(S::Free), 1u);
}

}  // namespace
}  // namespace simtlm::models::finereg
