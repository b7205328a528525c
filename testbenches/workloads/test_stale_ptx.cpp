// The committed workloads/*/kernel.ptx must be exactly what
// scripts/regen_ptx.sh produces from kernel.cu (the build embeds the PTX, so a
// stale file silently runs old code). Needs nvcc; skipped without it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

std::string find_nvcc() {
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (dir.empty()) continue;
      const std::string candidate = dir + "/nvcc";
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  if (::access("/usr/local/cuda/bin/nvcc", X_OK) == 0) return "/usr/local/cuda/bin/nvcc";
  return {};
}

TEST(StalePtx, CommittedPtxMatchesRegeneration) {
  const std::string nvcc = find_nvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found on PATH or in /usr/local/cuda/bin; cannot check that "
                    "workloads/*/kernel.ptx is up to date";
  const std::string cmd = "NVCC='" + nvcc + "' '" + std::string(SIMTLM_SOURCE_DIR) +
                          "/scripts/regen_ptx.sh' --check 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << "cannot run " << cmd;
  std::string output;
  char buf[4096];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, got);
  const int status = ::pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << cmd << " did not exit normally\n" << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "regen_ptx.sh --check reports stale PTX:\n" << output;
}

}  // namespace
