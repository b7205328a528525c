#include "apps/sweep/sweep_results.h"

#include <fstream>
#include <map>
#include <sstream>

#include "apps/output_files.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts(1);
  for (char c : path) {
    if (c == '.')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// Walks parts[from..] below `node`, trying member names made of 1..n parts.
const Json* walk(const Json& node, const std::vector<std::string>& parts, size_t from) {
  if (from == parts.size()) return &node;
  if (node.is_array()) {
    std::string index = parts[from];
    if (index.size() > 2 && index.front() == '[' && index.back() == ']') index = index.substr(1, index.size() - 2);
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) return nullptr;
    const size_t i = std::stoul(index);
    return i < node.size() ? walk(node[i], parts, from + 1) : nullptr;
  }
  if (!node.is_object()) return nullptr;
  std::string name;
  for (size_t end = from; end < parts.size(); ++end) {
    name += (end == from ? "" : ".") + parts[end];
    auto it = node.find(name);
    if (it != node.end())
      if (const Json* found = walk(*it, parts, end + 1)) return found;
    // "per_launch[0]": the member, then the element.
    const size_t bracket = parts[end].find('[');
    if (end == from && bracket != std::string::npos && bracket > 0 && parts[end].back() == ']') {
      auto member = node.find(parts[end].substr(0, bracket));
      if (member != node.end() && member->is_array()) {
        std::vector<std::string> rest(parts.begin(), parts.end());
        rest[end] = parts[end].substr(bracket);
        if (const Json* found = walk(*member, rest, end)) return found;
      }
    }
  }
  return nullptr;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string json_text(const Json& v) { return v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump(); }

// `candidate` names a member on the way to `path` (or `path` itself).
bool on_path(const std::string& path, const std::string& candidate) {
  return path.compare(0, candidate.size(), candidate) == 0 &&
         (path.size() == candidate.size() || path[candidate.size()] == '.' || path[candidate.size()] == '[');
}

// Parses stats.json keeping only the members of the first two levels that
// lead to a metric: the per-kernel statistics and their descriptions are
// most of a multi-launch run's file (MBs) and rarely asked for.
Json parse_for_metrics(std::istream& in, const std::vector<std::pair<std::string, std::string>>& metrics) {
  std::string top;
  auto keep = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (event != Json::parse_event_t::key || depth > 2) return true;
    const std::string key = parsed.get<std::string>();
    if (depth == 1) top = key;
    const std::string candidate = depth == 1 ? key : top + "." + key;
    for (const auto& m : metrics)
      if (on_path(m.second, candidate)) return true;
    return false;
  };
  return Json::parse(in, keep);
}

}  // namespace

Json metric_at(const Json& stats, const std::string& path) {
  const Json* v = walk(stats, split(path), 0);
  return v ? *v : Json();
}

Results collect_results(const Plan& plan, const PointStore& store) {
  Results results;
  // Points are shared between cells: read each one once.
  std::map<size_t, Cell> by_point;
  for (size_t i = 0; i < plan.points.size(); ++i) {
    Cell cell;
    cell.point = i;
    cell.result = store.result(plan.points[i].hash);
    cell.metrics.assign(plan.metrics.size(), Json());
    cell.values.assign(plan.metrics.size(), std::nullopt);
    if (!cell.result) {
      ++results.missing;
    } else if (!cell.result->ok) {
      ++results.failed;
    } else {
      ++results.ok;
      const fs::path stats_path = store.dir(plan.points[i].hash) / "stats.json";
      std::ifstream in(stats_path);
      Json stats;
      try {
        stats = parse_for_metrics(in, plan.metrics);
      } catch (const nlohmann::json::exception& e) {
        results.warnings.push_back(stats_path.string() + ": unreadable (" + e.what() + ")");
      }
      for (size_t m = 0; m < plan.metrics.size(); ++m) {
        if (stats.is_null()) break;
        const Json v = metric_at(stats, plan.metrics[m].second);
        if (v.is_null())
          results.warnings.push_back("metric '" + plan.metrics[m].first + "': '" + plan.metrics[m].second +
                                     "' not found in " + stats_path.string());
        cell.metrics[m] = v;
        if (v.is_number()) cell.values[m] = v.get<double>();
      }
    }
    by_point.emplace(i, std::move(cell));
  }
  for (size_t r = 0; r < plan.rows.size(); ++r) {
    std::vector<Cell> row;
    for (size_t c = 0; c < plan.columns.size(); ++c) row.push_back(by_point.at(plan.cells[r][c]));
    results.cells.push_back(std::move(row));
  }
  return results;
}

void write_results(const fs::path& out_dir, const Plan& plan, const Results& results) {
  std::ostringstream csv, jsonl;
  csv << "workload,size,seed";
  for (const std::string& d : plan.dimensions) csv << "," << csv_field(d);
  csv << ",point,status,exit_code";
  for (const auto& [name, path] : plan.metrics) csv << "," << csv_field(name);
  csv << "\n";
  for (size_t r = 0; r < plan.rows.size(); ++r) {
    const PlanRow& row = plan.rows[r];
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const Cell& cell = results.cells[r][c];
      const PlanPoint& point = plan.points[cell.point];
      const bool workload = !row.workload.empty();
      csv << csv_field(row.label) << "," << (workload ? row.size : "") << ","
          << (workload ? std::to_string(row.seed) : "");
      for (const auto& [dim, value] : plan.columns[c].values) csv << "," << csv_field(value);
      csv << "," << point.hash << "," << cell.status() << "," << (cell.result ? std::to_string(cell.result->exit_code) : "");
      for (const Json& m : cell.metrics) csv << "," << csv_field(json_text(m));
      csv << "\n";

      Json j;
      j["workload"] = row.label;
      if (workload) {
        j["size"] = row.size;
        j["seed"] = row.seed;
      } else {
        j["kernel"] = row.kernel;
        j["ptx"] = row.ptx;
      }
      Json dims = Json::object();
      for (const auto& [dim, value] : plan.columns[c].values) dims[dim] = value;
      j["configuration"] = dims;
      j["column"] = plan.columns[c].label;
      j["point"] = point.hash;
      j["status"] = cell.status();
      if (cell.result) {
        j["exit_code"] = cell.result->exit_code;
        j["signal"] = cell.result->signal;
        j["timed_out"] = cell.result->timed_out;
        j["message"] = cell.result->message;
        j["host_seconds"] = cell.result->host_seconds;
      }
      Json metrics = Json::object();
      for (size_t m = 0; m < plan.metrics.size(); ++m) metrics[plan.metrics[m].first] = cell.metrics[m];
      j["metrics"] = metrics;
      jsonl << j.dump() << "\n";
    }
  }
  write_file_atomic(out_dir / "results.csv", csv.str());
  write_file_atomic(out_dir / "results.jsonl", jsonl.str());
}

std::string results_summary(const Plan& plan, const Results& results) {
  std::ostringstream s;
  s << "sweep: " << results.ok << " ok, " << results.failed << " failed";
  if (results.missing) s << ", " << results.missing << " missing";
  s << " (of " << plan.points.size() << " points)\n";
  std::vector<bool> listed(plan.points.size(), false);
  for (size_t r = 0; r < plan.rows.size(); ++r)
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const Cell& cell = results.cells[r][c];
      if (!cell.result || cell.result->ok || listed[cell.point]) continue;
      listed[cell.point] = true;
      s << "  failed: " << plan.rows[r].label << " @ " << plan.columns[c].label << " (points/"
        << plan.points[cell.point].hash << "): " << cell.result->message << "\n";
    }
  for (const std::string& w : results.warnings) s << "sweep: warning: " << w << "\n";
  return s.str();
}

}  // namespace simtlm::cli::sweep
