// `simtlm ptx FILE.ptx`: analyse a PTX file; with --launch, run one of its kernels.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>

#include "apps/launch_spec.h"
#include "apps/occupancy_report.h"
#include "apps/output_files.h"
#include "apps/ptx_report.h"
#include "apps/ptx_unified.h"
#include "apps/ptxas_run.h"
#include "apps/run_console.h"
#include "apps/sim_options.h"
#include "apps/spec_launch.h"
#include "frontend/ir/printer.h"
#include "frontend/load.h"
#include "frontend/passes/relssp_placement.h"
#include "frontend/passes/relssp_release.h"
#include "frontend/passes/rewrite.h"
#include "frontend/passes/power_states_pass.h"
#include "runtime/device_impl.h"
#include "runtime/launch_checks.h"
#include "runtime/pass_config.h"

namespace simtlm::cli {

namespace {

const char* kPtxUsage =
    "usage: simtlm ptx FILE.ptx [--kernel NAME] [--relssp opt|postdom|exit] [--print]\n"
    "       simtlm ptx FILE.ptx --occupancy --threads T [--kernel NAME] [--config FILE] [-p KEY=VALUE] [--json]\n"
    "       simtlm ptx FILE.ptx [--kernel NAME] --power-states W --print\n"
    "       simtlm ptx FILE.ptx [--kernel NAME] --max-registers R [--spill local|shared --threads T] --print\n"
    "       simtlm ptx FILE.ptx [--kernel NAME] --occupancy-search --threads T [--spill local|shared] [--config FILE]\n"
    "       simtlm ptx FILE.ptx --kernel NAME --launch SPEC.json [options]\n"
    "\n"
    "Parses, validates and analyses a PTX file and prints every kernel and device\n"
    "function: parameters (name, type, size, offset), static shared memory, local\n"
    "memory per thread, registers and predicates after allocation, peak live\n"
    "registers, instructions, basic blocks and loops.\n"
    "\n"
    "With --print, prints the module as PTX after the front end's passes (calls\n"
    "inlined); with --relssp opt|postdom, after Jatala's relssp placement (what\n"
    "frontend.relssp.placement does in a run), the inserted instructions marked\n"
    "`// relssp: ...` and one comment line per kernel with what was inserted.\n"
    "\n"
    "With --occupancy, prints for every kernel (or --kernel NAME) with T threads per\n"
    "CTA what `simtlm occupancy` prints: the baseline resident CTAs per SM and what\n"
    "register and scratchpad sharing would launch, from our allocator's registers per\n"
    "thread and the kernel's static shared memory (--json: one object per kernel).\n"
    "\n"
    "With --power-states W --print, prints every kernel (or --kernel NAME) annotated\n"
    "with GREENER's register power states for threshold W (1..64): after each\n"
    "instruction's operands, the state (ON, SLEEP, OFF) of its destination and first\n"
    "two register sources once it has accessed them, as the thesis's Fig. 4.3 shows\n"
    "(docs/greener.md).\n"
    "\n"
    "With --max-registers R --print, prints the module after the unified allocation\n"
    "gave every kernel at most R registers per thread (6..255, counted as the\n"
    "kernels' reported registers) and spilled the values that did not fit to local\n"
    "memory: one comment line per kernel with its count before and after and what\n"
    "was spilled, and the spill loads and stores marked (docs/unified-allocation.md).\n"
    "With --spill shared --threads T (and the SM of --config / -p), the spills go\n"
    "first to per-thread slots in the shared memory the kernel does not use, as\n"
    "many as keep the occupancy R gives to CTAs of T threads, the rest to local\n"
    "memory (the slot pointer marked, the shared slots' placement in the comment).\n"
    "\n"
    "With --occupancy-search --threads T, runs the seed's static occupancy search\n"
    "(Hayes & Zhang Fig. 5, what frontend.unified_alloc.mode = auto does per launch)\n"
    "for CTAs of T threads on the SM of --config / -p: its inputs (ActTnum_org,\n"
    "MaxThrd, AD_int, the initial level, SmemFitTnum), one line per level in\n"
    "block-size steps (R and shared slots from the occupancy calculator, the\n"
    "transformed kernel's COMPUTE_inst, MEM_inst and CI_pred) and the chosen level.\n"
    "\n"
    "With --launch, runs the kernel as SPEC.json describes and prints the launch\n"
    "statistics. SPEC.json:\n"
    "  {\"grid\": [x,y,z] | n, \"block\": [x,y,z] | n, \"dynamic_shared_bytes\": n,\n"
    "   \"args\": [{\"type\": \"u32|s32|u64|s64|f32|f64|...\", \"value\": v} | {\"buffer\": \"name\"}],\n"
    "   \"registers_per_thread\": n,  (optional: registers per thread for CTA admission)\n"
    "   \"buffers\": {\"name\": {\"size_bytes\": n,\n"
    "                 \"init\": \"zero\" | {\"random\": seed, \"type\": \"f32\"} | {\"file\": \"in.bin\"},\n"
    "                 \"output\": \"out.bin\"}}}\n"
    "Input files are relative to the spec's directory; outputs are relative to\n"
    "--out DIR if given, else to the spec's directory.\n"
    "CTA admission uses the spec's registers_per_thread if given, else (with\n"
    "gpu.sm.register_count_source = ptxas, the default) the count of ptxas when it\n"
    "is installed (PATH, /usr/local/cuda/bin or SIMTLM_PTXAS), else our allocator's;\n"
    "the summary says which.\n";

// The register counts CTA admission may use for the kernels of `file`: the
// launch spec's registers_per_thread, else ptxas's when it is installed (run
// once, only when gpu.sm.register_count_source asks for ptxas).
RegisterCountLookup known_register_counts(const std::string& file, const LaunchSpec& spec, const Config& config) {
  if (spec.registers_per_thread != 0) {
    KnownRegisterCount given;
    given.registers = spec.registers_per_thread;
    given.from_launch_spec = true;
    given.detail = "registers_per_thread of " + spec.file;
    return [given](const std::string&, const std::string&) { return std::optional<KnownRegisterCount>(given); };
  }
  if (config.str("gpu.sm.register_count_source") != "ptxas") return nullptr;
  auto counts = std::make_shared<std::optional<PtxasCounts>>();
  return [file, counts](const std::string& module_name, const std::string& kernel) -> std::optional<KnownRegisterCount> {
    if (module_name != file) return std::nullopt;
    if (!*counts) {
      std::ifstream in(file);
      std::stringstream text;
      text << in.rdbuf();
      std::smatch m;
      const std::string ptx = text.str();
      static const std::regex target(R"(\.target[ \t]+([^\n]*))");
      *counts = run_ptxas(file, std::regex_search(ptx, m, target) ? m[1].str() : "");
    }
    const PtxasCounts& c = **counts;
    KnownRegisterCount k;
    auto it = c.registers.find(kernel);
    if (it != c.registers.end()) {
      k.registers = it->second;
      k.detail = c.ptxas + " -arch=" + c.arch + " -v run on " + file;
    } else {
      k.detail = c.failure.empty() ? "ptxas reported no count for '" + kernel + "'" : c.failure;
    }
    return k;
  };
}

// Marks what the relssp placement inserted (annotation "relssp.inserted").
std::string relssp_comment(const ir::Function& f, uint32_t pc) {
  const auto* marks = f.annotations.find<uint8_t>("relssp.inserted");
  if (marks == nullptr) return "";
  switch ((*marks)[pc]) {
    case frontend::passes::kInsertedRelssp: return "relssp: inserted";
    case frontend::passes::kInsertedBranch: return "relssp: branch of a split edge";
    case frontend::passes::kInsertedExit: return "relssp: exit moved into a split edge";
    default: return "";
  }
}

// One comment line per kernel: the relssp and split-edge branches inserted.
std::string relssp_summary(const ir::Module& m, const std::string& kernel) {
  std::string out;
  for (const ir::Function& f : m.functions) {
    if (!f.is_entry || (!kernel.empty() && f.name != kernel)) continue;
    const auto* marks = f.annotations.find<uint8_t>("relssp.inserted");
    if (marks == nullptr) continue;
    unsigned relssp = 0, branches = 0;
    for (uint8_t k : *marks) {
      relssp += k == frontend::passes::kInsertedRelssp ? 1 : 0;
      branches += k == frontend::passes::kInsertedBranch || k == frontend::passes::kInsertedExit ? 1 : 0;
    }
    out += "// relssp: kernel " + f.name + ": " + std::to_string(relssp) + " relssp, " + std::to_string(branches) +
           " split-edge instruction(s) inserted";
    if (const auto release = frontend::passes::relssp_release(f)) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f", 100.0 * release->fraction());
      out += "; after the release at most " + std::to_string(release->after) + " of " + std::to_string(release->total) +
             " instructions on the longest path (" + pct + " %, loops weighted by trip count or 1024)";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

int cmd_ptx(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()
      ("help,h", "show this help")
      ("kernel", po::value<std::string>()->value_name("NAME"),
       "kernel to report on, or to launch with --launch")
      ("launch", po::value<std::string>()->value_name("SPEC.json"), "run the kernel as SPEC.json describes")
      ("occupancy", po::bool_switch(), "print the occupancy of each kernel (needs --threads)")
      ("threads", po::value<std::string>()->value_name("T"),
       "--occupancy, --occupancy-search, --spill shared: threads per CTA")
      ("json", po::bool_switch(), "--occupancy: print JSON")
      ("relssp", po::value<std::string>()->value_name("PLACEMENT"),
       "place relssp: opt, postdom or exit (none), as frontend.relssp.placement")
      ("power-states", po::value<std::string>()->value_name("W"), "GREENER power states with threshold W (with --print)")
      ("max-registers", po::value<std::string>()->value_name("R"),
       "unified allocation: at most R registers per thread, the rest spilled (with --print)")
      ("occupancy-search", po::bool_switch(), "the occupancy search's table (needs --threads)")
      ("spill", po::value<std::string>()->value_name("TARGET"),
       "--max-registers: where spills go (local, or shared with --threads)")
      ("print", po::bool_switch(), "print the PTX after the front end's passes (with --power-states: annotated)");
  add_sim_options(desc);
  po::options_description all;
  all.add(desc).add_options()("file", po::value<std::string>(), "PTX file");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << kPtxUsage << "\n" << desc;
    return kExitOk;
  }
  if (!vm.count("file")) usage_error("missing the PTX file (simtlm ptx FILE.ptx)");
  const std::string file = vm["file"].as<std::string>();
  const std::string kernel = vm.count("kernel") ? vm["kernel"].as<std::string>() : "";

  if (vm["occupancy-search"].as<bool>()) {
    if (vm.count("max-registers") || vm.count("power-states") || vm.count("relssp") || vm["occupancy"].as<bool>() ||
        vm.count("launch") || vm["print"].as<bool>())
      usage_error("--occupancy-search cannot be combined with --max-registers, --power-states, --relssp, "
                  "--occupancy, --launch or --print (use -p frontend.unified_alloc.mode=auto with --launch)");
    if (!vm.count("threads")) usage_error("--occupancy-search needs --threads T");
    const uint32_t threads =
        static_cast<uint32_t>(parse_uint(vm["threads"].as<std::string>(), "--threads", 1, 1024));
    const std::string spill = vm.count("spill") ? vm["spill"].as<std::string>() : "local";
    frontend::passes::SearchOptions search;
    if (!frontend::passes::parse_spill_target(spill, search.spill))
      usage_error("--spill '" + spill + "' is not local or shared");
    const SimOptions sim = read_sim_options(vm);
    const Config& cfg = *sim.effective;
    search.limits = runtime::occupancy_limits_from_config(cfg);
    search.cores = runtime::search_cores(cfg);
    search.priority = runtime::prune_priority(cfg);
    search.max_cmratio = cfg.f64("frontend.unified_alloc.max_cmratio");
    search.concurrency_bound = cfg.f64("frontend.unified_alloc.concurrency_bound");
    return print_occupancy_search(io, file, kernel, threads, search);
  }
  if (vm.count("max-registers") || vm.count("spill")) {
    if (!vm.count("max-registers") || !vm["print"].as<bool>()) usage_error("--max-registers R and --print go together");
    if (vm.count("power-states") || vm.count("relssp") || vm["occupancy"].as<bool>() || vm.count("launch"))
      usage_error("--max-registers cannot be combined with --power-states, --relssp, --occupancy or --launch "
                  "(use -p frontend.unified_alloc.mode=fixed with --launch)");
    const uint64_t r = parse_uint(vm["max-registers"].as<std::string>(), "--max-registers", 6, 255);
    const std::string spill = vm.count("spill") ? vm["spill"].as<std::string>() : "local";
    if (spill == "local") {
      if (vm.count("threads")) usage_error("--threads is meaningful with --spill shared, not local");
      return print_unified_alloc(io, file, kernel, static_cast<uint32_t>(r), spill);
    }
    if (spill != "shared") usage_error("--spill '" + spill + "' is not local or shared");
    if (!vm.count("threads")) usage_error("--spill shared needs --threads T (the CTA size the slots are laid out for)");
    const uint32_t threads =
        static_cast<uint32_t>(parse_uint(vm["threads"].as<std::string>(), "--threads", 1, 1024));
    const SimOptions sim = read_sim_options(vm);
    return print_unified_alloc(io, file, kernel, static_cast<uint32_t>(r), spill, threads,
                               runtime::occupancy_limits_from_config(*sim.effective),
                               runtime::prune_priority(*sim.effective));
  }
  if (vm.count("power-states")) {
    if (!vm["print"].as<bool>()) usage_error("--power-states W and --print go together");
    if (vm.count("relssp")) usage_error("--power-states and --relssp print one pass each: give one of them");
    if (vm["occupancy"].as<bool>() || vm.count("launch")) usage_error("--power-states cannot be combined with --occupancy or --launch");
    const uint64_t w = parse_uint(vm["power-states"].as<std::string>(), "--power-states", 1,
                                  frontend::passes::kMaxPowerWindow);
    frontend::PassOptions options("--power-states");
    options.enable(frontend::passes::kPowerStatesPass, true);
    options.set(frontend::passes::kPowerStatesPass, "window", std::to_string(w));
    auto module = frontend::load_ptx_file(file, frontend::PassPipeline(frontend::PassRegistry::global(), options));
    if (!kernel.empty() && !module->function_index.count(kernel)) runtime::find_kernel(*module, kernel);
    bool first = true;
    for (const ir::Function& f : module->functions) {
      if (!f.is_entry || (!kernel.empty() && f.name != kernel)) continue;
      if (!first) io.out << "\n";
      first = false;
      frontend::passes::print_power_states(io.out, *module, f);
    }
    return kExitOk;
  }
  if (vm["occupancy"].as<bool>()) {
    if (vm.count("launch")) usage_error("--occupancy and --launch cannot be combined");
    if (!vm.count("threads")) usage_error("--occupancy needs --threads T");
    const uint32_t threads =
        static_cast<uint32_t>(parse_uint(vm["threads"].as<std::string>(), "--threads", 1, 1u << 20));
    const SimOptions sim = read_sim_options(vm);
    auto module = frontend::load_ptx_file(file);
    if (!kernel.empty() && (!module->function_index.count(kernel) || module->find_kernel(kernel)))
      runtime::find_kernel(*module, kernel);  // throws for an unknown or rejected kernel
    print_ptx_occupancy(io.out, *module, kernel, *sim.effective, threads, vm["json"].as<bool>());
    return kExitOk;
  }
  if (vm.count("threads") || vm["json"].as<bool>()) usage_error("--threads and --json are only meaningful with --occupancy");

  if (vm.count("relssp") || vm["print"].as<bool>()) {
    if (vm.count("launch") || vm["occupancy"].as<bool>())
      usage_error("--relssp and --print are not meaningful with --launch or --occupancy (use -p frontend.relssp.placement=...)");
    frontend::PassOptions passes("--relssp");
    if (vm.count("relssp")) {
      const std::string placement = vm["relssp"].as<std::string>();
      frontend::passes::RelsspPlacement parsed;
      if (!frontend::passes::parse_relssp_placement(placement, parsed))
        usage_error("--relssp '" + placement + "' is not opt, postdom or exit");
      if (parsed != frontend::passes::RelsspPlacement::Exit) {
        passes.enable("relssp", true);
        passes.set("relssp", "placement", placement);
      }
    }
    auto module = frontend::load_ptx_file(file, frontend::PassPipeline(frontend::PassRegistry::global(), passes));
    if (!kernel.empty()) runtime::find_kernel(*module, kernel);  // throws, listing the kernels
    if (vm["print"].as<bool>()) {
      io.out << relssp_summary(*module, kernel) << ir::print_module(*module, relssp_comment);
    } else {
      io.out << relssp_summary(*module, kernel);
      print_ptx_report(io.out, *module, kernel);
    }
    return kExitOk;
  }

  if (!vm.count("launch")) {
    for (const char* opt : {"out", "config", "param", "trace", "warp-size", "progress-every"})
      if (vm.count(opt)) usage_error(std::string("--") + opt + " is only meaningful with --launch");
    for (const char* opt : {"stats", "progress", "per-launch"})
      if (vm[opt].as<bool>()) usage_error(std::string("--") + opt + " is only meaningful with --launch");
    if (!vm["backend"].defaulted()) usage_error("--backend is only meaningful with --launch");
    auto module = frontend::load_ptx_file(file);
    if (!kernel.empty() && (!module->function_index.count(kernel) || module->find_kernel(kernel)))
      runtime::find_kernel(*module, kernel);  // throws for an unknown or rejected kernel
    print_ptx_report(io.out, *module, kernel);
    // The report lists a rejected kernel with its diagnostic; the status
    // says that not every kernel of the file can run.
    bool rejected = false;
    for (const ir::Function& f : module->functions) {
      if (!f.is_entry || f.rejected.empty() || (!kernel.empty() && f.name != kernel)) continue;
      io.err << "simtlm: kernel '" << f.name << "' rejected: " << f.rejected << "\n";
      rejected = true;
    }
    return rejected ? kExitUsage : kExitOk;
  }

  auto start = std::chrono::steady_clock::now();
  SimOptions sim = read_sim_options(vm);
  const std::string spec_path = vm["launch"].as<std::string>();
  LaunchSpec spec = load_launch_spec(spec_path);
  if (!sim.out_dir.empty()) {
    check_outputs_spare_inputs(spec, sim.out_dir);  // before anything in the folder is removed
    std::vector<std::string> spec_outputs;
    for (const BufferSpec& b : spec.buffers) {
      if (!b.output.empty()) spec_outputs.push_back(b.output);
    }
    OutputDir(sim.out_dir).clear_results(spec_outputs);
  }

  RunConsole console(io, sim);
  DeviceOptions device_opts = device_options(sim);
  console.attach(device_opts);
  device_opts.known_register_counts = known_register_counts(file, spec, *sim.effective);
  Device device(device_opts);
  ModuleHandle handle = device.load_module_file(file);
  std::string kernel_name = kernel;
  if (kernel_name.empty()) {
    // Without --kernel, a module with exactly one kernel is unambiguous.
    const ir::Module& module = *device.impl().module(handle).module;
    for (const ir::Function& f : module.functions) {
      if (!f.is_entry) continue;
      if (!kernel_name.empty())
        usage_error("--launch needs --kernel NAME: '" + file + "' has several kernels");
      kernel_name = f.name;
    }
    if (kernel_name.empty()) usage_error("'" + file + "' has no kernels to launch");
  }

  std::filesystem::path output_dir = sim.out_dir.empty() ? spec.dir : std::filesystem::path(sim.out_dir);
  SpecLaunchResult result;
  {
    Progress progress(io, "running kernel " + kernel_name);
    result = launch_from_spec(device, handle, kernel_name, spec, output_dir);
  }

  RunReport report;
  report.command = "ptx";
  report.identity["file"] = file;
  report.identity["kernel"] = kernel_name;
  report.identity["launch_spec"] = spec_path;
  report.identity["grid"] = runtime::dims_text(spec.grid);
  report.identity["block"] = runtime::dims_text(spec.block);
  report.identity["dynamic_shared_bytes"] = spec.dynamic_shared_bytes;
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  for (const std::string& o : result.outputs) outputs.push_back(o);
  report.identity["outputs"] = outputs;
  report.backend = backend_name(sim.backend);
  report.warp_size = sim.warp_size;
  report.launches = device.launch_history();
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::ordered_json options;
  options["command"] = "ptx";
  options["file"] = file;
  options["kernel"] = kernel_name;
  options["launch_spec"] = spec_path;
  const nlohmann::ordered_json sim_json = sim_options_json(sim);
  for (auto& [k, v] : sim_json.items()) options[k] = v;
  console.finish(report.launches);
  emit_report(io, sim, report, options, &device);
  return kExitOk;
}

}  // namespace simtlm::cli
