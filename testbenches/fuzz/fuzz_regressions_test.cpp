// Replays, through the fuzzing harnesses (fuzz_targets.h), the seed corpora
// the campaigns start from and every input a campaign found
// (testbenches/fuzz_regressions/<target>/). A harness aborts on a defect,
// which fails the test; the file being replayed is printed first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "simtlm/error.h"
#include "testbenches/fuzz/fuzz_targets.h"

namespace simtlm::fuzz {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = SIMTLM_SOURCE_DIR;

// Regular files under `dir` (recursively) whose name ends in `suffix` ("" =
// any), sorted; README.md files excluded.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix = "") {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
    const std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t replay(const std::vector<fs::path>& inputs, void (*harness)(const uint8_t*, size_t)) {
  for (const fs::path& p : inputs) {
    std::fprintf(stdout, "replaying %s\n", p.c_str());
    std::fflush(stdout);
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    harness(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  return inputs.size();
}

std::vector<fs::path> concat(std::vector<fs::path> a, const std::vector<fs::path>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(FuzzRegressions, PtxSeedsAndFoundInputs) {
  const auto seeds = concat(files_in(kRoot / "workloads", ".ptx"), files_in(kRoot / "testbenches/data", ".ptx"));
  EXPECT_GE(seeds.size(), 41u);
  replay(seeds, ptx_input);
  EXPECT_GE(replay(files_in(kRoot / "testbenches/fuzz_regressions/ptx"), ptx_input), 1u);
}

TEST(FuzzRegressions, ConfigSeedsAndFoundInputs) {
  EXPECT_GE(replay(files_in(kRoot / "configs", ".json"), config_input), 2u);
  EXPECT_GE(replay(files_in(kRoot / "testbenches/fuzz_regressions/config"), config_input), 1u);
}

TEST(FuzzRegressions, LaunchSpecSeedsAndFoundInputs) {
  EXPECT_GE(replay(files_in(kRoot / "testbenches/fuzz/seeds/launch_spec", ".json"), launch_spec_input), 1u);
  EXPECT_GE(replay(files_in(kRoot / "testbenches/fuzz_regressions/launch_spec"), launch_spec_input), 1u);
}

// The harness itself must be able to fail: an internal error is a defect.
TEST(FuzzHarness, AnInternalErrorAborts) {
  EXPECT_DEATH(expect_clean_outcome(
                   "test", [](const std::string&) { throw Error(ErrorKind::Internal, "a bug"); }, ""),
               "fuzz target test: internal error: a bug");
  EXPECT_DEATH(expect_clean_outcome(
                   "test", [](const std::string&) { throw std::runtime_error("raw library text"); }, ""),
               "unexpected exception: raw library text");
  expect_clean_outcome("test", [](const std::string&) { throw Error(ErrorKind::Ptx, "f:1:1: error"); }, "");
}

}  // namespace
}  // namespace simtlm::fuzz
