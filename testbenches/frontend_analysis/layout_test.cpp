// Memory layout: shared/local offsets with alignment, dynamic shared memory
// after the static part, parameter offsets, per-kernel use.
#include <gtest/gtest.h>

#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;

const std::string kLayout = std::string(kHeader) + R"(
.shared .align 4 .b8 sa[3];
.shared .align 16 .b8 sb[32];
.shared .u64 sc;
.shared .u32 unused_s;
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 p0, .param .u32 p1, .param .u64 p2)
{
	.local .align 8 .b8 frame[20];
	.local .u32 lx;
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p0];
	ld.param.u32 %r1, [p1];
	mov.u64 %rd2, sa;
	st.shared.u32 [sb+4], %r1;
	st.shared.u64 [sc], %rd1;
	st.shared.u32 [dyn+4], %r1;
	st.local.u32 [frame+16], %r1;
	st.local.u32 [lx], %r1;
	ret;
}
.visible .entry k2()
{
	.reg .b64 %rd<2>;
	mov.u64 %rd1, 5;
	st.shared.u64 [sc], %rd1;
	ret;
}
)";

TEST(Layout, SharedLocalAndParamOffsets) {
  auto m = load(kLayout);
  const ir::Function& k = fn(*m, "k");
  EXPECT_EQ(k.var_offsets[var(*m, "sa")], 0u);
  EXPECT_EQ(k.var_offsets[var(*m, "sb")], 16u);  // aligned up from 3
  EXPECT_EQ(k.var_offsets[var(*m, "sc")], 48u);
  EXPECT_EQ(k.var_offsets[var(*m, "unused_s")], passes::kNoOffset);
  // Static part ends at 56; dynamic shared memory starts 16-aligned at 64.
  EXPECT_EQ(k.var_offsets[var(*m, "dyn")], 64u);
  EXPECT_EQ(k.static_shared_bytes, 64u);
  EXPECT_EQ(k.var_offsets[var(*m, "frame")], 0u);
  EXPECT_EQ(k.var_offsets[var(*m, "lx")], 20u);
  EXPECT_EQ(k.local_bytes, 24u);
  EXPECT_EQ(k.var_offsets[var(*m, "p0")], 0u);
  EXPECT_EQ(k.var_offsets[var(*m, "p1")], 8u);
  EXPECT_EQ(k.var_offsets[var(*m, "p2")], 16u);
  EXPECT_EQ(k.param_bytes, 24u);
}

TEST(Layout, EachKernelLaysOutWhatItUses) {
  auto m = load(kLayout);
  const ir::Function& k2 = fn(*m, "k2");
  EXPECT_EQ(k2.var_offsets[var(*m, "sc")], 0u);
  EXPECT_EQ(k2.var_offsets[var(*m, "sa")], passes::kNoOffset);
  EXPECT_EQ(k2.static_shared_bytes, 8u);
  EXPECT_EQ(k2.local_bytes, 0u);
}

TEST(Layout, NaturalAlignmentWhenNoAlignGiven) {
  const std::string ptx = std::string(kHeader) + R"(
.shared .u16 h;
.shared .f64 d;
.shared .u8 b;
.shared .u32 w[3];
.entry k()
{
	.reg .b16 %rs<2>;
	.reg .b32 %r<2>;
	.reg .f64 %fd<2>;
	mov.u16 %rs1, 1;
	mov.u32 %r1, 1;
	mov.f64 %fd1, 0d3FF0000000000000;
	st.shared.u16 [h], %rs1;
	st.shared.f64 [d], %fd1;
	st.shared.u8 [b], %rs1;
	st.shared.u32 [w+8], %r1;
	ret;
}
)";
  auto m = load(ptx);
  const ir::Function& k = fn(*m, "k");
  EXPECT_EQ(k.var_offsets[var(*m, "h")], 0u);
  EXPECT_EQ(k.var_offsets[var(*m, "d")], 8u);
  EXPECT_EQ(k.var_offsets[var(*m, "b")], 16u);
  EXPECT_EQ(k.var_offsets[var(*m, "w")], 20u);
  EXPECT_EQ(k.static_shared_bytes, 32u);
}

}  // namespace
}  // namespace simtlm::frontend
