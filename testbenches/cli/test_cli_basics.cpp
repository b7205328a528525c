// Top-level behaviour of `simtlm`: help, version, unknown commands/options, list.
#include <gmock/gmock.h>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, HelpListsCommandsAndExitCodes) {
  CliResult r = run({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: simtlm <command>"));
  EXPECT_THAT(r.out, HasSubstr("run [WORKLOAD]"));
  EXPECT_THAT(r.out, HasSubstr("list"));
  EXPECT_THAT(r.out, HasSubstr("ptx FILE.ptx"));
  EXPECT_THAT(r.out, HasSubstr("Exit status"));
}

TEST_F(CliTest, NoCommandIsAUsageError) {
  CliResult r = run({});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("usage: simtlm"));
}

TEST_F(CliTest, VersionPrintsTheVersion) {
  CliResult r = run({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, ::testing::StartsWith("simtlm "));
}

TEST_F(CliTest, UnknownCommandExits2) {
  CliResult r = run({"frobnicate"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'frobnicate'"));
  EXPECT_THAT(r.err, HasSubstr("--help"));
}

TEST_F(CliTest, UnknownOptionExits2) {
  CliResult r = run({"run", "--frobnicate"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("frobnicate"));
  EXPECT_THAT(r.err, HasSubstr("simtlm run --help"));
  r = run({"--frobnicate"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--frobnicate'"));
}

TEST_F(CliTest, EachCommandHasHelp) {
  for (const char* cmd : {"run", "list", "ptx"}) {
    CliResult r = run({cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_THAT(r.out, HasSubstr(std::string("usage: simtlm ") + cmd)) << cmd;
    EXPECT_THAT(r.out, HasSubstr("--help")) << cmd;
  }
  EXPECT_THAT(run({"run", "-h"}).out, HasSubstr("--warp-size"));
  EXPECT_THAT(run({"ptx", "--help"}).out, HasSubstr("--launch"));
}

TEST_F(CliTest, ListShowsWorkloadsAndConfigurations) {
  CliResult r = run({"list"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Workloads"));
  EXPECT_THAT(r.out, HasSubstr("sgemm"));
  EXPECT_THAT(r.out, HasSubstr("vectorAdd"));
  EXPECT_THAT(r.out, HasSubstr("Configurations"));
  EXPECT_THAT(r.out, HasSubstr("default"));
}

TEST_F(CliTest, ListDetailsShowsKernels) {
  CliResult r = run({"list", "--details"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kernel vectorAdd"));
  // vectorAdd: 256 threads/CTA, few registers, no shared memory: 1536 / 256 = 6
  // CTAs per SM bound by threads on both presets.
  EXPECT_THAT(r.out, HasSubstr("kernel vectorAdd: 256 threads/CTA"));
  EXPECT_THAT(r.out, HasSubstr("ptxas sm_75: "));
  EXPECT_THAT(r.out, HasSubstr("gtx480:                   6 CTAs/SM, limited by threads"));
  EXPECT_THAT(r.out, HasSubstr("tesla_c2050:              6 CTAs/SM, limited by threads"));
  // Scratchpad-limited workloads are also shown with the studies' 16 KB.
  EXPECT_THAT(r.out, HasSubstr("tesla_c2050, 16 KB shared: "));
  EXPECT_EQ(run({"list", "extra"}).code, 2);
}

}  // namespace
}  // namespace simtlm::test
