// Result files. Every file is written under a temporary name in its final
// directory and renamed into place, so a reader never sees a half-written
// file, and commands write their results only after the run has succeeded.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace simtlm::cli {

// Writes `size` bytes atomically (temp file + rename). Error(Input) naming the
// path when the file cannot be written.
void write_file_atomic(const std::filesystem::path& path, const void* data, size_t size);
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

// The --out DIR of a command: created up front (so a bad path fails before a
// long run), files written atomically inside it.
class OutputDir {
 public:
  explicit OutputDir(const std::string& path);
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& name, const std::string& text) const;
  // Removes what an earlier run wrote here (kResultFiles, and `outputs`: a
  // launch spec's output files, relative to the folder), so that after a run
  // the folder holds exactly that run's results: a failed run leaves no
  // earlier stats.json, a run without --trace no earlier trace. Call once,
  // before the run.
  void clear_results(const std::vector<std::string>& outputs = {}) const;

  // Every file a run may write into --out DIR under a fixed name.
  static const std::vector<std::string> kResultFiles;

 private:
  std::filesystem::path path_;
};

}  // namespace simtlm::cli
