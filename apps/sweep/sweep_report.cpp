// `simtlm sweep report DIR`: markdown tables per metric (rows: workloads,
// columns: configurations; raw and normalised to the baseline, with a
// geometric-mean row) and plots drawn by scripts/sweep_plot.py (matplotlib)
// from the same numbers, which it reads from plot-data.json.
#include "apps/sweep/sweep_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "apps/output_files.h"
#include "simtlm/error.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

namespace {

std::string number(double v, bool normalised) {
  char buf[64];
  if (normalised)
    std::snprintf(buf, sizeof buf, "%.3f", v);
  else if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (std::fabs(v) >= 100)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// A file-name-safe form of a metric or axis name.
std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out;
}

struct MetricTable {
  std::vector<std::vector<std::optional<double>>> raw, normalised;  // [row][column]
  std::vector<size_t> geomean_rows;                                // rows in the geometric mean
  std::vector<std::optional<double>> raw_geomean, norm_geomean;
};

MetricTable metric_table(const Plan& plan, const Results& results, size_t m) {
  MetricTable t;
  for (size_t r = 0; r < plan.rows.size(); ++r) {
    std::vector<std::optional<double>> raw, norm;
    const std::optional<double> base = results.cells[r][plan.baseline].values[m];
    bool complete = true;
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const std::optional<double> v = results.cells[r][c].values[m];
      raw.push_back(v);
      norm.push_back(v && base && *base != 0 ? std::optional<double>(*v / *base) : std::nullopt);
      complete = complete && v && *v > 0 && norm.back();
    }
    if (complete) t.geomean_rows.push_back(r);
    t.raw.push_back(raw);
    t.normalised.push_back(norm);
  }
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    if (t.geomean_rows.empty()) {
      t.raw_geomean.push_back(std::nullopt);
      t.norm_geomean.push_back(std::nullopt);
      continue;
    }
    double log_raw = 0, log_norm = 0;
    for (size_t r : t.geomean_rows) {
      log_raw += std::log(*t.raw[r][c]);
      log_norm += std::log(*t.normalised[r][c]);
    }
    const double n = static_cast<double>(t.geomean_rows.size());
    t.raw_geomean.push_back(std::exp(log_raw / n));
    t.norm_geomean.push_back(std::exp(log_norm / n));
  }
  return t;
}

void markdown_table(std::ostream& md, const Plan& plan, const Results& results,
                    const std::vector<std::vector<std::optional<double>>>& values,
                    const std::vector<std::optional<double>>& geomean, bool normalised) {
  md << "| workload |";
  for (const PlanColumn& c : plan.columns) md << " " << c.label << " |";
  md << "\n|:--|";
  for (size_t c = 0; c < plan.columns.size(); ++c) md << "--:|";
  md << "\n";
  for (size_t r = 0; r < plan.rows.size(); ++r) {
    md << "| " << plan.rows[r].label << " |";
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const std::optional<double>& v = values[r][c];
      md << " " << (v ? number(*v, normalised) : results.cells[r][c].status() == "ok" ? "n/a" : results.cells[r][c].status())
         << " |";
    }
    md << "\n";
  }
  md << "| **geomean** |";
  for (const std::optional<double>& g : geomean) md << " " << (g ? "**" + number(*g, normalised) + "**" : "-") << " |";
  md << "\n";
}

Json optional_list(const std::vector<std::optional<double>>& values) {
  Json j = Json::array();
  for (const std::optional<double>& v : values) j.push_back(v ? Json(*v) : Json());
  return j;
}

// The line plot's columns: those equal to the baseline in every dimension but
// the axis (and the axes zipped with it), in increasing axis order.
std::vector<std::pair<double, size_t>> line_columns(const Plan& plan) {
  std::vector<std::pair<double, size_t>> cols;
  if (plan.plot_axis.empty()) return cols;
  const PlanColumn& base = plan.columns[plan.baseline];
  std::set<std::string> moving = {plan.plot_axis};
  for (const auto& zip : plan.zips)
    if (std::find(zip.begin(), zip.end(), plan.plot_axis) != zip.end()) moving.insert(zip.begin(), zip.end());
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    bool same = true;
    double x = 0;
    for (size_t d = 0; d < base.values.size(); ++d) {
      if (base.values[d].first == plan.plot_axis)
        x = std::strtod(plan.columns[c].values[d].second.c_str(), nullptr);
      else if (!moving.count(base.values[d].first))
        same = same && base.values[d].second == plan.columns[c].values[d].second;
    }
    if (same) cols.emplace_back(x, c);
  }
  std::sort(cols.begin(), cols.end());
  return cols;
}

std::string python() {
  if (const char* p = std::getenv("SIMTLM_PYTHON")) return p;
  // Debian's interpreter, where python3-matplotlib installs, before any other in PATH.
  if (fs::exists("/usr/bin/python3")) return "/usr/bin/python3";
  return "python3";
}

}  // namespace

ReportFiles write_report(const Plan& plan, const Results& results, const fs::path& report_dir, bool plots,
                         const std::string& script) {
  fs::create_directories(report_dir);
  ReportFiles files;
  std::ostringstream md;
  const PlanColumn& base = plan.columns[plan.baseline];
  md << "# Sweep `" << plan.name << "`\n\n";
  md << "Rows are workloads, columns configurations";
  std::vector<std::string> varying;
  for (size_t d = 0; d < plan.dimensions.size(); ++d) {
    std::set<std::string> values;
    for (const PlanColumn& c : plan.columns) values.insert(c.values[d].second);
    if (values.size() > 1) varying.push_back("`" + plan.dimensions[d] + "`");
  }
  if (!varying.empty()) {
    md << " (";
    for (size_t i = 0; i < varying.size(); ++i) md << (i ? " / " : "") << varying[i];
    md << ")";
  }
  md << ". Baseline: `" << base.label << "`";
  for (const auto& [dim, value] : base.values) md << ", " << dim << " = " << value;
  md << ".\nPoints: " << results.ok << " ok, " << results.failed << " failed, " << results.missing
     << " missing (of " << plan.points.size() << ").\n";

  Json data;
  data["name"] = plan.name;
  data["baseline"] = base.label;
  data["rows"] = Json::array();
  for (const PlanRow& r : plan.rows) data["rows"].push_back(r.label);
  data["columns"] = Json::array();
  for (const PlanColumn& c : plan.columns) data["columns"].push_back(c.label);
  data["plots"] = Json::array();

  for (size_t m = 0; m < plan.metrics.size(); ++m) {
    const auto& [name, path] = plan.metrics[m];
    const MetricTable t = metric_table(plan, results, m);
    md << "\n## " << name << " (`" << path << "`)\n\n";
    markdown_table(md, plan, results, t.raw, t.raw_geomean, false);
    md << "\nNormalised to `" << base.label << "`:\n\n";
    markdown_table(md, plan, results, t.normalised, t.norm_geomean, true);
    if (t.geomean_rows.size() != plan.rows.size())
      md << "\nThe geometric mean covers the " << t.geomean_rows.size() << " of " << plan.rows.size()
         << " workloads with a positive value in every configuration.\n";
    if (name != plan.plot_metric) continue;

    Json bars;
    bars["kind"] = "bars";
    bars["file"] = slug(name) + "-normalised";
    bars["ylabel"] = name + " normalised to " + base.label;
    Json norm = Json::array();
    for (const auto& row : t.normalised) norm.push_back(optional_list(row));
    bars["values"] = norm;
    bars["geomean"] = optional_list(t.norm_geomean);
    data["plots"].push_back(bars);
    md << "\n![" << name << " normalised to " << base.label << "](" << bars["file"].get<std::string>() << ".svg)\n";

    const auto cols = line_columns(plan);
    if (cols.size() >= 2) {
      Json line;
      line["kind"] = "line";
      line["file"] = slug(name) + "-vs-" + slug(plan.plot_axis);
      line["xlabel"] = plan.plot_axis;
      line["ylabel"] = name + " normalised to " + base.label;
      Json x = Json::array(), series = Json::array(), geo = Json::array();
      for (const auto& [xv, c] : cols) {
        x.push_back(xv);
        geo.push_back(t.norm_geomean[c] ? Json(*t.norm_geomean[c]) : Json());
      }
      for (size_t r = 0; r < plan.rows.size(); ++r) {
        Json ys = Json::array();
        for (const auto& [xv, c] : cols) ys.push_back(t.normalised[r][c] ? Json(*t.normalised[r][c]) : Json());
        series.push_back(ys);
      }
      line["x"] = x;
      line["values"] = series;
      line["geomean"] = geo;
      data["plots"].push_back(line);
      md << "\n![" << name << " against " << plan.plot_axis << "](" << line["file"].get<std::string>() << ".svg)\n";
    }
  }
  files.markdown = report_dir / "report.md";
  write_file_atomic(files.markdown, md.str());
  const fs::path data_file = report_dir / "plot-data.json";
  write_file_atomic(data_file, data.dump(1) + "\n");
  if (!plots) return files;
  const Captured c = capture({python(), script, data_file.string(), report_dir.string()});
  if (c.exit_code != 0)
    throw Error(ErrorKind::Input, "the plots were not drawn (" + script + "): " + c.output +
                                      "(matplotlib: Debian's python3-matplotlib, installed by scripts/setup.sh; "
                                      "or set SIMTLM_PYTHON; --no-plots skips them)");
  for (const Json& p : data["plots"]) {
    files.plots.push_back(report_dir / (p["file"].get<std::string>() + ".png"));
    files.plots.push_back(report_dir / (p["file"].get<std::string>() + ".svg"));
  }
  return files;
}

}  // namespace simtlm::cli::sweep
