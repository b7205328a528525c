// Running kernels the way people write them, end to end through the CLI:
// workloads that assume 32-lane warps refuse other warp sizes clearly,
// printf output from kernels, and progress lines outside a terminal.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "apps/run_console.h"
#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// `run reduction --warp-size 16` used to run and print FAIL (exit 1).
TEST_F(CliTest, WorkloadWrittenFor32LaneWarpsRefusesWarpSize16) {
  for (const char* name : {"reduction", "spmv_vector"}) {
    CliResult r = run({"run", name, "--size", "small", "--warp-size", "16"});
    EXPECT_EQ(r.code, 2) << name << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string("workload '") + name + "'"));
    EXPECT_THAT(r.err, HasSubstr("cannot run at warp size 16"));
    EXPECT_THAT(r.out, Not(HasSubstr("FAIL")));
  }
  // Warp size 64 is two 32-lane halves for the collectives: it runs and passes.
  CliResult r = run({"run", "reduction", "--size", "small", "--warp-size", "64", "--backend", "functional"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS"));
}

// ---- printf -------------------------------------------------------------------

class PrintfCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    write("ids.json", R"({"grid": 2, "block": 4, "args": [{"type": "s32", "value": 7}]})");
    write("many.json", R"({"grid": 4, "block": 32, "args": [{"type": "s32", "value": 10}]})");
    write("bad.json", R"({"grid": 1, "block": 1, "buffers": {"w": {"size_bytes": 4}}, "args": [{"buffer": "w"}]})");
  }
  CliResult launch(const std::string& kernel, const std::string& spec, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"ptx", source("testbenches/data/nvcc/printf_sm75.ptx"), "--kernel", kernel,
                                     "--launch", spec};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  // print_ids with tag 7 on 2 CTAs of 4 threads, in the documented order.
  static std::string expected_ids() {
    std::string s;
    for (int cta = 0; cta < 2; ++cta)
      for (int t = 0; t < 4; ++t) {
        if (t & 1) s += "odd  7/" + std::to_string(t) + " first\n";
        s += "cta " + std::to_string(cta) + " thread " + std::to_string(t) + " tag 7\n";
      }
    return s;
  }
};

// Kernels that print used to be rejected ("linking is not supported").
TEST_F(PrintfCliTest, OutputOnStdoutBeforeTheSummaryOnBothBackends) {
  for (const char* backend : {"functional", "timing"}) {
    CliResult r = launch("print_ids", "ids.json", {"--backend", backend, "--warp-size", "2"});
    ASSERT_EQ(r.code, 0) << backend << "\n" << r.err;
    EXPECT_EQ(r.out.substr(0, expected_ids().size()), expected_ids()) << backend;
    EXPECT_THAT(r.out, HasSubstr("printf              12 calls")) << backend;
  }
}

TEST_F(PrintfCliTest, OutFolderGetsPrintfTxtAndStatsJsonCountsTheCalls) {
  CliResult r = launch("print_ids", "ids.json", {"--out", "res", "--stats"});
  ASSERT_EQ(r.code, 0) << r.err;
  // --stats: stdout is the JSON alone; printf output goes to stderr.
  const nlohmann::json stats = nlohmann::json::parse(r.out);
  EXPECT_EQ(stats["per_launch"][0]["printf_calls"], 12);
  EXPECT_EQ(stats["per_launch"][0]["printf_dropped"], 0);
  EXPECT_THAT(r.err, HasSubstr(expected_ids()));
  EXPECT_EQ(read_text(path("res/printf.txt")), expected_ids());
}

TEST_F(PrintfCliTest, FullBufferDropsTheLastCallsWithAWarning) {
  // 4 CTAs x 32 threads x 10 lines of ~25 bytes do not fit in 2000 bytes.
  CliResult r = launch("print_many", "many.json", {"-p", "sim.printf_buffer_bytes=2000", "--out", "res"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("cta 0 thread 0 line 0\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("cta 3 thread 31 line 9")));
  EXPECT_THAT(r.err, HasSubstr("simtlm: warning: launch 1 (print_many): "));
  EXPECT_THAT(r.err, HasSubstr("of 1280 printf calls did not fit in sim.printf_buffer_bytes"));
  EXPECT_LE(read_text(path("res/printf.txt")).size(), 2000u);
  const nlohmann::json stats = nlohmann::json::parse(read_text(path("res/stats.json")));
  EXPECT_GT(stats["per_launch"][0]["printf_dropped"].get<int>(), 1000);
  // The same calls are kept whatever order the backend ran the threads in.
  CliResult f = launch("print_many", "many.json",
                       {"-p", "sim.printf_buffer_bytes=2000", "--out", "fres", "--backend", "functional", "--warp-size", "8"});
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_EQ(read_text(path("fres/printf.txt")), read_text(path("res/printf.txt")));
}

TEST_F(PrintfCliTest, UnsupportedConversionExits2NamingIt) {
  CliResult r = launch("print_unsupported", "bad.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("conversion '%n' is not supported"));
  EXPECT_THAT(r.err, HasSubstr("kernel 'print_unsupported'"));
}

// ---- progress -----------------------------------------------------------------

// stderr is not a terminal here: without --progress no progress lines.
TEST_F(CliTest, ProgressLinesOutsideATerminalOnlyWithProgress) {
  CliResult quiet = run({"run", "vectorAdd", "--size", "small", "--out", "a"});
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, Not(HasSubstr("launch 1")));
  CliResult r = run({"run", "vectorAdd", "--size", "small", "--progress", "--progress-every", "0", "--out", "b"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("simtlm: launch 1 (vectorAdd): "));
  EXPECT_THAT(r.err, HasSubstr(" cycles, "));
  EXPECT_THAT(r.err, HasSubstr("warp instructions, CTAs 17/17, "));
  EXPECT_THAT(r.err, HasSubstr("(done)\n"));
  EXPECT_THAT(r.err, Not(HasSubstr("\r")));  // plain lines for logs
  // Progress only observes: the statistics are byte-identical.
  EXPECT_EQ(read_text(path("a/stats.json")), read_text(path("b/stats.json")));

  CliResult f = run({"run", "bfs", "--size", "small", "--backend", "functional", "--progress", "--progress-every", "0"});
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_THAT(f.err, HasSubstr("simtlm: launch 11 ("));
  EXPECT_THAT(f.err, Not(HasSubstr("cycles")));
}

TEST_F(CliTest, ProgressWithTheWatchdogOffLeavesStatisticsAlone) {
  // With the watchdog off only progress needs the platform's monitor.
  const std::vector<std::string> base = {"run", "reduction", "--size", "small", "-p", "sim.watchdog_cycles=0"};
  std::vector<std::string> a = base, b = base;
  a.insert(a.end(), {"--out", "a"});
  b.insert(b.end(), {"--out", "b", "--progress", "--progress-every", "0"});
  ASSERT_EQ(run(a).code, 0);
  CliResult r = run(b);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("simtlm: launch 2 (reduce_sum): "));
  EXPECT_EQ(read_text(path("a/stats.json")), read_text(path("b/stats.json")));
}

TEST(ProgressText, LaunchKernelCyclesInstructionsCtasAndEta) {
  LaunchProgress p;
  p.launch = 3;
  p.kernel = "fan2";
  p.timed = true;
  p.cycles = 120000;
  p.warp_instructions = 81234;
  p.ctas_done = 12;
  p.ctas_total = 40;
  // 12 of 40 CTAs in 4 s: 28 more take 4 * 28 / 12 = 9.33 s.
  EXPECT_EQ(cli::RunConsole::progress_text(p, 4.0),
            "launch 3 (fan2): 120000 cycles, 81234 warp instructions, CTAs 12/40, 4.0 s, ETA 9.3 s");
  p.timed = false;  // functional backend: no cycles
  p.ctas_done = 0;  // nothing to extrapolate from yet
  EXPECT_EQ(cli::RunConsole::progress_text(p, 250.0), "launch 3 (fan2): 81234 warp instructions, CTAs 0/40, 250 s");
  p.ctas_done = 40;
  EXPECT_EQ(cli::RunConsole::progress_text(p, 1.25), "launch 3 (fan2): 81234 warp instructions, CTAs 40/40, 1.2 s (done)");
}

TEST_F(CliTest, ProgressEveryNeedsProgress) {
  CliResult r = run({"run", "vectorAdd", "--progress-every", "5"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--progress-every needs --progress"));
}

}  // namespace
}  // namespace simtlm::test
