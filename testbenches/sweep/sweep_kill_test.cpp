// Nothing lost, nothing twice: a sweep whose worker and then whose driver are
// killed with SIGKILL, resumed, ends with every point present exactly once
// and results identical to an uninterrupted sweep's.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "testbenches/sweep/sweep_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

class SweepKillTest : public SweepTest {
 protected:
  // Starts `simtlm sweep ARGS` in the scratch folder without waiting for it.
  pid_t start_sweep(const std::vector<std::string>& args) const {
    std::vector<std::string> argv_text = {SIMTLM_EXE, "sweep"};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string dir = dir_.string(), log = (dir_ / "killed.log").string();
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (::chdir(dir.c_str()) != 0) ::_exit(126);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return pid;
  }

  size_t published(const std::string& out) const {
    size_t n = 0;
    for (const std::string& e : point_entries(path(out)))
      if (e[0] != '.') ++n;
    return n;
  }

  // Processes whose command line mentions `text` (orphans of a killed sweep).
  static size_t processes_mentioning(const std::string& text) {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string cmdline = read_text(e.path() / "cmdline");
      for (char& c : cmdline)
        if (c == '\0') c = ' ';
      if (cmdline.find(text) != std::string::npos) ++n;
    }
    return n;
  }
};

TEST_F(SweepKillTest, KilledWorkerAndDriverThenResumeGivesTheUninterruptedResults) {
  // Five quick points and a last one of about a second, so that the driver is
  // still at work when it is killed.
  write("s.json", R"({"name": "kill", "size": "small",
                      "workloads": [{"name": "vectorAdd", "seed": 1, "label": "va1"},
                                    {"name": "vectorAdd", "seed": 2, "label": "va2"},
                                    {"name": "vectorAdd", "seed": 3, "label": "va3"},
                                    {"name": "scalarprod", "seed": 1, "label": "sp1"},
                                    {"name": "reduction", "seed": 1, "label": "red"},
                                    {"name": "reduction", "size": "default", "label": "red-default"}],
                      "metrics": {"cycles": "cycles", "ipc": "timing.total.gpu.ipc"}})");
  const CliResult reference = run({"sweep", "s.json", "--out", "reference", "--jobs", "2"});
  ASSERT_EQ(reference.code, 0) << reference.err;

  const pid_t driver = start_sweep({"s.json", "--out", "killed", "--jobs", "1"});
  ASSERT_GT(driver, 0);
  bool worker_killed = false, driver_killed = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!driver_killed && std::chrono::steady_clock::now() < deadline) {
    if (!worker_killed) {
      for (pid_t worker : children_of(driver)) {
        ::kill(worker, SIGKILL);  // the first point's process
        worker_killed = true;
      }
    } else if (published("killed") >= 3) {
      ::kill(driver, SIGKILL);
      driver_killed = true;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  int status = 0;
  ASSERT_EQ(::waitpid(driver, &status, 0), driver);
  ASSERT_TRUE(worker_killed && driver_killed) << read_text(path("killed.log"));
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the sweep finished before it was killed:\n" << read_text(path("killed.log"));

  // The killed worker is a failed point ("killed by signal 9"); the driver's
  // death took its running point with it (no orphan keeps writing).
  size_t killed_points = 0;
  for (const std::string& e : point_entries(path("killed"))) {
    if (e[0] == '.') continue;
    const auto result = read_json(path("killed/points/" + e + "/result.json"));
    if (result["signal"] == SIGKILL) ++killed_points;
  }
  EXPECT_EQ(killed_points, 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(processes_mentioning(path("killed").string() + "/points/"), 0u);
  EXPECT_LT(published("killed"), 6u);

  const CliResult resumed = run({"sweep", "--resume", "--out", "killed", "--jobs", "2"});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_THAT(resumed.err, HasSubstr("points already done"));
  // Every point exactly once, nothing half-written left, identical results.
  EXPECT_EQ(point_entries(path("killed")), point_entries(path("reference")));
  EXPECT_EQ(point_entries(path("killed")).size(), 6u);
  EXPECT_EQ(read_text(path("killed/results.csv")), read_text(path("reference/results.csv")));
  for (const std::string& e : point_entries(path("reference")))
    EXPECT_EQ(read_text(path("killed/points/" + e + "/stats.json")),
              read_text(path("reference/points/" + e + "/stats.json")))
        << e;
}

}  // namespace
}  // namespace simtlm::test
