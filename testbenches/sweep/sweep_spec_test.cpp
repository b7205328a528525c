// `simtlm sweep` spec validation: every mistake is refused before anything
// runs (no output folder appears), naming the spec file and the field; and
// the expansion (cartesian product, zipped axes, shared points) as --dry-run
// lists it.
#include <gmock/gmock.h>

#include "apps/sweep/sweep_results.h"
#include "testbenches/sweep/sweep_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class SweepSpecTest : public SweepTest {
 protected:
  // Runs a sweep of `spec_text` and expects exit 2, each of `messages` on
  // stderr, and no output folder.
  void expect_refused(const std::string& spec_text, const std::vector<std::string>& messages) {
    write("bad.json", spec_text);
    const CliResult r = run({"sweep", "bad.json", "--out", "out", "--jobs", "1"});
    EXPECT_EQ(r.code, 2) << r.err;
    for (const std::string& m : messages) EXPECT_THAT(r.err, HasSubstr(m));
    EXPECT_FALSE(std::filesystem::exists(path("out"))) << "something ran for a refused spec";
  }
};

TEST_F(SweepSpecTest, UnknownConfigKeyNamesTheFieldAndTheNearestKey) {
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.l1d.setz": [32, 64]}})",
                 {"bad.json: axes.gpu.l1d.setz[0]", "key 'gpu.l1d.setz' is unknown", "gpu.l1d.sets"});
}

TEST_F(SweepSpecTest, OutOfRangeValueNamesItsIndex) {
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.num_sms": [15, 0]}})",
                 {"bad.json: axes.gpu.num_sms[1]", "out of range"});
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.sm.scheduler.policy": ["gto", "fifo"]}})",
                 {"bad.json: axes.gpu.sm.scheduler.policy[1]", "is not an allowed value; allowed: lrr, gto"});
}

TEST_F(SweepSpecTest, CrossKeyRuleNamesTheConfiguration) {
  // 64 sets x 4 ways x 128 B of L1D do not fit next to 48 KB of shared memory.
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.l1d.sets": [32, 64]}})",
                 {"bad.json: configuration '64'", "unified_l1_smem_bytes", "bad.json: axes.gpu.l1d.sets"});
}

TEST_F(SweepSpecTest, UnknownWorkloadAndBadFields) {
  expect_refused(R"({"workloads": ["vectorAdd", "nosuch"]})",
                 {"bad.json: workloads[1]: unknown workload 'nosuch'", "available:", "vectorAdd"});
  expect_refused(R"({"workloads": [{"name": "vectorAdd", "size": "huge"}]})", {"workloads[0].size"});
  expect_refused(R"({"workloads": ["vectorAdd"], "axis": {}})", {"bad.json: axis: unknown field"});
  expect_refused(R"({"workloads": ["vectorAdd"], "metrics": {"ipc": 3}})", {"bad.json: metrics.ipc"});
  expect_refused(R"({"workloads": ["vectorAdd", "vectorAdd"]})", {"two rows are labelled 'vectorAdd'"});
  expect_refused(R"({"axes": {"gpu.num_sms": [1]}})", {"no workloads and no kernels"});
}

TEST_F(SweepSpecTest, MalformedJsonNamesTheLine) {
  expect_refused("{\"workloads\": [\"vectorAdd\"],\n \"axes\": {\n  \"gpu.num_sms\": [1,, 2]}}\n",
                 {"bad.json:3:", "malformed JSON"});
}

TEST_F(SweepSpecTest, BaselineZipAndConfigFilesAreChecked) {
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.sm.scheduler.policy": ["lrr", "gto"]},
                    "baseline": {"gpu.sm.scheduler.policy": "owf"}})",
                 {"bad.json: baseline: no configuration"});
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.num_sms": [4, 8]},
                    "baseline": {"gpu.l1d.sets": 32}})",
                 {"bad.json: baseline.gpu.l1d.sets: not a dimension"});
  expect_refused(R"({"workloads": ["vectorAdd"], "axes": {"gpu.num_sms": [4, 8], "gpu.l2.sets": [32]},
                    "zip": [["gpu.num_sms", "gpu.l2.sets"]]})",
                 {"bad.json: zip[0]: zipped axes need equally many values"});
  write("broken.json", R"({"gpu": {"num_smz": 4}})");
  expect_refused(R"({"workloads": ["vectorAdd"], "configs": ["gtx480", ["tesla_c2050", "broken.json"]]})",
                 {"bad.json: configs[1][1]", "broken.json", "num_smz"});
  expect_refused(R"({"workloads": ["vectorAdd"], "configs": ["gtx480", "nosuch.json"]})",
                 {"bad.json: configs[1]: 'nosuch.json' is neither a preset"});
}

TEST_F(SweepSpecTest, DryRunListsTheCartesianProductWithZippedAxes) {
  write("s.json", R"({"workloads": ["vectorAdd", {"name": "vectorAdd", "seed": 7, "label": "vectorAdd-7"}],
                      "size": "small", "configs": ["gtx480", "tesla_c2050"],
                      "axes": {"gpu.sm.scheduler.policy": ["lrr", "gto", "two_level"],
                               "gpu.num_sms": [4, 8], "gpu.l2.sets": [32, 64]},
                      "zip": [["gpu.num_sms", "gpu.l2.sets"]],
                      "baseline": {"config": "tesla_c2050", "gpu.sm.scheduler.policy": "gto", "gpu.l2.sets": 64}})");
  const CliResult r = run({"sweep", "s.json", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 2 configs x 3 policies x 2 zipped (num_sms, l2.sets) pairs = 12 columns, x 2 rows.
  EXPECT_THAT(r.out, HasSubstr("2 row(s) x 12 configuration(s): 24 distinct point(s); baseline tesla_c2050 / gto / 8 / 64"));
  EXPECT_THAT(r.out, HasSubstr("vectorAdd-7 @ gtx480 / lrr / 4 / 32\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("/ 4 / 64")));  // zipped: never crossed
  EXPECT_FALSE(std::filesystem::exists(path("sweeps")));
}

TEST_F(SweepSpecTest, IdenticalEffectiveConfigurationsShareOnePoint) {
  // A config file that changes nothing and an axis value equal to the default:
  // every column has the same effective configuration, so one point per row.
  write("same.json", R"({"gpu": {"sm": {"scheduler": {"policy": "gto"}}}})");
  write("s.json", R"({"workloads": ["vectorAdd"], "size": "small", "configs": ["gtx480", "same.json"],
                      "axes": {"gpu.num_sms": [15]}})");
  CliResult r = run({"sweep", "s.json", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 row(s) x 2 configuration(s): 1 distinct point(s)"));
  // Another seed is another point.
  write("s2.json", R"({"workloads": ["vectorAdd"], "size": "small", "seed": 2})");
  const CliResult r2 = run({"sweep", "s2.json", "--dry-run"});
  ASSERT_EQ(r2.code, 0) << r2.err;
  const std::string hash = r.out.substr(r.out.find('\n') + 3, 16);
  EXPECT_THAT(r2.out, Not(HasSubstr(hash)));
}

// Run arguments of a workload row (`simtlm run --arg`): checked by the
// workload before anything runs, and part of the point's identity.
TEST_F(SweepSpecTest, WorkloadRunArgumentsAreCheckedAndMakeDistinctPoints) {
  expect_refused(R"({"workloads": [{"name": "spu_stencil", "args": {"nosuch": 3}}]})",
                 {"bad.json: workloads[0].args", "nosuch"});
  expect_refused(R"({"workloads": [{"name": "spu_stencil", "args": {"n": 1.5}}]})",
                 {"bad.json: workloads[0].args.n: expected a string or an integer"});
  expect_refused(R"({"workloads": [{"name": "spu_stencil", "args": ["n=3"]}]})",
                 {"bad.json: workloads[0].args: expected an object"});
  write("s.json", R"({"workloads": [{"name": "spu_stencil", "label": "a"},
                                    {"name": "spu_stencil", "label": "b", "args": {"n": 64, "method": "atomic"}},
                                    {"name": "spu_stencil", "label": "c", "args": {"n": 64, "method": "diag"}}],
                      "size": "small"})");
  const CliResult r = run({"sweep", "s.json", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("3 row(s) x 1 configuration(s): 3 distinct point(s)"));
}

TEST(SweepMetricPath, FindsMembersWithDotsAndArrayElements) {
  const nlohmann::ordered_json stats = nlohmann::ordered_json::parse(R"({
      "cycles": 719, "per_launch": [{"cycles": 700}, {"cycles": 19}],
      "timing": {"total": {"gpu.ipc": 4.5, "gpu.dram[0].reads": 44, "gpu": {"x": 1}}}})");
  using simtlm::cli::sweep::metric_at;
  EXPECT_EQ(metric_at(stats, "cycles"), 719);
  EXPECT_EQ(metric_at(stats, "per_launch[1].cycles"), 19);
  EXPECT_EQ(metric_at(stats, "per_launch.0.cycles"), 700);
  EXPECT_EQ(metric_at(stats, "timing.total.gpu.ipc"), 4.5);
  EXPECT_EQ(metric_at(stats, "timing.total.gpu.dram[0].reads"), 44);
  EXPECT_EQ(metric_at(stats, "timing.total.gpu.x"), 1);
  EXPECT_TRUE(metric_at(stats, "timing.total.gpu.nosuch").is_null());
  EXPECT_TRUE(metric_at(stats, "per_launch[2].cycles").is_null());
}

}  // namespace
}  // namespace simtlm::test
