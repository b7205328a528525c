// A sweep's results gathered from OUT/points: one cell per (row, column) with
// its point's status and metric values; written as OUT/results.csv (only
// values that do not depend on the host: identical for identical sweeps) and
// OUT/results.jsonl (with messages and host seconds).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/sweep_plan.h"
#include "apps/sweep/sweep_points.h"

namespace simtlm::cli::sweep {

struct Cell {
  size_t point = 0;                     // index into Plan::points
  std::optional<PointResult> result;    // none: not run yet
  std::vector<Json> metrics;            // per Plan::metrics; null when unavailable
  std::vector<std::optional<double>> values;  // the same as numbers

  std::string status() const { return !result ? "missing" : result->ok ? "ok" : "failed"; }
};

struct Results {
  std::vector<std::vector<Cell>> cells;  // [row][column]
  std::vector<std::string> warnings;     // metric paths not found, unreadable stats
  size_t ok = 0, failed = 0, missing = 0;  // over unique points
};

// The value at `path` in a stats.json tree: dot-separated, where a member
// name may itself contain dots ("timing.total.gpu.ipc" finds "gpu.ipc" in
// "total") and array elements are written [i] or .i. Null when absent.
Json metric_at(const Json& stats, const std::string& path);

Results collect_results(const Plan& plan, const PointStore& store);
void write_results(const std::filesystem::path& out_dir, const Plan& plan, const Results& results);

// "12 ok, 1 failed, 3 missing (of 16 points)" and one line per failed point.
std::string results_summary(const Plan& plan, const Results& results);

}  // namespace simtlm::cli::sweep
