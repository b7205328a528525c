// `simtlm run [WORKLOAD]`: set up, run and check one built-in workload.
#include <chrono>
#include <ostream>

#include "apps/output_files.h"
#include "apps/run_console.h"
#include "apps/sim_options.h"
#include "workloads/ptxas_record.h"
#include "workloads/workload.h"

namespace simtlm::cli {

namespace {

const char* kRunUsage =
    "usage: simtlm run [WORKLOAD] [options]\n"
    "\n"
    "Runs a built-in workload (default: sgemm; see `simtlm list`): generates its\n"
    "inputs from the seed, launches its kernel(s) on the simulated GPU, checks the\n"
    "result against a CPU reference and prints a summary. Exit status 0 = PASS,\n"
    "1 = FAIL, 2 = bad arguments/configuration/input, 3 = device fault or deadlock.\n";

std::string default_workload() {
  std::vector<std::string> names = workloads::WorkloadRegistry::names();
  if (names.empty()) throw Error(ErrorKind::Usage, "no workloads are built into this simtlm");
  for (const std::string& n : names)
    if (n == "sgemm") return n;
  return names.front();
}

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

workloads::Size parse_size(const std::string& text) {
  if (text == "small") return workloads::Size::Small;
  if (text == "default") return workloads::Size::Default;
  usage_error("unknown --size '" + text + "' (expected small or default)");
}

}  // namespace

int cmd_run(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()
      ("help,h", "show this help")
      ("size", po::value<std::string>()->default_value("default")->value_name("SIZE"),
       "input size: small | default")
      ("seed", po::value<std::string>()->default_value("1")->value_name("N"),
       "seed of the generated inputs")
      ("arg", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
       "a run argument of the workload (repeatable; `simtlm list --details` names them)");
  add_sim_options(desc);
  po::options_description all;
  all.add(desc).add_options()("workload", po::value<std::string>(), "workload to run");
  po::positional_options_description positional;
  positional.add("workload", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << kRunUsage << "\n" << desc;
    return kExitOk;
  }
  auto start = std::chrono::steady_clock::now();

  std::string name = vm.count("workload") ? vm["workload"].as<std::string>() : default_workload();
  std::unique_ptr<workloads::Workload> workload = workloads::WorkloadRegistry::create(name);
  if (!workload) {
    std::vector<std::string> names = workloads::WorkloadRegistry::names();
    usage_error("unknown workload '" + name + "'" +
                (names.empty() ? " (no workloads are built in)"
                               : " (available: " + join(names) + ")"));
  }
  const std::string size_text = vm["size"].as<std::string>();
  workloads::Size size = parse_size(size_text);
  uint64_t seed = parse_uint(vm["seed"].as<std::string>(), "--seed", 0, UINT64_MAX);
  std::vector<std::string> run_args;
  if (vm.count("arg")) run_args = vm["arg"].as<std::vector<std::string>>();
  workloads::apply_run_args(*workload, run_args);
  SimOptions sim = read_sim_options(vm);
  if (!sim.out_dir.empty()) OutputDir(sim.out_dir).clear_results();  // fail before a long run

  RunConsole console(io, sim);
  DeviceOptions device_opts = device_options(sim);
  console.attach(device_opts);
  device_opts.known_register_counts = workloads::recorded_register_counts();
  Device device(device_opts);
  workloads::CheckResult check;
  {
    Progress progress(io, "running " + name + " (" + backend_name(sim.backend) + ", " +
                              size_text + ")");
    workload->setup(device, size, seed);
    workload->run(device);
    check = workload->check(device);
  }

  RunReport report;
  report.command = "run";
  report.identity["workload"] = name;
  report.identity["size"] = size_text;
  report.identity["seed"] = seed;
  if (!run_args.empty()) report.identity["args"] = run_args;  // absent without --arg: other files unchanged
  report.backend = backend_name(sim.backend);
  report.warp_size = sim.warp_size;
  report.launches = device.launch_history();
  report.checked = true;
  report.passed = check.passed;
  report.detail = check.detail;
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::ordered_json options;
  options["command"] = "run";
  options["workload"] = name;
  options["size"] = size_text;
  options["seed"] = seed;
  if (!run_args.empty()) options["args"] = run_args;
  const nlohmann::ordered_json sim_json = sim_options_json(sim);
  for (auto& [k, v] : sim_json.items()) options[k] = v;
  console.finish(report.launches);
  emit_report(io, sim, report, options, &device);
  return check.passed ? kExitOk : kExitMismatch;
}

}  // namespace simtlm::cli
