// FineReg's checking mode (models/finereg/live_check.h) on hand-made warps:
// live registers survive a trip through the PCRF, dead ones come back as
// poison, and the reverse test of seed note 004 §7 invariant 2: a PCRF that
// loses one live register is reported, naming CTA, warp and register.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "models/finereg/live_check.h"
#include "simtlm/error.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::models::finereg {
namespace {

using testing_ir::find_inst;
using testing_ir::fn;
using testing_ir::load;

const std::string kKernel = std::string(testing_ir::kHeader) + R"(
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r0, %tid.x;
	mul.wide.u32 %rd0, %r0, 4;
	add.s64 %rd2, %rd1, %rd0;
	ld.global.u32 %r1, [%rd2];
	add.s32 %r2, %r1, %r0;
	st.global.u32 [%rd2], %r2;
	ret;
}
)";

uint32_t reg(const ir::Function& f, const std::string& name) {
  for (uint32_t r = 0; r < f.regs.size(); ++r)
    if (f.regs[r].name == name) return r;
  ADD_FAILURE() << "no register " << name;
  return 0;
}

struct Fixture {
  std::unique_ptr<ir::Module> m = load(kKernel);
  const ir::Function& f = fn(*m, "k");
  LiveVectorTable table{f};
  functional::Warp w0{32, static_cast<uint32_t>(f.regs.size()), 0, 0, ~0ull};
  functional::Warp w1{32, static_cast<uint32_t>(f.regs.size()), 1, 32, ~0ull};
  std::vector<functional::Warp*> warps{&w0, &w1};
  Fixture() {
    const uint32_t add = find_inst(f, "add.s32");  // stalled here: %r1 (loaded), %r0, %rd2 live
    for (functional::Warp* w : warps) {
      w->jump(add);
      for (uint32_t r = 0; r < f.regs.size(); ++r)
        for (unsigned l = 0; l < 32; ++l) w->reg(r)[l] = (uint64_t(w->index()) << 20) + r * 64 + l;
      // %rd2 is a 64-bit address: both halves must come back.
      for (unsigned l = 0; l < 32; ++l) w->reg(reg(f, "%rd2"))[l] = 0x123456789ull * (l + 1) + w->index();
    }
  }
  std::vector<PcrfItem> items() {
    std::vector<PcrfItem> all;
    for (uint32_t i = 0; i < 2; ++i) {
      auto v = live_items(f, table, *warps[i], i, true);
      all.insert(all.end(), v.begin(), v.end());
    }
    return all;
  }
};

TEST(FineRegLiveCheck, LiveRegistersSurviveThePcrfDeadOnesArePoisoned) {
  Fixture x;
  std::vector<PcrfItem> it = x.items();
  EXPECT_EQ(it.size(), 2u * 4u);  // per warp: %r0, %r1 and the two halves of %rd2
  const uint64_t r0 = x.w1.reg(reg(x.f, "%r0"))[7];
  const uint64_t rd2 = x.w1.reg(reg(x.f, "%rd2"))[7];
  LiveCheck check(4);
  check.switch_out(3, x.f, x.table, x.warps);
  EXPECT_EQ(x.w1.reg(reg(x.f, "%r0"))[7], LiveCheck::kPoison & 0xFFFFFFFFu);  // everything poisoned
  Pcrf pcrf(64, 4);
  pcrf.store(3, it, 2, 64);
  check.switch_in(3, 42, x.f, x.warps, pcrf.restore(3));
  EXPECT_EQ(x.w1.reg(reg(x.f, "%r0"))[7], r0);
  EXPECT_EQ(x.w1.reg(reg(x.f, "%rd2"))[7], rd2);
  EXPECT_EQ(x.w1.reg(reg(x.f, "%r2"))[7], LiveCheck::kPoison & 0xFFFFFFFFu);  // dead: stays poisoned
  EXPECT_EQ(check.registers_checked(), 6u);
}

TEST(FineRegLiveCheck, ALostLiveRegisterIsReportedByCtaWarpAndRegister) {
  Fixture x;
  std::vector<PcrfItem> it = x.items();
  // Drop warp 1's %r0 (the reverse test: a checker that cannot fail proves nothing).
  const uint32_t p = x.f.analysis.phys_regs.at(reg(x.f, "%r0"));
  it.erase(std::remove_if(it.begin(), it.end(), [&](const PcrfItem& i) { return i.warp == 1 && i.reg == p; }),
           it.end());
  LiveCheck check(4);
  check.switch_out(0, x.f, x.table, x.warps);
  try {
    check.switch_in(0, 42, x.f, x.warps, it);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
    EXPECT_NE(m.find("CTA 42"), std::string::npos) << m;
    EXPECT_NE(m.find("warp 1"), std::string::npos) << m;
    EXPECT_NE(m.find("register %r0"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace simtlm::models::finereg
