// `simtlm list [--details]`: the built-in workloads and configurations.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "apps/sim_options.h"
#include "frontend/load.h"
#include "workloads/workload.h"

namespace simtlm::cli {

namespace {

const char* kListUsage =
    "usage: simtlm list [--details]\n"
    "\n"
    "Lists the built-in workloads (for `simtlm run WORKLOAD`) with their class and\n"
    "description, and the configurations (for `simtlm run --config FILE`).\n";

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// Kernels of a workload's embedded PTX with their resource use (--details).
void print_kernels(Io& io, const std::string& ptx_name) {
  try {
    auto module = frontend::load_ptx_text(workloads::embedded_ptx(ptx_name), ptx_name + ".ptx");
    for (const ir::Function& f : module->functions) {
      if (!f.is_entry) continue;
      io.out << "      kernel " << f.name << ": " << f.params.size() << " params, "
             << f.analysis.regs_per_thread << " registers, " << f.static_shared_bytes
             << " B static shared, " << f.insts.size() << " instructions\n";
    }
  } catch (const Error& e) {
    io.out << "      (PTX not loadable: " << e.what() << ")\n";
  }
}

void list_workloads(Io& io, bool details) {
  io.out << "Workloads (simtlm run WORKLOAD):\n";
  std::vector<std::string> names = workloads::WorkloadRegistry::names();
  if (names.empty()) io.out << "  (none built in)\n";
  for (const std::string& name : names) {
    auto workload = workloads::WorkloadRegistry::create(name);
    workloads::WorkloadInfo info = workload->info();
    io.out << "  " << pad(name, 16) << pad(info.klass, 18) << info.description
           << (name == "sgemm" ? " [default]" : "") << "\n";
    if (details) {
      io.out << "      PTX module: " << (info.ptx_name.empty() ? name : info.ptx_name) << "\n";
      print_kernels(io, info.ptx_name.empty() ? name : info.ptx_name);
    }
  }
}

// One line about a preset: its "description", else the modelled GPU's name.
std::string preset_summary(const nlohmann::json& j) {
  if (j.contains("description") && j["description"].is_string())
    return j["description"].get<std::string>();
  std::string text;
  if (j.contains("gpu") && j["gpu"].is_object()) {
    const nlohmann::json& gpu = j["gpu"];
    if (gpu.contains("name") && gpu["name"].is_string()) text = gpu["name"].get<std::string>();
    if (gpu.contains("num_sms") && gpu["num_sms"].is_number())
      text += (text.empty() ? "" : ", ") + gpu["num_sms"].dump() + " SMs";
  }
  return text;
}

void list_configs(Io& io, bool details) {
  namespace fs = std::filesystem;
  io.out << "Configurations (simtlm run --config FILE):\n";
  io.out << "  " << pad("default", 34)
         << "built in: the gtx480 values (GTX480, 15 SMs, warp size 32); used without --config\n";
  fs::path dir = SIMTLM_CONFIG_DIR;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    io.out << "  " << pad(file.string(), 34);
    std::ifstream in(file);
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      io.out << "(not valid JSON)\n";
      continue;
    }
    io.out << preset_summary(j) << "\n";
    if (details) {
      // Every leaf key as `-p` spells it: gpu.sm.warp_size = 32.
      const nlohmann::json flat = j.flatten();
      for (auto& [pointer, value] : flat.items()) {
        std::string key = pointer.substr(1);
        if (key.empty() || key[0] == '$' || key == "description") continue;
        std::replace(key.begin(), key.end(), '/', '.');
        io.out << "      " << key << " = " << value.dump() << "\n";
      }
    }
  }
}

}  // namespace

int cmd_list(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()
      ("help,h", "show this help")
      ("details", po::bool_switch(), "also show each workload's kernels and each preset's keys");
  po::variables_map vm = parse_options(args, desc, {});
  if (vm.count("help")) {
    io.out << kListUsage << "\n" << desc;
    return kExitOk;
  }
  bool details = vm["details"].as<bool>();
  list_workloads(io, details);
  io.out << "\n";
  list_configs(io, details);
  return kExitOk;
}

}  // namespace simtlm::cli
