// frontend::load_ptx_text / load_ptx_file: the whole pipeline in one call.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "frontend/load.h"
#include "simtlm/error.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;

const std::string kVadd = std::string(kHeader) + R"(
.visible .entry _Z4vaddPKfS0_Pfi(
	.param .u64 _Z4vaddPKfS0_Pfi_param_0,
	.param .u64 _Z4vaddPKfS0_Pfi_param_1,
	.param .u64 _Z4vaddPKfS0_Pfi_param_2,
	.param .u32 _Z4vaddPKfS0_Pfi_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;
	ld.param.u64 	%rd1, [_Z4vaddPKfS0_Pfi_param_0];
	ld.param.u64 	%rd2, [_Z4vaddPKfS0_Pfi_param_1];
	ld.param.u64 	%rd3, [_Z4vaddPKfS0_Pfi_param_2];
	ld.param.u32 	%r2, [_Z4vaddPKfS0_Pfi_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB3_2;
	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;
$L__BB3_2:
	ret;
}
)";

TEST(Load, TextRunsTheWholePipeline) {
  auto m = load_ptx_text(kVadd, "vadd.ptx");
  const ir::Function* k = m->find_kernel("_Z4vaddPKfS0_Pfi");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->analysis.done);
  ASSERT_EQ(k->blocks.size(), 3u);
  EXPECT_EQ(k->insts[9].op, ir::Opcode::Bra);
  EXPECT_EQ(k->insts[9].reconverge_pc, 21u);  // the ret at $L__BB3_2
  EXPECT_EQ(k->analysis.pred_regs, 1u);
  EXPECT_TRUE(k->analysis.loop_headers.empty());
  EXPECT_GE(k->analysis.regs_per_thread, k->analysis.max_live_regs32);
  EXPECT_EQ(k->var_offsets[k->params[3]], 24u);
}

TEST(Load, FileRoundTripAndMissingFile) {
  std::string path = std::string(SIMTLM_BINARY_DIR) + "/frontend_analysis_load_test.ptx";
  {
    std::ofstream out(path);
    out << kVadd;
  }
  auto m = load_ptx_file(path);
  EXPECT_EQ(m->file, path);
  EXPECT_NE(m->find_kernel("_Z4vaddPKfS0_Pfi"), nullptr);
  std::remove(path.c_str());
  try {
    load_ptx_file("/nonexistent/dir/x.ptx");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_STREQ(e.what(), "cannot read PTX file '/nonexistent/dir/x.ptx': No such file or directory");
  }
  try {
    load_ptx_file("/");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
  }
}

}  // namespace
}  // namespace simtlm::frontend
