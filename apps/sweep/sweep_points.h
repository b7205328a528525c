// The points of a sweep on disk, and one point's process.
//
// OUT/points/<hash>/ holds a finished point: point.json (its identity),
// input-config.json (the configuration it ran with), what `simtlm run --out`
// writes (config.json, stats.json, summary.txt, options.json), stdout.txt,
// stderr.txt and result.json (status, exit code, message, host seconds).
// A point runs in OUT/points/.tmp-<hash>-<host>-<pid>/ and the whole folder
// is renamed into place when it is complete, so a reader (a resumed sweep,
// `sweep status`, another Slurm task) sees a point entirely or not at all.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/sweep_plan.h"

namespace simtlm::cli::sweep {

struct PointResult {
  std::string hash;
  bool ok = false;
  int exit_code = -1;    // -1 when it did not exit (signal, time limit)
  int signal = 0;        // the signal that ended it, 0 if none
  bool timed_out = false;
  std::string message;   // why it failed ("" when ok)
  double host_seconds = 0;  // wall time of its process

  Json to_json() const;
  static PointResult from_json(const Json& j);
};

class PointStore {
 public:
  explicit PointStore(std::filesystem::path out_dir);
  const std::filesystem::path& out_dir() const { return out_; }
  std::filesystem::path dir(const std::string& hash) const { return points_ / hash; }
  // The published result of a point, if any (a damaged result.json counts as none).
  std::optional<PointResult> result(const std::string& hash) const;
  // Indices of the plan's points without a successful result.
  std::vector<size_t> pending(const Plan& plan) const;
  // Folders of points being run (.tmp-*): left behind by a killed sweep, or
  // in use by a running Slurm task.
  size_t temporaries() const;
  void remove_temporaries() const;

  // A fresh working folder for the point, with point.json and input-config.json.
  std::filesystem::path make_temp(const PlanPoint& point) const;
  // Writes result.json into `temp` and renames it to points/<hash>. A
  // successful result already there (a concurrent runner) is kept.
  void publish(const std::filesystem::path& temp, const PointResult& result) const;

 private:
  std::filesystem::path out_;
  std::filesystem::path points_;
};

// A point's process: `simtlm <args> --config TEMP/input-config.json --out TEMP`
// with stdout/stderr in TEMP, in its own process group, killed if the parent dies.
struct RunningPoint {
  size_t index = 0;  // into Plan::points
  pid_t pid = -1;
  std::filesystem::path temp;
  std::chrono::steady_clock::time_point start;
  bool timed_out = false;
};

RunningPoint start_point(const PointStore& store, const std::string& exe, const PlanPoint& point, size_t index);
// Kills the point's process group (time limit); it is reaped as usual.
void kill_point(RunningPoint& running);
// Publishes the result of a reaped process (`wait_status` from waitpid).
PointResult finish_point(const PointStore& store, const PlanPoint& point, const RunningPoint& running,
                         int wait_status);

// Runs a command (looked up in PATH) to its end and captures its output.
struct Captured {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
Captured capture(const std::vector<std::string>& command);

// The simtlm executable of this process (the points run the same version).
std::string self_executable();
// The GNU build id of this program (hex; "" when the linker wrote none): it
// changes whenever the executable does.
std::string build_id();
// Error(Usage) when `plan` was made by another build of simtlm than this one.
void check_same_build(const Plan& plan, const std::string& where);

}  // namespace simtlm::cli::sweep
