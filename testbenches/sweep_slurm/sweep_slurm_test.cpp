// `simtlm sweep --executor slurm` end to end against a real single-node Slurm
// (slurm_cluster.h): one job array per submission, sbatch options passed
// through, results identical to the local executor's, `sweep status`, and
// resubmissions that run only what is missing or failed.
#include <gmock/gmock.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "testbenches/sweep/sweep_harness.h"
#include "testbenches/sweep_slurm/slurm_cluster.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

class SweepSlurmTest : public SweepTest {
 protected:
  void SetUp() override {
    SweepTest::SetUp();
    const std::string why = SlurmCluster::unavailable();
    if (!why.empty()) GTEST_SKIP() << why;
    // Under the system's temporary folder (TMPDIR), not the build tree: slurmd's
    // socket paths in its spool folder must fit 108 bytes.
    const std::string error = cluster_.start(
        (std::filesystem::temp_directory_path() / ("simtlm-slurm-" + std::to_string(::getpid()))).string());
    started_ = true;
    ASSERT_EQ(error, "") << "the test's Slurm did not start";
    std::filesystem::create_symlink(cluster_.dir(), path("cluster"));  // kept with a failed test's files
  }
  void TearDown() override {
    if (started_) cluster_.stop(HasFailure());
    SweepTest::TearDown();
  }

  std::vector<std::string> hashes_in(const std::string& tasks_file) const {
    std::vector<std::string> hashes;
    for (const auto& task : read_json(path(tasks_file)))
      for (const auto& h : task) hashes.push_back(h.get<std::string>());
    std::sort(hashes.begin(), hashes.end());
    return hashes;
  }

  SlurmCluster cluster_;
  bool started_ = false;
};

TEST_F(SweepSlurmTest, JobArrayGivesTheLocalResultsAndResubmitsOnlyWhatIsMissing) {
  scheduler_spec("sched", "\"lrr\", \"gto\", \"two_level\"");
  const CliResult local = run({"sweep", "sched.json", "--out", "local", "--jobs", "2"});
  ASSERT_EQ(local.code, 0) << local.err;
  const std::vector<std::string> all = point_entries(path("local"));
  ASSERT_EQ(all.size(), 6u);

  // One point is already there: the array gets the other five, two per task.
  std::filesystem::create_directories(path("slurm/points"));
  std::filesystem::copy(path("local/points/" + all[0]), path("slurm/points/" + all[0]));
  const CliResult first = run({"sweep", "sched.json", "--out", "slurm", "--executor", "slurm", "--points-per-task", "2",
                               "--max-running", "2", "--wait"});
  ASSERT_EQ(first.code, 0) << first.err << first.out << cluster_.log("slurmctld.log");
  EXPECT_THAT(first.err, HasSubstr("submitted Slurm job"));
  EXPECT_THAT(first.err, HasSubstr("3 array task(s) for 5 point(s)"));
  std::vector<std::string> rest(all.begin() + 1, all.end());
  EXPECT_EQ(hashes_in("slurm/slurm/tasks-1.json"), rest);
  EXPECT_EQ(read_text(path("slurm/results.csv")), read_text(path("local/results.csv")));
  for (const std::string& h : all)
    EXPECT_EQ(read_text(path("slurm/points/" + h + "/stats.json")), read_text(path("local/points/" + h + "/stats.json")));

  const CliResult status = run({"sweep", "status", "slurm"});
  EXPECT_EQ(status.code, 0) << status.err;
  EXPECT_THAT(status.out, HasSubstr("6/6 points done, 0 failed, 0 missing"));
  EXPECT_THAT(status.out, HasSubstr("slurm: the last job array has finished"));

  // Nothing to do: no second submission.
  const CliResult again = run({"sweep", "sched.json", "--out", "slurm", "--executor", "slurm", "--wait"});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("6 of 6 points already done"));
  EXPECT_FALSE(std::filesystem::exists(path("slurm/slurm/tasks-2.json")));

  // One point lost, one failed: the resubmission (no --wait) runs exactly
  // those two, with the sbatch options passed through.
  std::filesystem::remove_all(path("slurm/points/" + all[1]));
  auto failed = read_json(path("slurm/points/" + all[2] + "/result.json"));
  failed["status"] = "failed";
  write("slurm/points/" + all[2] + "/result.json", failed.dump());
  const CliResult resubmit = run({"sweep", "sched.json", "--out", "slurm", "--executor", "slurm", "--partition",
                                  "debug", "--time", "7"});
  ASSERT_EQ(resubmit.code, 0) << resubmit.err;
  EXPECT_THAT(resubmit.out, HasSubstr("submitted"));
  EXPECT_EQ(hashes_in("slurm/slurm/tasks-2.json"), (std::vector<std::string>{all[1], all[2]}));
  const std::string job = read_json(path("slurm/slurm/job.json"))["job"];
  std::string details;
  {
    FILE* p = ::popen(("scontrol show job " + job + " 2>&1").c_str(), "r");
    char buf[4096];
    size_t n;
    while (p && (n = std::fread(buf, 1, sizeof buf, p)) > 0) details.append(buf, n);
    if (p) ::pclose(p);
  }
  EXPECT_THAT(details, HasSubstr("Partition=debug"));
  EXPECT_THAT(details, HasSubstr("TimeLimit=00:07:00"));

  // A sweep into a folder whose array still runs is refused.
  const CliResult busy = run({"sweep", "sched.json", "--out", "slurm", "--executor", "slurm"});
  if (busy.code == 2) {
    EXPECT_THAT(busy.err, HasSubstr("is still queued or running"));
  }

  // `sweep status` until the array is done, then the same results again.
  CliResult progress;
  for (int i = 0; i < 120; ++i) {
    progress = run({"sweep", "status", "slurm"});
    if (progress.out.find("6/6 points done") != std::string::npos &&
        progress.out.find("has finished") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_THAT(progress.out, HasSubstr("6/6 points done, 0 failed, 0 missing")) << cluster_.log("slurmctld.log");
  EXPECT_EQ(read_text(path("slurm/results.csv")), read_text(path("local/results.csv")));
  EXPECT_EQ(point_entries(path("slurm")), all);
}

}  // namespace
}  // namespace simtlm::test
