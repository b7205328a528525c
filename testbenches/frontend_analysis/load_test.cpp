// frontend::load_ptx_text / load_ptx_file: the whole pipeline in one call.
#include <gtest/gtest.h>

#include "frontend/load.h"
#include "simtlm/error.h"
#include "testbenches/common/test_data.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;

// vec_add (nvcc's vector add) and two launch-bound kernels: the shared test
// kernel testbenches/data/kernels/vec_add.ptx.
const char* const kVecAdd = "kernels/vec_add.ptx";

TEST(Load, TextRunsTheWholePipeline) {
  auto m = load_ptx_text(test_data::ptx(kVecAdd), kVecAdd);
  const ir::Function* k = m->find_kernel("vec_add");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->analysis.done);
  ASSERT_EQ(k->blocks.size(), 3u);
  EXPECT_EQ(k->insts[9].op, ir::Opcode::Bra);
  EXPECT_EQ(k->insts[9].reconverge_pc, 21u);  // the ret at $L__BB0_2
  EXPECT_EQ(k->analysis.pred_regs, 1u);
  EXPECT_TRUE(k->analysis.loop_headers.empty());
  EXPECT_GE(k->analysis.regs_per_thread, k->analysis.max_live_regs32);
  EXPECT_EQ(k->var_offsets[k->params[3]], 24u);
}

TEST(Load, FileRoundTripAndMissingFile) {
  const std::string path = test_data::path(kVecAdd);
  auto m = load_ptx_file(path);
  EXPECT_EQ(m->file, path);
  EXPECT_NE(m->find_kernel("vec_add"), nullptr);
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
