// Runs the real `simtlm` binary (SIMTLM_EXE) as a subprocess in a fresh
// scratch directory and captures its exit status, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace simtlm::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Each test gets its own directory under the system temp dir, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("simtlm_cli_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" +
            info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  // Runs simtlm with `args` from the scratch directory (so relative paths in
  // the tests never depend on the directory the test binary started in).
  CliResult run(const std::vector<std::string>& args) const {
    std::string cmd = "cd " + shell_quote(dir_.string()) + " && " + shell_quote(SIMTLM_EXE);
    for (const std::string& a : args) cmd += " " + shell_quote(a);
    const auto out = dir_ / ".stdout", err = dir_ / ".stderr";
    cmd += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string()) + " </dev/null";
    int status = std::system(cmd.c_str());
    CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_text(out);
    r.err = read_text(err);
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
  }

  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  std::string write(const std::string& name, const std::string& text) const {
    write_text(dir_ / name, text);
    return (dir_ / name).string();
  }
  static std::string source(const std::string& rel) { return std::string(SIMTLM_SOURCE_DIR) + "/" + rel; }

  std::filesystem::path dir_;
};

}  // namespace simtlm::test
