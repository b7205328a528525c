// `simtlm list [--details]`: the built-in workloads and configurations.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "apps/sim_options.h"
#include "models/sm/occupancy.h"
#include "simtlm/config.h"
#include "workloads/kernel_resources.h"
#include "workloads/workload.h"

namespace simtlm::cli {

namespace {

const char* kListUsage =
    "usage: simtlm list [--details]\n"
    "\n"
    "Lists the built-in workloads (for `simtlm run WORKLOAD`) with their class and\n"
    "description, and the configurations (for `simtlm run --config FILE`).\n"
    "--details adds, per kernel: threads/CTA, registers/thread (our allocator, and\n"
    "ptxas for sm_75 as recorded by scripts/regen_ptx.sh), shared memory, and the\n"
    "resident CTAs per SM with the limiting resource on each built-in preset.\n";

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string bound(uint32_t n) { return n >= models::kUnbounded ? "-" : std::to_string(n); }

// One preset's occupancy line of a kernel: CTAs per SM, the binding
// resource, and the bound each resource sets.
void print_occupancy(Io& io, const std::string& label, const Config& config,
                     const workloads::KernelResources& k) {
  const models::OccupancyLimits o = workloads::occupancy_on(config, k);
  io.out << "        " << pad(label + ":", 26) << o.ctas << " CTAs/SM, limited by " << o.limiter()
         << " (threads " << bound(o.by_threads) << ", CTA slots " << bound(o.by_cta_slots)
         << ", registers " << bound(o.by_registers) << ", shared memory " << bound(o.by_shared_memory)
         << ")\n";
}

// Every kernel of a workload with its resources and occupancy on each preset
// (--details). The scratchpad-limited class is also shown with 16 KB of shared
// memory per SM on tesla_c2050, the configuration of the sharing studies.
void print_kernels(Io& io, const workloads::Workload& workload) {
  try {
    const std::string klass = workload.info().klass;
    for (const workloads::KernelResources& k : workloads::kernel_resources(workload)) {
      io.out << "      kernel " << k.shape.kernel << (k.shape.characteristic ? "" : " (auxiliary)") << ": "
             << k.shape.threads_per_cta << " threads/CTA, registers/thread (ptxas sm_75: "
             << (k.ptxas ? std::to_string(k.ptxas->registers) : std::string("not recorded")) << ", allocator: "
             << k.regs_per_thread << "; admission takes ptxas's where recorded), "
             << k.static_shared_bytes << " B static + " << k.shape.dynamic_shared_bytes
             << " B dynamic shared/CTA\n";
      for (const std::string& preset : config_preset_names())
        print_occupancy(io, preset, Config::preset(preset), k);
      if (klass == "scratchpad-limited") {
        Config small_smem = Config::preset("tesla_c2050");
        small_smem.set("gpu.sm.shared_memory_bytes", "16384");
        print_occupancy(io, "tesla_c2050, 16 KB shared", small_smem, k);
      }
    }
  } catch (const Error& e) {
    io.out << "      (resources not available: " << e.what() << ")\n";
  }
}

// `text` wrapped at word boundaries into lines of at most `width` columns
// (a longer word gets a line of its own); lines after the first are indented
// by `indent` spaces.
std::string wrap(const std::string& text, size_t indent, size_t width) {
  std::string out, line_text;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line_text.empty() && line_text.size() + 1 + word.size() > width) {
      out += line_text + "\n" + std::string(indent, ' ');
      line_text.clear();
    }
    line_text += (line_text.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line_text;
}

constexpr size_t kListWidth = 100;  // columns of a line of `simtlm list`

void list_workloads(Io& io, bool details) {
  io.out << "Workloads (simtlm run WORKLOAD):\n";
  std::vector<std::string> names = workloads::WorkloadRegistry::names();
  if (names.empty()) io.out << "  (none built in)\n";
  // Columns as wide as their longest entry; descriptions wrapped under their column.
  std::vector<workloads::WorkloadInfo> infos;
  size_t name_width = 0, class_width = 0;
  for (const std::string& name : names) {
    infos.push_back(workloads::WorkloadRegistry::create(name)->info());
    name_width = std::max(name_width, name.size() + 2);
    class_width = std::max(class_width, infos.back().klass.size() + 2);
  }
  const size_t indent = 2 + name_width + class_width;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    const workloads::WorkloadInfo& info = infos[i];
    auto workload = workloads::WorkloadRegistry::create(name);
    io.out << "  " << pad(name, name_width) << pad(info.klass, class_width)
           << wrap(info.description + (name == "sgemm" ? " [default]" : ""), indent,
                   kListWidth > indent + 30 ? kListWidth - indent : 30)
           << "\n";
    if (details) {
      io.out << "      PTX module: " << (info.ptx_name.empty() ? name : info.ptx_name) << "\n";
      print_kernels(io, *workload);
      for (const workloads::RunArg& a : workload->run_args())
        io.out << "      --arg " << a.name << "=...  " << a.description << "\n";
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
  fs::path dir = SIMTLM_CONFIG_DIR;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(dir, ec)) {
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  // The path column fits the longest path (the source tree's may be deep).
  size_t width = std::string("default").size() + 2;
  for (const fs::path& file : files) width = std::max(width, file.string().size() + 2);
  io.out << "  " << pad("default", width)
         << "built in: the gtx480 values (GTX480, 15 SMs, warp size 32); used without --config\n";
  for (const fs::path& file : files) {
    io.out << "  " << pad(file.string(), width);
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
