// Reg+DRAM's off-chip register contexts (models/finereg/offchip_context.h;
// their traffic: testbenches/cli/test_cli_finereg.cpp): a context's registers come back
// intact, and the reverse test: a register written while its CTA's context
// is off chip (the pending-write hazard, seed note 004 §7 invariant 3) is
// reported naming CTA, warp, register and lane.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/finereg/offchip_context.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {
namespace {

struct TwoWarps {
  functional::Warp a{32, 5, 0, 0, ~0ull};
  functional::Warp b{32, 5, 1, 32, ~0ull};
  TwoWarps() {
    for (uint32_t r = 0; r < 5; ++r) {
      for (unsigned l = 0; l < 32; ++l) {
        a.reg(r)[l] = 1000 * r + l;
        b.reg(r)[l] = 7000 * r + 3 * l + 1;
      }
    }
  }
  std::vector<functional::Warp*> both() { return {&a, &b}; }
};

TEST(OffchipContexts, RegistersArePoisonedOffChipAndComeBack) {
  OffchipContexts off(4);
  TwoWarps w;
  off.save(2, w.both());
  EXPECT_EQ(w.a.reg(3)[7], OffchipContexts::kPoison);
  EXPECT_EQ(w.b.reg(0)[31], OffchipContexts::kPoison);
  off.restore(2, 11, w.both());
  EXPECT_EQ(w.a.reg(3)[7], 3007u);
  EXPECT_EQ(w.b.reg(4)[31], 28000u + 94u);
  EXPECT_EQ(off.registers_checked(), 10u);
}

TEST(OffchipContexts, AWriteWhileOffChipIsReportedByCtaWarpRegisterAndLane) {
  OffchipContexts off(4);
  TwoWarps w;
  off.save(1, w.both());
  w.b.reg(2)[5] = 42;  // a load returning into the CTA's old registers
  try {
    off.restore(1, 9, w.both());
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("CTA 9"), std::string::npos) << m;
    EXPECT_NE(m.find("warp 1"), std::string::npos) << m;
    EXPECT_NE(m.find("register 2"), std::string::npos) << m;
    EXPECT_NE(m.find("lane 5"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace simtlm::models::finereg
