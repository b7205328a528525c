// The plan's file form (OUT/plan.json) and the point hash.
#include <fstream>
#include <sstream>

#include "apps/output_files.h"
#include "apps/sweep/sweep_plan.h"
#include "models/common/json_input.h"
#include "simtlm/error.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

const PlanPoint* Plan::find(const std::string& hash) const {
  for (const PlanPoint& p : points)
    if (p.hash == hash) return &p;
  return nullptr;
}

std::string fnv1a_hex(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) s[static_cast<size_t>(i)] = digits[h & 0xf];
  return s;
}

std::string value_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();  // numbers and booleans as JSON writes them ("32", "0.5", "true")
}

namespace {

Json pairs_json(const std::vector<std::pair<std::string, std::string>>& pairs) {
  Json j = Json::object();
  for (const auto& [k, v] : pairs) j[k] = v;
  return j;
}

std::vector<std::pair<std::string, std::string>> pairs_from(const Json& j) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (auto it = j.begin(); it != j.end(); ++it) pairs.emplace_back(it.key(), it.value().get<std::string>());
  return pairs;
}

}  // namespace

Json plan_to_json(const Plan& plan) {
  Json j;
  j["format"] = "simtlm-sweep-plan/1";
  j["name"] = plan.name;
  j["spec_file"] = plan.spec_file;
  j["build"] = plan.build;
  j["dimensions"] = plan.dimensions;
  j["numeric_axes"] = plan.numeric_axes;
  j["zips"] = plan.zips;
  j["metrics"] = pairs_json(plan.metrics);
  j["plot"] = {{"metric", plan.plot_metric}, {"axis", plan.plot_axis}};
  j["point_timeout"] = plan.point_timeout;
  j["baseline"] = plan.baseline;
  Json rows = Json::array();
  for (const PlanRow& r : plan.rows) {
    Json row = {{"label", r.label}};
    if (!r.workload.empty()) {
      row["workload"] = r.workload;
      row["size"] = r.size;
      row["seed"] = r.seed;
      if (!r.args.empty()) row["args"] = r.args;
    } else {
      row["kernel"] = r.kernel;
      row["ptx"] = r.ptx;
      row["launch"] = r.launch;
    }
    rows.push_back(row);
  }
  j["rows"] = rows;
  Json columns = Json::array();
  for (const PlanColumn& c : plan.columns) columns.push_back({{"label", c.label}, {"values", pairs_json(c.values)}});
  j["columns"] = columns;
  j["cells"] = plan.cells;
  Json points = Json::array();
  for (const PlanPoint& p : plan.points)
    points.push_back({{"hash", p.hash}, {"args", p.args}, {"identity", p.identity}});
  j["points"] = points;
  return j;
}

Plan plan_from_json(const Json& j, const std::string& origin) {
  try {
    if (j.value("format", "") != "simtlm-sweep-plan/1")
      throw Error(ErrorKind::Input, origin + ": not a sweep plan of this simtlm (format " + j.value("format", "?") + ")");
    Plan plan;
    plan.name = j.at("name").get<std::string>();
    plan.spec_file = j.at("spec_file").get<std::string>();
    plan.build = j.at("build").get<std::string>();
    plan.dimensions = j.at("dimensions").get<std::vector<std::string>>();
    plan.numeric_axes = j.at("numeric_axes").get<std::vector<std::string>>();
    if (j.contains("zips")) plan.zips = j.at("zips").get<std::vector<std::vector<std::string>>>();
    plan.metrics = pairs_from(j.at("metrics"));
    plan.plot_metric = j.at("plot").at("metric").get<std::string>();
    plan.plot_axis = j.at("plot").at("axis").get<std::string>();
    plan.point_timeout = j.at("point_timeout").get<double>();
    plan.baseline = j.at("baseline").get<size_t>();
    for (const Json& r : j.at("rows")) {
      PlanRow row;
      row.label = r.at("label").get<std::string>();
      if (r.contains("workload")) {
        row.workload = r.at("workload").get<std::string>();
        row.size = r.at("size").get<std::string>();
        row.seed = r.at("seed").get<uint64_t>();
        if (r.contains("args")) row.args = r.at("args").get<std::vector<std::string>>();
      } else {
        row.kernel = r.at("kernel").get<std::string>();
        row.ptx = r.at("ptx").get<std::string>();
        row.launch = r.at("launch").get<std::string>();
      }
      plan.rows.push_back(row);
    }
    for (const Json& c : j.at("columns")) plan.columns.push_back({c.at("label").get<std::string>(), pairs_from(c.at("values"))});
    plan.cells = j.at("cells").get<std::vector<std::vector<size_t>>>();
    for (const Json& p : j.at("points")) {
      PlanPoint point;
      point.hash = p.at("hash").get<std::string>();
      point.args = p.at("args").get<std::vector<std::string>>();
      point.identity = p.at("identity");
      point.config = point.identity.at("config");
      plan.points.push_back(std::move(point));
    }
    if (plan.cells.size() != plan.rows.size() || plan.baseline >= plan.columns.size())
      throw Error(ErrorKind::Input, origin + ": inconsistent plan (rows, cells or baseline)");
    for (const auto& row : plan.cells)
      for (size_t p : row)
        if (row.size() != plan.columns.size() || p >= plan.points.size())
          throw Error(ErrorKind::Input, origin + ": inconsistent plan (cells)");
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::Input, origin + ": damaged sweep plan: " + e.what());
  }
}

void save_plan(const fs::path& out_dir, const Plan& plan) {
  write_file_atomic(out_dir / "plan.json", plan_to_json(plan).dump(1) + "\n");
}

Plan load_plan(const fs::path& out_dir) {
  const fs::path path = out_dir / "plan.json";
  std::ifstream in(path);
  if (!in)
    throw Error(ErrorKind::Input, "'" + out_dir.string() + "' holds no sweep (" + path.string() + " not found)");
  std::ostringstream text;
  text << in.rdbuf();
  const Json j = parse_ordered_json_input(text.str(), path.string(), ErrorKind::Input);
  return plan_from_json(j, path.string());
}

}  // namespace simtlm::cli::sweep
