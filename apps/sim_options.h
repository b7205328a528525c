// Options shared by the commands that simulate (`run`, `ptx --launch`):
// backend, warp size, configuration file and -p overrides, output directory,
// --stats; plus the strict Boost.Program_options parsing every command uses.
#pragma once

#include <boost/program_options.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "apps/cli_common.h"
#include "apps/summary.h"
#include "simtlm/config.h"
#include "simtlm/device.h"

namespace simtlm::cli {

namespace po = boost::program_options;

// Parses `args` against `desc` (no abbreviated option names). Option errors
// surface as boost::program_options::error (reported as usage errors).
po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& desc,
                                const po::positional_options_description& positional);

struct SimOptions {
  Backend backend = Backend::Timing;
  unsigned warp_size = 32;
  bool warp_size_given = false;            // --warp-size on the command line (else gpu.sm.warp_size)
  std::string config_path;                 // --config FILE ("" = built-in default)
  nlohmann::ordered_json config;           // its parsed contents (null when none)
  std::vector<std::pair<std::string, std::string>> params;  // -p key=value, in order
  std::string out_dir;                     // --out DIR ("" = none)
  bool stats = false;                      // --stats
  bool per_launch = false;                 // --per-launch: the kernel table has a line per launch
  std::vector<std::string> traces;         // --trace vcd|timeline (files go to --out DIR)
  bool progress = false;                   // --progress: progress lines also when stderr is no terminal
  double progress_every = 10;              // --progress-every SECONDS between those lines
  // The effective configuration: defaults, --config, --warp-size, -p, traces;
  // validated (Error(Config) otherwise).
  std::shared_ptr<Config> effective;
};

void add_sim_options(po::options_description& desc);
// Validates the values: backend name, warp size 1..64, the config file exists
// and is a JSON object (Error(Input)/Error(Config)), each -p is key=value.
SimOptions read_sim_options(const po::variables_map& vm);
// Device options for the selected backend (with the timing backend: the
// effective configuration, its SM count and warp size). Progress and printf
// output: apps/run_console.h.
DeviceOptions device_options(const SimOptions& options);
// The effective options as written to options.json.
nlohmann::ordered_json sim_options_json(const SimOptions& options);

// Prints the report (the summary, or with --stats the JSON on stdout and the
// summary on stderr) and, with --out, writes options.json, config.json (the
// effective configuration), summary.txt and stats.json (last) into the
// directory. stats.json holds no wall-clock values (identical runs give
// identical files); host times are in the summary. With the timing backend
// the summary gains the key timing figures and stats.json the statistics
// tree ("timing": {"format", "meta", "kernels", "total"}).
void emit_report(Io& io, const SimOptions& options, const RunReport& report,
                 const nlohmann::ordered_json& effective_options, const Device* device = nullptr);

}  // namespace simtlm::cli
