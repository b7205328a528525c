// `simtlm occupancy --threads T --regs R --smem BYTES`: resident CTAs per SM
// of a CTA shape, without a kernel, and what register or scratchpad sharing
// would launch (apps/occupancy_report.h).
#include <ostream>

#include "apps/occupancy_report.h"
#include "apps/sim_options.h"
#include "models/sm/occupancy.h"
#include "models/sm/sm_params.h"
#include "models/vws/vws_params.h"

namespace simtlm::cli {

namespace {
const char* kOccupancyUsage =
    "usage: simtlm occupancy --threads T --regs R [--smem BYTES] [--config FILE] [-p KEY=VALUE ...] [--json]\n"
    "\n"
    "Prints how many CTAs of T threads, R registers per thread and BYTES of shared\n"
    "memory (static + dynamic) one SM holds, per resource and overall with the\n"
    "limiting resource, and what Jatala's register sharing and scratchpad sharing\n"
    "would launch with the configured thresholds (gpu.sm.regfile.sharing_threshold,\n"
    "gpu.sm.smem.sharing_threshold): CTAs launched, shared pairs, unshared CTAs, and\n"
    "whether sharing is enabled (only when it launches more CTAs than the baseline).\n"
    "--json prints one JSON object with the sections baseline, register_sharing and\n"
    "scratchpad_sharing.\n";
}  // namespace

int cmd_occupancy(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()("help,h", "show this help")(
      "threads", po::value<std::string>()->value_name("T"), "threads per CTA")(
      "regs", po::value<std::string>()->value_name("R"), "registers per thread")(
      "smem", po::value<std::string>()->default_value("0")->value_name("BYTES"), "shared memory per CTA")(
      "config", po::value<std::string>()->value_name("FILE"), "JSON configuration (default: built-in gtx480)")(
      "param,p", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
      "override one configuration key (repeatable)")("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm = parse_options(args, desc, po::positional_options_description());
  if (vm.count("help")) {
    io.out << kOccupancyUsage << "\n" << desc;
    return kExitOk;
  }
  if (!vm.count("threads")) usage_error("occupancy: missing --threads T");
  if (!vm.count("regs")) usage_error("occupancy: missing --regs R");
  const uint32_t threads = static_cast<uint32_t>(parse_uint(vm["threads"].as<std::string>(), "--threads", 1, 1u << 20));
  const uint32_t regs = static_cast<uint32_t>(parse_uint(vm["regs"].as<std::string>(), "--regs", 0, 1u << 16));
  const uint64_t smem = parse_uint(vm["smem"].as<std::string>(), "--smem", 0, uint64_t{1} << 40);

  Config config;
  if (vm.count("config")) config.load_file(vm["config"].as<std::string>());
  if (vm.count("param")) {
    for (const std::string& kv : vm["param"].as<std::vector<std::string>>()) config.apply_override(kv);
  }
  config.validate();
  const models::SmParams params = models::vws::platform_sm_params(config, 0);
  const models::CtaShape shape = models::cta_shape(threads, params.warp_size, regs, smem);
  const models::OccupancyReport report = models::occupancy_report(params, shape);
  if (vm["json"].as<bool>()) {
    io.out << occupancy_json(params, shape, report).dump(2) << "\n";
  } else {
    print_occupancy_report(io.out, params, shape, report);
  }
  return kExitOk;
}

}  // namespace simtlm::cli
