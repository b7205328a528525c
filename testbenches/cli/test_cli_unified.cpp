// `simtlm ptx FILE --max-registers R [--spill local] --print` (apps/ptx_unified.h,
// docs/unified-allocation.md): the rewritten kernel, a summary line per
// kernel, marked spill code, text that parses again; usage mistakes exit 2.
#include <gmock/gmock.h>

#include <string>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, PtxMaxRegistersPrintsTheSpilledKernelWhichReparses) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure.ptx");
  const CliResult r = run({"ptx", ptx, "--max-registers", "12", "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("// frontend.unified_alloc.registers = 12: kernel pressure: "));
  EXPECT_THAT(r.out, HasSubstr("values spilled to local memory"));
  EXPECT_THAT(r.out, HasSubstr("// kernel pressure: AD_int "));
  EXPECT_THAT(r.out, HasSubstr(", CI_pred (MAX_cmratio 200) "));
  EXPECT_THAT(r.out, HasSubstr(".local .align 8 .b8 __unialloc_local["));
  EXPECT_THAT(r.out, HasSubstr("\t// unified_alloc: spill load"));
  EXPECT_THAT(r.out, HasSubstr("\t// unified_alloc: spill store"));
  write("printed.ptx", r.out);
  const CliResult again = run({"ptx", "printed.ptx"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("pressure"));
  // The same with --kernel and the explicit (only) spill target.
  const CliResult k = run({"ptx", ptx, "--kernel", "pressure", "--max-registers", "12", "--spill", "local", "--print"});
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.out, r.out);
}

TEST_F(CliTest, PtxMaxRegistersMistakesAreUsageErrors) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure.ptx");
  const CliResult no_print = run({"ptx", ptx, "--max-registers", "12"});
  EXPECT_EQ(no_print.code, 2);
  EXPECT_THAT(no_print.err, HasSubstr("--max-registers R and --print go together"));
  const CliResult shared = run({"ptx", ptx, "--max-registers", "12", "--spill", "shared", "--print"});
  EXPECT_EQ(shared.code, 2);
  EXPECT_THAT(shared.err, HasSubstr("--spill 'shared' is not local"));
  const CliResult tiny = run({"ptx", ptx, "--max-registers", "4", "--print"});
  EXPECT_EQ(tiny.code, 2);
  const CliResult unfit = run({"ptx", ptx, "--max-registers", "6", "--print"});
  EXPECT_NE(unfit.code, 0);
  EXPECT_THAT(unfit.err, HasSubstr("does not fit"));
}

}  // namespace
}  // namespace simtlm::test
