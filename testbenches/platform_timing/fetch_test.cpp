// Instruction fetch regression: a two-instruction fetch whose two lines both
// miss with a single free instruction-cache MSHR. The first line's access
// takes the MSHR, so the second is refused; the fetch must then deliver the
// first line's instruction alone instead of waiting forever (this deadlocked
// dct8x8 at its default size on gtx480 before the fix).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

// 16 instructions of 8 bytes per 128-byte line: pc 0-15 are line 0, 16-31
// line 1, 32- line 2. The branch at pc 1 jumps to pc 31, the last instruction
// of line 1, so the next fetch (pc 31 and 32) needs lines 1 and 2, neither
// cached yet.
// 29 filler instructions at pc 2-30.
const std::string kFill = []() {
  std::string s;
  for (int i = 0; i < 29; ++i) s += "  add.s32 %r1, %r1, 1;\n";
  return s;
}();

const char* kJumpPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry jump_to_line_end(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, 0;
  bra.uni TARGET;
FILL
TARGET:
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  add.s32 %r2, %r1, 7;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

TEST(Fetch, TwoLineFetchWithOneFreeMshrCompletes) {
  auto cfg = make_config({"gpu.sm.icache.mshrs=1", "sim.watchdog_cycles=20000"});
  Device dev(timing_options(cfg));
  std::string ptx = kJumpPtx;
  ptx.replace(ptx.find("FILL"), 4, std::string(kFill));
  const ModuleHandle m = dev.load_module_string(ptx, "jump.ptx");
  const DevicePtr out = dev.malloc(4);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(32);
  KernelArgs args;
  args.add(out);
  const LaunchStats s = dev.launch(m, "jump_to_line_end", lc, args);
  uint32_t v = 0;
  dev.memcpy_to_host(&v, out, 4);
  EXPECT_EQ(v, 7u);  // the fill instructions are skipped
  EXPECT_EQ(s.warp_instructions, 7u);  // mov, bra, ld, cvta, add, st, ret
}

}  // namespace
}  // namespace simtlm::test
