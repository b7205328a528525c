// The shared test inputs under testbenches/data/ (see docs/validation.md):
// kernels that parser, analysis and functional tests load by name instead of
// embedding the text again. SIMTLM_TEST_DATA_DIR is the absolute source path
// of testbenches/data, set by testbenches/CMakeLists.txt, so a test finds its
// files from any working directory.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace test_data {

// Absolute path of testbenches/data/<name>, e.g. path("kernels/vec_add.ptx").
inline std::string path(const std::string& name) { return std::string(SIMTLM_TEST_DATA_DIR) + "/" + name; }

// The whole text of testbenches/data/<name>. A missing or unreadable file
// throws, naming the path, which GoogleTest reports as the test's failure.
// Call it inside a test (not in a static initialiser): there a throw would
// stop the whole binary before any test runs.
inline std::string text(const std::string& name) {
  const std::string file = path(name);
  std::ifstream in(file, std::ios::binary);
  if (!std::filesystem::is_regular_file(file) || !in) {
    throw std::runtime_error("test data file missing or unreadable: " + file);
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A PTX kernel file of testbenches/data (the same as text(); the name says
// what the caller expects to get).
inline std::string ptx(const std::string& name) { return text(name); }

// A data file named once and read where it is used: a constant that many
// tests share (a std::string constant would read the file before main, where
// a missing file stops the binary instead of failing the test that needs it).
// It converts to the file's text, so it passes where a std::string is taken.
struct File {
  const char* name;
  operator std::string() const { return text(name); }
};

// 1-based number of the one line of `text` that reads exactly `line`
// (without its newline); throws unless there is exactly one, so that a
// changed data file fails the test instead of testing something else.
inline size_t line_of(const std::string& text, const std::string& line) {
  size_t number = 0;
  size_t count = 0;
  size_t current = 1;
  for (size_t pos = 0; pos <= text.size(); ++current) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    if (text.compare(pos, eol - pos, line) == 0) {
      number = current;
      ++count;
    }
    pos = eol + 1;
  }
  if (count != 1) {
    throw std::runtime_error("the line '" + line + "' occurs " + std::to_string(count) +
                             " times in the kernel text, not once");
  }
  return number;
}

// `text` with the one line that reads exactly `line` replaced by
// `replacement`: a test that checks an error keeps the base kernel in its
// file and shows here exactly what it breaks.
inline std::string replace_line(const std::string& text, const std::string& line,
                                const std::string& replacement) {
  const size_t number = line_of(text, line);
  size_t begin = 0;
  for (size_t n = 1; n < number; ++n) begin = text.find('\n', begin) + 1;
  return text.substr(0, begin) + replacement + text.substr(begin + line.size());
}

}  // namespace test_data
