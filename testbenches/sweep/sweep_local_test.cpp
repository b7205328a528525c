// `simtlm sweep` with the local executor: results equal to direct `simtlm
// run` invocations, reruns that run nothing, failures recorded as data and
// repaired by a rerun, user kernels, and the report (tables and plots).
#include <gmock/gmock.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "testbenches/runtime/ptx_samples.h"
#include "testbenches/sweep/sweep_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class SweepLocalTest : public SweepTest {};

TEST_F(SweepLocalTest, ResultsEqualDirectRunsAndARerunRunsNothing) {
  scheduler_spec("sched", "\"lrr\", \"gto\"");
  const CliResult r = run({"sweep", "sched.json", "--out", "out", "--jobs", "2"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_THAT(r.out, HasSubstr("4 ok, 0 failed (of 4 points)"));
  const auto rows = read_csv(path("out/results.csv"));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"workload", "size", "seed", "config", "gpu.sm.scheduler.policy", "point",
                                               "status", "exit_code", "cycles", "ipc"}));
  // Each row against the same simulation run directly with -p.
  for (size_t i = 1; i < rows.size(); ++i) {
    const CliResult direct = run({"run", rows[i][0], "--size", "small", "-p", "gpu.sm.scheduler.policy=" + rows[i][4],
                                  "--stats"});
    ASSERT_EQ(direct.code, 0) << direct.err;
    const auto stats = nlohmann::json::parse(direct.out);
    EXPECT_EQ(rows[i][6], "ok");
    EXPECT_EQ(rows[i][8], stats["cycles"].dump()) << rows[i][0] << " " << rows[i][4];
    EXPECT_EQ(rows[i][9], stats["timing"]["total"]["gpu.ipc"].dump()) << rows[i][0] << " " << rows[i][4];
    // The point's folder has what `simtlm run --out` writes, plus the sweep's files.
    const auto dir = path("out/points/" + rows[i][5]);
    for (const char* f : {"stats.json", "config.json", "input-config.json", "point.json", "result.json", "stdout.txt",
                          "stderr.txt"})
      EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  }
  // A rerun into the same folder finds everything done: nothing runs again.
  const auto before = read_text(path("out/points/" + rows[1][5] + "/result.json"));
  const auto csv = read_text(path("out/results.csv"));
  const CliResult again = run({"sweep", "sched.json", "--out", "out"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("4 of 4 points already done"));
  EXPECT_THAT(again.err, Not(HasSubstr("sweep: ran")));
  EXPECT_EQ(read_text(path("out/points/" + rows[1][5] + "/result.json")), before);
  EXPECT_EQ(read_text(path("out/results.csv")), csv);
  // A wider spec into the same folder runs only the new points.
  scheduler_spec("sched", "\"lrr\", \"gto\", \"two_level\"");
  const CliResult wider = run({"sweep", "sched.json", "--out", "out", "--jobs", "2"});
  ASSERT_EQ(wider.code, 0) << wider.err;
  EXPECT_THAT(wider.err, HasSubstr("4 of 6 points already done"));
  EXPECT_THAT(wider.err, HasSubstr("sweep: ran 2 point(s)"));
  EXPECT_EQ(read_csv(path("out/results.csv")).size(), 7u);
}

TEST_F(SweepLocalTest, FailuresAreDataAndARerunRepairsThem) {
  scheduler_spec("sched", "\"lrr\", \"gto\"");
  // A time limit no point can meet: every point fails, the sweep goes on.
  const CliResult r = run({"sweep", "sched.json", "--out", "out", "--jobs", "2", "--point-timeout", "0.001"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 ok, 4 failed (of 4 points)"));
  EXPECT_THAT(r.out, HasSubstr("failed: vectorAdd @ lrr"));
  EXPECT_THAT(r.out, HasSubstr("exceeded the time limit of a point"));
  for (const std::string& s : csv_column(read_csv(path("out/results.csv")), "status")) EXPECT_EQ(s, "failed");
  const CliResult status = run({"sweep", "status", "out"});
  EXPECT_EQ(status.code, 0);
  EXPECT_THAT(status.out, HasSubstr("0/4 points done, 4 failed, 0 missing"));

  // The rerun (as --resume, without the spec) runs exactly the failed points.
  const CliResult fixed = run({"sweep", "--resume", "--out", "out", "--jobs", "2"});
  EXPECT_EQ(fixed.code, 0) << fixed.err;
  EXPECT_THAT(fixed.err, HasSubstr("sweep: ran 4 point(s)"));
  const CliResult fresh = run({"sweep", "sched.json", "--out", "fresh", "--jobs", "2"});
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_EQ(read_text(path("out/results.csv")), read_text(path("fresh/results.csv")));

  // A plan made by another build of simtlm is not resumed with this one.
  auto plan = read_json(path("out/plan.json"));
  plan["build"] = "0123";
  write("out/plan.json", plan.dump());
  const CliResult other = run({"sweep", "--resume", "--out", "out"});
  EXPECT_EQ(other.code, 2);
  EXPECT_THAT(other.err, HasSubstr("planned by another build of simtlm (build id 0123"));
}

TEST_F(SweepLocalTest, UserKernelsRunAndADeviceFaultIsRecorded) {
  write("vec.ptx", kVecAddPtx);
  const auto spec = [&](const std::string& name, uint32_t c_bytes) {
    nlohmann::json j = {{"grid", 2},
                        {"block", 64},
                        {"args", {{{"buffer", "a"}}, {{"buffer", "b"}}, {{"buffer", "c"}}, {{"type", "u32"}, {"value", 100}}}},
                        {"buffers",
                         {{"a", {{"size_bytes", 400}, {"init", {{"random", 1}, {"type", "f32"}}}}},
                          {"b", {{"size_bytes", 400}, {"init", {{"random", 2}, {"type", "f32"}}}}},
                          {"c", {{"size_bytes", c_bytes}, {"output", "c.bin"}}}}}};
    write(name, j.dump());
  };
  spec("ok.json", 400);
  spec("fault.json", 40);  // c is too small: the kernel writes past its end
  write("k.json", R"({"kernels": [{"label": "vec", "ptx": "vec.ptx", "kernel": "vec_add", "launch": "ok.json"},
                                   {"label": "vec_fault", "ptx": "vec.ptx", "kernel": "vec_add", "launch": "fault.json"}],
                      "axes": {"gpu.num_sms": [1, 2]}, "metrics": {"cycles": "cycles"}})");
  const CliResult r = run({"sweep", "k.json", "--out", "out", "--jobs", "2"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2 ok, 2 failed (of 4 points)"));
  EXPECT_THAT(r.out, HasSubstr("failed: vec_fault @ 1"));
  EXPECT_THAT(r.out, HasSubstr("device fault"));
  const auto rows = read_csv(path("out/results.csv"));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(csv_column(rows, "status"), (std::vector<std::string>{"ok", "ok", "failed", "failed"}));
  EXPECT_EQ(csv_column(rows, "exit_code"), (std::vector<std::string>{"0", "0", "3", "3"}));
  // The kernel's output went into its point's folder: c = a + b.
  const std::string c = read_text(path("out/points/" + rows[1][5] + "/c.bin"));
  EXPECT_EQ(c.size(), 400u);
  // Cycles against a direct launch.
  const CliResult direct = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "ok.json", "-p", "gpu.num_sms=2",
                                "--out", "direct", "--stats"});
  ASSERT_EQ(direct.code, 0) << direct.err;
  EXPECT_EQ(rows[2][8], nlohmann::json::parse(direct.out)["cycles"].dump());
  EXPECT_EQ(read_text(path("direct/c.bin")), read_text(path("out/points/" + rows[2][5] + "/c.bin")));
}

bool matplotlib_available() {
  return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}

TEST_F(SweepLocalTest, ReportTablesNormaliseToTheBaselineWithGeomeans) {
  scheduler_spec("sched", "\"lrr\", \"gto\"");
  ASSERT_EQ(run({"sweep", "sched.json", "--out", "out", "--jobs", "2"}).code, 0);
  const CliResult r = run({"sweep", "report", "out", "--no-plots"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string md = read_text(path("out/report/report.md"));
  const auto rows = read_csv(path("out/results.csv"));
  // rows: vectorAdd lrr, vectorAdd gto, scalarprod lrr, scalarprod gto; cycles in column 8.
  const double va_lrr = std::stod(rows[1][8]), va_gto = std::stod(rows[2][8]);
  const double sp_lrr = std::stod(rows[3][8]), sp_gto = std::stod(rows[4][8]);
  char line[256];
  std::snprintf(line, sizeof line, "| vectorAdd | %.0f | %.0f |", va_lrr, va_gto);
  EXPECT_THAT(md, HasSubstr(line));
  std::snprintf(line, sizeof line, "| vectorAdd | %.3f | 1.000 |", va_lrr / va_gto);
  EXPECT_THAT(md, HasSubstr(line));
  std::snprintf(line, sizeof line, "| **geomean** | **%.3f** | **1.000** |", std::sqrt(va_lrr / va_gto * sp_lrr / sp_gto));
  EXPECT_THAT(md, HasSubstr(line));
  std::snprintf(line, sizeof line, "| **geomean** | **%.1f** | **%.1f** |", std::sqrt(va_lrr * sp_lrr),
                std::sqrt(va_gto * sp_gto));
  EXPECT_THAT(md, HasSubstr(line));
  EXPECT_THAT(md, HasSubstr("Normalised to `gto`"));

  if (!matplotlib_available()) GTEST_SKIP() << "python3-matplotlib is not installed (scripts/setup.sh installs it)";
  const CliResult plots = run({"sweep", "report", "out"});
  ASSERT_EQ(plots.code, 0) << plots.err;
  const std::string png = read_text(path("out/report/cycles-normalised.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const std::string svg = read_text(path("out/report/cycles-normalised.svg"));
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, HasSubstr("scalarprod"));
  // Drawn again from the same results: the same bytes (plots can be committed).
  ASSERT_EQ(run({"sweep", "report", "out"}).code, 0);
  EXPECT_EQ(read_text(path("out/report/cycles-normalised.svg")), svg);
}

TEST_F(SweepLocalTest, LinePlotAgainstANumericAxis) {
  if (!matplotlib_available()) GTEST_SKIP() << "python3-matplotlib is not installed (scripts/setup.sh installs it)";
  write("sms.json", R"({"workloads": ["vectorAdd"], "size": "small", "axes": {"gpu.num_sms": [2, 4, 8]},
                        "baseline": {"gpu.num_sms": 8}, "metrics": {"ipc": "timing.total.gpu.ipc"}})");
  ASSERT_EQ(run({"sweep", "sms.json", "--out", "out", "--jobs", "2"}).code, 0);
  const CliResult r = run({"sweep", "report", "out"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ipc-vs-gpu_num_sms.svg"));
  EXPECT_THAT(read_text(path("out/report/ipc-vs-gpu_num_sms.svg")), HasSubstr("gpu.num_sms"));
  EXPECT_THAT(read_text(path("out/report/report.md")), HasSubstr("](ipc-vs-gpu_num_sms.svg)"));
}

}  // namespace
}  // namespace simtlm::test
