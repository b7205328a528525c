// SPEC.json of `simtlm sweep`: read strictly and expanded into a Plan. Every
// error names the spec file and the field ("study.json: axes.gpu.l1d.sets[2]:
// ..."), and configuration values go through the same Config class as -p, so
// an unknown key or an out-of-range value is refused before anything runs.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "apps/launch_spec.h"
#include "apps/sweep/sweep_plan.h"
#include "frontend/load.h"
#include "models/common/json_input.h"
#include "simtlm/config.h"
#include "simtlm/error.h"
#include "workloads/workload.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

namespace {

// A base configuration: a preset or files, applied in order.
struct BaseConfig {
  std::string label;
  Config config;
};

// One independently varying unit of the cartesian product: a lone axis, or a
// zipped group of axes that advance together.
struct Unit {
  std::vector<std::string> keys;
  size_t size = 0;
};

class SpecReader {
 public:
  SpecReader(std::string file, fs::path dir) : file_(std::move(file)), dir_(std::move(dir)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw Error(ErrorKind::Input, file_ + ": " + field + ": " + message);
  }
  // Re-raises a nested error (Config, PTX, launch spec) under the field's name.
  [[noreturn]] void rethrow(const std::string& field, const Error& e) const {
    throw Error(e.kind(), file_ + ": " + field + ": " + e.what());
  }
  std::string origin(const std::string& field) const { return file_ + ": " + field; }
  fs::path resolve(const std::string& path) const {
    fs::path p(path);
    return fs::absolute(p.is_absolute() ? p : dir_ / p).lexically_normal();
  }

  std::string string_field(const Json& object, const std::string& key, const std::string& field,
                           const std::string& fallback, bool required = false) const {
    if (!object.contains(key)) {
      if (required) fail(field, "missing \"" + key + "\"");
      return fallback;
    }
    const Json& v = object.at(key);
    if (!v.is_string() || v.get<std::string>().empty())
      fail(field + "." + key, "expected a non-empty string, got " + v.dump());
    return v.get<std::string>();
  }
  uint64_t uint_field(const Json& object, const std::string& key, const std::string& field,
                      uint64_t fallback) const {
    if (!object.contains(key)) return fallback;
    const Json& v = object.at(key);
    if (!v.is_number_unsigned()) fail(field + "." + key, "expected an unsigned integer, got " + v.dump());
    return v.get<uint64_t>();
  }
  void only_keys(const Json& object, const std::string& field, std::initializer_list<const char*> keys) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      if (!it.key().empty() && it.key()[0] == '$') continue;  // "$comment"
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) {
        std::string list;
        for (const char* k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(field.empty() ? it.key() : field + "." + it.key(), "unknown field (expected one of: " + list + ")");
      }
    }
  }

 private:
  std::string file_;
  fs::path dir_;
};

std::string read_text(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, "cannot read " + what + " '" + path.string() + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Json parse_spec_text(const std::string& text, const std::string& file) {
  return parse_ordered_json_input(text, file, ErrorKind::Input);
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

// A workload's run arguments ({"n": 256, "method": "atomic"}) as `simtlm run
// --arg` items ("n=256"), in the spec's order.
std::vector<std::string> read_run_args(const SpecReader& r, const Json& args, const std::string& field) {
  if (!args.is_object()) r.fail(field, "expected an object of run arguments, got " + args.dump());
  std::vector<std::string> items;
  for (auto it = args.begin(); it != args.end(); ++it) {
    const Json& v = it.value();
    if (v.is_string()) items.push_back(it.key() + "=" + v.get<std::string>());
    else if (v.is_number_integer()) items.push_back(it.key() + "=" + v.dump());
    else r.fail(field + "." + it.key(), "expected a string or an integer, got " + v.dump());
  }
  return items;
}

std::vector<PlanRow> read_workloads(const SpecReader& r, const Json& spec) {
  std::vector<PlanRow> rows;
  const std::string size = r.string_field(spec, "size", "size", "default");
  if (size != "small" && size != "default") r.fail("size", "expected \"small\" or \"default\", got \"" + size + "\"");
  const uint64_t seed = r.uint_field(spec, "seed", "seed", 1);
  if (!spec.contains("workloads")) return rows;
  const Json& list = spec.at("workloads");
  const std::vector<std::string> known = workloads::WorkloadRegistry::names();
  if (list.is_string() && list.get<std::string>() == "all") {
    for (const std::string& name : known) rows.push_back({name, name, size, seed, "", "", "", {}});
    return rows;
  }
  if (!list.is_array()) r.fail("workloads", "expected \"all\" or an array of workloads, got " + list.dump());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string field = "workloads[" + std::to_string(i) + "]";
    const Json& w = list[i];
    PlanRow row{"", "", size, seed, "", "", "", {}};
    if (w.is_string()) {
      row.workload = w.get<std::string>();
    } else if (w.is_object()) {
      r.only_keys(w, field, {"name", "size", "seed", "label", "args"});
      row.workload = r.string_field(w, "name", field, "", true);
      row.size = r.string_field(w, "size", field, size);
      if (row.size != "small" && row.size != "default")
        r.fail(field + ".size", "expected \"small\" or \"default\", got \"" + row.size + "\"");
      row.seed = r.uint_field(w, "seed", field, seed);
      row.label = r.string_field(w, "label", field, "");
      if (w.contains("args")) row.args = read_run_args(r, w.at("args"), field + ".args");
    } else {
      r.fail(field, "expected a workload name or {\"name\", \"size\", \"seed\", \"label\", \"args\"}, got " + w.dump());
    }
    if (std::find(known.begin(), known.end(), row.workload) == known.end())
      r.fail(field, "unknown workload '" + row.workload + "' (available: " + join(known, ", ") + ")");
    if (!row.args.empty()) {  // the workload's own check, before anything runs
      try {
        workloads::apply_run_args(*workloads::WorkloadRegistry::create(row.workload), row.args);
      } catch (const Error& e) {
        r.rethrow(field + ".args", e);
      }
    }
    if (row.label.empty()) row.label = row.workload;
    rows.push_back(row);
  }
  return rows;
}

std::vector<PlanRow> read_kernels(const SpecReader& r, const Json& spec) {
  std::vector<PlanRow> rows;
  if (!spec.contains("kernels")) return rows;
  const Json& list = spec.at("kernels");
  if (!list.is_array()) r.fail("kernels", "expected an array of {\"ptx\", \"kernel\", \"launch\"}, got " + list.dump());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string field = "kernels[" + std::to_string(i) + "]";
    const Json& k = list[i];
    if (!k.is_object()) r.fail(field, "expected {\"ptx\", \"kernel\", \"launch\", \"label\"}, got " + k.dump());
    r.only_keys(k, field, {"ptx", "kernel", "launch", "label"});
    PlanRow row;
    row.kernel = r.string_field(k, "kernel", field, "", true);
    row.ptx = r.resolve(r.string_field(k, "ptx", field, "", true)).string();
    row.launch = r.resolve(r.string_field(k, "launch", field, "", true)).string();
    row.label = r.string_field(k, "label", field, row.kernel);
    try {
      auto module = frontend::load_ptx_file(row.ptx);
      if (!module->find_kernel(row.kernel))
        r.fail(field + ".kernel", "'" + row.ptx + "' has no kernel '" + row.kernel + "'");
      load_launch_spec(row.launch);
    } catch (const Error& e) {
      if (std::string(e.what()).rfind(r.origin(""), 0) == 0) throw;
      r.rethrow(field, e);
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<BaseConfig> read_configs(const SpecReader& r, const Json& spec) {
  std::vector<BaseConfig> bases;
  if (!spec.contains("configs")) {
    bases.push_back({"gtx480", Config::preset("gtx480")});
    return bases;
  }
  const Json& list = spec.at("configs");
  if (!list.is_array() || list.empty())
    r.fail("configs", "expected a non-empty array of presets or config files, got " + list.dump());
  const std::vector<std::string>& presets = config_preset_names();
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string field = "configs[" + std::to_string(i) + "]";
    const Json& entry = list[i];
    Json layers = entry.is_string() ? Json::array({entry}) : entry;
    if (!layers.is_array() || layers.empty())
      r.fail(field, "expected a preset name, a config file or an array of them (applied in order), got " + entry.dump());
    BaseConfig base;
    std::vector<std::string> names;
    for (size_t j = 0; j < layers.size(); ++j) {
      const std::string layer_field = entry.is_string() ? field : field + "[" + std::to_string(j) + "]";
      if (!layers[j].is_string()) r.fail(layer_field, "expected a preset name or a file, got " + layers[j].dump());
      const std::string name = layers[j].get<std::string>();
      try {
        if (std::find(presets.begin(), presets.end(), name) != presets.end()) {
          if (j != 0) r.fail(layer_field, "a preset ('" + name + "') can only be the first layer");
          base.config = Config::preset(name);
          names.push_back(name);
        } else {
          const fs::path path = r.resolve(name);
          if (!fs::is_regular_file(path))
            r.fail(layer_field, "'" + name + "' is neither a preset (" + join(presets, ", ") +
                                    ") nor a config file ('" + path.string() + "' not found)");
          base.config.load_file(path.string());
          names.push_back(path.stem().string());
        }
      } catch (const Error& e) {
        if (std::string(e.what()).rfind(r.origin(""), 0) == 0) throw;
        r.rethrow(layer_field, e);
      }
    }
    base.label = join(names, "+");
    for (const BaseConfig& b : bases)
      if (b.label == base.label) r.fail(field, "duplicate configuration '" + base.label + "'");
    bases.push_back(std::move(base));
  }
  return bases;
}

// Axes in spec order, each value validated on every base configuration.
std::vector<std::pair<std::string, Json>> read_axes(const SpecReader& r, const Json& spec,
                                                    const std::vector<BaseConfig>& bases) {
  std::vector<std::pair<std::string, Json>> axes;
  if (!spec.contains("axes")) return axes;
  const Json& object = spec.at("axes");
  if (!object.is_object()) r.fail("axes", "expected an object {\"config.key\": [values]}, got " + object.dump());
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string field = "axes." + it.key();
    const Json& values = it.value();
    if (!values.is_array() || values.empty()) r.fail(field, "expected a non-empty array of values, got " + values.dump());
    std::set<std::string> seen;
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string value_field = field + "[" + std::to_string(i) + "]";
      if (!values[i].is_primitive() || values[i].is_null())
        r.fail(value_field, "expected a number, a string or a boolean, got " + values[i].dump());
      const std::string text = value_text(values[i]);
      if (!seen.insert(text).second) r.fail(value_field, "duplicate value " + values[i].dump());
      for (const BaseConfig& base : bases) {
        Config c = base.config;
        c.set(it.key(), text, r.origin(value_field));  // the message names the field
      }
    }
    axes.emplace_back(it.key(), values);
  }
  return axes;
}

std::vector<Unit> read_units(const SpecReader& r, const Json& spec,
                             const std::vector<std::pair<std::string, Json>>& axes) {
  std::map<std::string, size_t> group_of;  // axis key -> zip group index
  std::vector<std::vector<std::string>> groups;
  if (spec.contains("zip")) {
    const Json& zip = spec.at("zip");
    if (!zip.is_array()) r.fail("zip", "expected an array of groups of axis keys, got " + zip.dump());
    for (size_t g = 0; g < zip.size(); ++g) {
      const std::string field = "zip[" + std::to_string(g) + "]";
      if (!zip[g].is_array() || zip[g].size() < 2) r.fail(field, "expected at least two axis keys, got " + zip[g].dump());
      std::vector<std::string> keys;
      for (const Json& k : zip[g]) {
        if (!k.is_string()) r.fail(field, "expected axis keys (strings), got " + k.dump());
        const std::string key = k.get<std::string>();
        auto axis = std::find_if(axes.begin(), axes.end(), [&](const auto& a) { return a.first == key; });
        if (axis == axes.end()) r.fail(field, "'" + key + "' is not one of the axes");
        if (group_of.count(key)) r.fail(field, "axis '" + key + "' is already in a zip group");
        group_of[key] = g;
        keys.push_back(key);
      }
      groups.push_back(keys);
    }
  }
  std::vector<Unit> units;
  std::set<size_t> placed;
  for (const auto& [key, values] : axes) {
    auto g = group_of.find(key);
    if (g == group_of.end()) {
      units.push_back({{key}, values.size()});
    } else if (placed.insert(g->second).second) {
      Unit u{groups[g->second], values.size()};
      for (const std::string& k : u.keys) {
        auto axis = std::find_if(axes.begin(), axes.end(), [&](const auto& a) { return a.first == k; });
        if (axis->second.size() != u.size)
          r.fail("zip[" + std::to_string(g->second) + "]", "zipped axes need equally many values ('" + key + "' has " +
                                                               std::to_string(u.size) + ", '" + k + "' has " +
                                                               std::to_string(axis->second.size()) + ")");
      }
      units.push_back(u);
    }
  }
  return units;
}

// The baseline column: the one whose values match every named dimension.
size_t read_baseline(const SpecReader& r, const Json& spec, const Plan& plan) {
  if (!spec.contains("baseline")) return 0;
  const Json& b = spec.at("baseline");
  if (!b.is_object()) r.fail("baseline", "expected an object {\"dimension\": value}, got " + b.dump());
  std::vector<size_t> matches;
  for (auto it = b.begin(); it != b.end(); ++it) {
    if (std::find(plan.dimensions.begin(), plan.dimensions.end(), it.key()) == plan.dimensions.end())
      r.fail("baseline." + it.key(), "not a dimension of the sweep (dimensions: " + join(plan.dimensions, ", ") + ")");
  }
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    bool match = true;
    for (const auto& [dim, value] : plan.columns[c].values)
      if (b.contains(dim) && value_text(b.at(dim)) != value) match = false;
    if (match) matches.push_back(c);
  }
  if (matches.empty()) r.fail("baseline", "no configuration of the sweep has " + b.dump());
  if (matches.size() > 1) {
    std::vector<std::string> open;
    for (const std::string& dim : plan.dimensions) {
      std::set<std::string> values;
      for (size_t c : matches)
        for (const auto& [d, v] : plan.columns[c].values)
          if (d == dim) values.insert(v);
      if (values.size() > 1) open.push_back(dim);
    }
    r.fail("baseline", std::to_string(matches.size()) + " configurations match; also name a value of: " + join(open, ", "));
  }
  return matches[0];
}

void read_metrics_and_plot(const SpecReader& r, const Json& spec, Plan& plan) {
  static const std::set<std::string> reserved = {"workload", "size", "seed", "config", "point", "status", "exit_code"};
  if (spec.contains("metrics")) {
    const Json& m = spec.at("metrics");
    if (!m.is_object() || m.empty()) r.fail("metrics", "expected an object {\"name\": \"path.in.stats.json\"}, got " + m.dump());
    for (auto it = m.begin(); it != m.end(); ++it) {
      const std::string& name = it.key();
      const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
      });
      if (name.empty() || !plain) r.fail("metrics." + name, "a metric name is letters, digits, '_' and '-'");
      if (reserved.count(name) || std::find(plan.dimensions.begin(), plan.dimensions.end(), name) != plan.dimensions.end())
        r.fail("metrics." + name, "the name is taken by a column of results.csv");
      if (!it.value().is_string() || it.value().get<std::string>().empty())
        r.fail("metrics." + name, "expected a path into stats.json (e.g. \"timing.total.gpu.ipc\"), got " + it.value().dump());
      plan.metrics.emplace_back(name, it.value().get<std::string>());
    }
  } else {
    plan.metrics.emplace_back("cycles", "cycles");
  }
  plan.plot_metric = plan.metrics.front().first;
  if (!plan.numeric_axes.empty()) plan.plot_axis = plan.numeric_axes.front();
  if (!spec.contains("plot")) return;
  const Json& p = spec.at("plot");
  if (!p.is_object()) r.fail("plot", "expected {\"metric\": name, \"axis\": key}, got " + p.dump());
  r.only_keys(p, "plot", {"metric", "axis"});
  plan.plot_metric = r.string_field(p, "metric", "plot", plan.plot_metric);
  if (std::none_of(plan.metrics.begin(), plan.metrics.end(), [&](const auto& m) { return m.first == plan.plot_metric; }))
    r.fail("plot.metric", "'" + plan.plot_metric + "' is not one of the metrics");
  plan.plot_axis = r.string_field(p, "axis", "plot", plan.plot_axis);
  if (!plan.plot_axis.empty() &&
      std::find(plan.numeric_axes.begin(), plan.numeric_axes.end(), plan.plot_axis) == plan.numeric_axes.end())
    r.fail("plot.axis", "'" + plan.plot_axis + "' is not an axis with numeric values");
}

// What determines a user kernel's result besides the configuration: the
// contents of the PTX, the launch spec and its input files.
std::string kernel_inputs_hash(const PlanRow& row) {
  std::string bytes = read_text(row.ptx, "PTX file") + '\0' + read_text(row.launch, "launch spec");
  const LaunchSpec spec = load_launch_spec(row.launch);
  for (const BufferSpec& b : spec.buffers)
    if (b.init == BufferInit::File) bytes += '\0' + b.name + '\0' + read_text(b.file, "input file");
  return fnv1a_hex(bytes);
}

void add_points(Plan& plan, const std::vector<Config>& column_configs, const std::string& backend,
                const std::string& version) {
  // The build id: a version number does not change with every model change,
  // the executable does (the results of an older build are not reused).
  std::map<std::string, size_t> index;
  for (const PlanRow& row : plan.rows) {
    Json base;
    base["simtlm"] = version;
    base["build"] = plan.build;
    std::vector<std::string> args;
    if (!row.workload.empty()) {
      base["command"] = "run";
      base["workload"] = row.workload;
      base["size"] = row.size;
      base["seed"] = row.seed;
      args = {"run", row.workload, "--size", row.size, "--seed", std::to_string(row.seed)};
      if (!row.args.empty()) base["args"] = row.args;  // absent without args: other points keep their hash
      for (const std::string& a : row.args) args.insert(args.end(), {"--arg", a});
    } else {
      base["command"] = "ptx";
      base["kernel"] = row.kernel;
      base["inputs"] = kernel_inputs_hash(row);
      args = {"ptx", row.ptx, "--kernel", row.kernel, "--launch", row.launch};
    }
    base["backend"] = backend;
    args.insert(args.end(), {"--backend", backend});
    std::vector<size_t> cells;
    for (const Config& config : column_configs) {
      PlanPoint p;
      p.identity = base;
      p.config = config.to_json();
      p.identity["config"] = p.config;
      p.hash = fnv1a_hex(p.identity.dump());
      p.args = args;
      auto [it, fresh] = index.emplace(p.hash, plan.points.size());
      if (fresh) plan.points.push_back(std::move(p));
      cells.push_back(it->second);
    }
    plan.cells.push_back(cells);
  }
}

}  // namespace

Plan plan_from_spec(const std::string& spec_path, const std::string& version, const std::string& build) {
  if (!fs::is_regular_file(spec_path)) throw Error(ErrorKind::Input, "sweep spec '" + spec_path + "' not found");
  const Json spec = parse_spec_text(read_text(spec_path, "sweep spec"), spec_path);
  const SpecReader r(spec_path, fs::absolute(spec_path).parent_path());
  if (!spec.is_object()) r.fail("(top level)", "expected a JSON object");
  r.only_keys(spec, "", {"name", "workloads", "size", "seed", "kernels", "configs", "backend", "axes", "zip",
                         "baseline", "metrics", "plot", "point_timeout"});
  Plan plan;
  plan.spec_file = spec_path;
  plan.build = build;
  plan.name = r.string_field(spec, "name", "name", fs::path(spec_path).stem().string());
  plan.rows = read_workloads(r, spec);
  for (PlanRow& k : read_kernels(r, spec)) plan.rows.push_back(k);
  if (plan.rows.empty()) r.fail("workloads", "the sweep has no workloads and no kernels");
  for (size_t i = 0; i < plan.rows.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (plan.rows[i].label == plan.rows[j].label)
        r.fail(plan.rows[i].kernel.empty() ? "workloads" : "kernels",
               "two rows are labelled '" + plan.rows[i].label + "' (give one a distinct \"label\")");
  const std::string backend = r.string_field(spec, "backend", "backend", "timing");
  if (backend != "timing" && backend != "functional")
    r.fail("backend", "expected \"timing\" or \"functional\", got \"" + backend + "\"");
  if (spec.contains("point_timeout")) {
    const Json& t = spec.at("point_timeout");
    if (!t.is_number() || t.get<double>() <= 0) r.fail("point_timeout", "expected a positive number of seconds");
    plan.point_timeout = t.get<double>();
  }

  const std::vector<BaseConfig> bases = read_configs(r, spec);
  const auto axes = read_axes(r, spec, bases);
  const std::vector<Unit> units = read_units(r, spec, axes);
  for (const Unit& u : units)
    if (u.keys.size() > 1) plan.zips.push_back(u.keys);
  plan.dimensions.push_back("config");
  for (const auto& [key, values] : axes) {
    plan.dimensions.push_back(key);
    if (std::all_of(values.begin(), values.end(), [](const Json& v) { return v.is_number(); }) && values.size() > 1)
      plan.numeric_axes.push_back(key);
  }

  // The cartesian product of the base configurations and the units, the last
  // unit varying fastest.
  std::vector<size_t> radix = {bases.size()};
  for (const Unit& u : units) radix.push_back(u.size);
  size_t total = 1;
  for (size_t n : radix) total *= n;
  std::vector<Config> column_configs;
  for (size_t c = 0; c < total; ++c) {
    std::vector<size_t> digit(radix.size());
    for (size_t rest = c, d = radix.size(); d-- > 0; rest /= radix[d]) digit[d] = rest % radix[d];
    PlanColumn column;
    std::vector<std::string> varying;
    const BaseConfig& base = bases[digit[0]];
    column.values.emplace_back("config", base.label);
    if (bases.size() > 1) varying.push_back(base.label);
    Config config = base.config;
    for (const auto& [key, values] : axes) {
      size_t u = 0;
      while (std::find(units[u].keys.begin(), units[u].keys.end(), key) == units[u].keys.end()) ++u;
      const std::string text = value_text(values[digit[u + 1]]);
      config.set(key, text, r.origin("axes." + key));
      column.values.emplace_back(key, text);
      if (units[u].size > 1) varying.push_back(text);
    }
    column.label = varying.empty() ? base.label : join(varying, " / ");
    try {
      config.validate();
    } catch (const Error& e) {
      r.rethrow("configuration '" + column.label + "'", e);
    }
    plan.columns.push_back(column);
    column_configs.push_back(std::move(config));
  }
  plan.baseline = read_baseline(r, spec, plan);
  read_metrics_and_plot(r, spec, plan);
  add_points(plan, column_configs, backend, version);
  return plan;
}

}  // namespace simtlm::cli::sweep
