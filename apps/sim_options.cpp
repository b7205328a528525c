#include "apps/sim_options.h"

#include <filesystem>
#include <fstream>
#include <ostream>

#include "apps/output_files.h"
#include "models/common/json_input.h"
#include "runtime/device_impl.h"

namespace simtlm::cli {

po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& desc,
                                const po::positional_options_description& positional) {
  namespace cls = po::command_line_style;
  const int style = cls::default_style & ~cls::allow_guessing;
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(desc).positional(positional).style(style).run(),
            vm);
  po::notify(vm);
  return vm;
}

void add_sim_options(po::options_description& desc) {
  desc.add_options()
      ("backend", po::value<std::string>()->default_value("timing")->value_name("NAME"),
       "timing | functional")
      ("warp-size", po::value<std::string>()->value_name("N"),
       "threads per warp, 1..64 (default: gpu.sm.warp_size, 32)")
      ("config", po::value<std::string>()->value_name("FILE"),
       "JSON configuration preset (default: built-in gtx480)")
      ("param,p", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
       "override one configuration key (repeatable)")
      ("out", po::value<std::string>()->value_name("DIR"),
       "write stats.json, config.json, summary.txt and options.json into DIR")
      ("trace", po::value<std::vector<std::string>>()->composing()->value_name("KIND"),
       "timing traces into --out DIR: vcd (trace.vcd) | timeline (timeline.json) | power (power.csv) | l1d "
       "(l1d_trace.txt); repeatable")
      ("stats", po::bool_switch(), "print the statistics JSON on stdout (summary on stderr)")
      ("progress", po::bool_switch(),
       "progress lines on stderr also when it is not a terminal (launch, cycles, instructions, CTAs, ETA)")
      ("progress-every", po::value<std::string>()->value_name("SECONDS"),
       "seconds between those lines (default 10; with --progress)")
      ("per-launch", po::bool_switch(), "timing summary: one line per launch instead of per kernel name");
}

namespace {

nlohmann::ordered_json read_config(const std::string& path) {
  nlohmann::ordered_json j = parse_ordered_json_input(read_json_file(path, "config file"), path, ErrorKind::Config);
  if (!j.is_object())
    throw Error(ErrorKind::Config, path + ": the top level must be a JSON object");
  return j;
}

}  // namespace

SimOptions read_sim_options(const po::variables_map& vm) {
  SimOptions o;
  o.backend = parse_backend(vm["backend"].as<std::string>());
  if (vm.count("warp-size")) {
    o.warp_size = static_cast<unsigned>(parse_uint(vm["warp-size"].as<std::string>(), "--warp-size", 1, 64));
    o.warp_size_given = true;
  }
  if (vm.count("config")) {
    o.config_path = vm["config"].as<std::string>();
    o.config = read_config(o.config_path);
  }
  if (vm.count("param")) {
    for (const std::string& kv : vm["param"].as<std::vector<std::string>>()) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        usage_error("-p '" + kv + "': expected key=value (e.g. -p gpu.num_sms=16)");
      o.params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
  }
  if (vm.count("out")) o.out_dir = vm["out"].as<std::string>();
  o.stats = vm["stats"].as<bool>();
  o.per_launch = vm["per-launch"].as<bool>();
  o.progress = vm["progress"].as<bool>();
  if (vm.count("progress-every")) {
    if (!o.progress) usage_error("--progress-every needs --progress");
    o.progress_every = static_cast<double>(
        parse_uint(vm["progress-every"].as<std::string>(), "--progress-every", 0, 86400));
  }
  if (vm.count("trace")) {
    for (const std::string& t : vm["trace"].as<std::vector<std::string>>()) {
      if (t != "vcd" && t != "timeline" && t != "power" && t != "l1d") {
        usage_error("unknown --trace '" + t + "' (expected vcd, timeline, power or l1d)");
      }
      o.traces.push_back(t);
    }
    if (o.backend != Backend::Timing) usage_error("--trace needs the timing backend (the functional backend keeps no time)");
    if (o.out_dir.empty()) usage_error("--trace needs --out DIR (the trace files are written there)");
  }

  // The effective configuration, validated for either backend.
  o.effective = std::make_shared<Config>();
  if (!o.config_path.empty()) o.effective->load_file(o.config_path);
  if (o.warp_size_given) o.effective->set("gpu.sm.warp_size", std::to_string(o.warp_size), "--warp-size");
  for (const auto& [k, v] : o.params) o.effective->apply_override(k + "=" + v);
  for (const std::string& t : o.traces) {
    const std::filesystem::path dir(o.out_dir);
    if (t == "vcd") o.effective->set("sim.trace.vcd_file", (dir / "trace.vcd").string(), "--trace vcd");
    if (t == "timeline") o.effective->set("sim.trace.timeline_file", (dir / "timeline.json").string(), "--trace timeline");
    if (t == "power") o.effective->set("sim.trace.power_file", (dir / "power.csv").string(), "--trace power");
    if (t == "l1d") o.effective->set("sim.trace.l1d_file", (dir / "l1d_trace.txt").string(), "--trace l1d");
  }
  o.effective->validate();
  if (!o.warp_size_given) o.warp_size = o.effective->u32("gpu.sm.warp_size");
  return o;
}

DeviceOptions device_options(const SimOptions& options) {
  DeviceOptions d;
  d.backend = options.backend;
  d.warp_size = options.warp_size;
  // Both backends load modules as the configuration says (frontend.passes,
  // gpu.sm.register_count_source); only the timing backend models the GPU.
  d.config = options.effective;
  if (options.backend == Backend::Timing && options.effective) d.num_sms = options.effective->u32("gpu.num_sms");
  return d;
}

nlohmann::ordered_json sim_options_json(const SimOptions& o) {
  nlohmann::ordered_json j;
  j["backend"] = backend_name(o.backend);
  j["warp_size"] = o.warp_size;
  j["config_file"] = o.config_path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(o.config_path);
  j["config"] = o.config.is_null() ? nlohmann::ordered_json::object() : o.config;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (auto& [k, v] : o.params) params[k] = v;
  j["params"] = params;
  j["per_launch"] = o.per_launch;
  return j;
}

void emit_report(Io& io, const SimOptions& options, const RunReport& report,
                 const nlohmann::ordered_json& effective_options, const Device* device) {
  std::string text = report_text(report);
  if (device != nullptr) text += timing_summary_text(device->impl().backend(), report.launches.size(), options.per_launch);
  // The JSON holds every launch's whole statistics tree (tens of MB for a run
  // of hundreds of launches): build it only when it is written somewhere.
  const bool want_json = !options.out_dir.empty() || options.stats;
  std::string json;
  if (want_json) {
    nlohmann::ordered_json stats = report_json(report);
    if (device != nullptr) {
      nlohmann::ordered_json tree = device->impl().backend().stats_tree();
      if (!tree.is_null()) stats["timing"] = std::move(tree);
    }
    json = stats.dump(2) + "\n";
  }
  if (!options.out_dir.empty()) {
    OutputDir dir(options.out_dir);
    dir.write("options.json", effective_options.dump(2) + "\n");
    if (options.effective) dir.write("config.json", options.effective->effective_json() + "\n");
    dir.write("summary.txt", text);
    dir.write("stats.json", json);  // last: its presence marks a complete result
  }
  if (options.stats) {
    io.out << json;
    io.err << text;
  } else {
    io.out << text;
  }
}

}  // namespace simtlm::cli
