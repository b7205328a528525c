// `simtlm sweep report`: tables and plots of a sweep's results.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "apps/sweep/sweep_plan.h"
#include "apps/sweep/sweep_results.h"

namespace simtlm::cli::sweep {

struct ReportFiles {
  std::filesystem::path markdown;
  std::vector<std::filesystem::path> plots;  // PNG and SVG
};

// Writes report.md and plot-data.json into `report_dir`, and (with `plots`)
// runs `script` (scripts/sweep_plot.py) on Debian's python3 to draw the
// PNG/SVG plots; Error(Input) when it cannot (matplotlib missing).
ReportFiles write_report(const Plan& plan, const Results& results, const std::filesystem::path& report_dir,
                         bool plots, const std::string& script);

}  // namespace simtlm::cli::sweep
