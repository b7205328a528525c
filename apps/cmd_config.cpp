// `simtlm config describe [--markdown]`: every configuration key with type,
// default, unit, range and meaning (the text table, or the Markdown of
// docs/config-reference.md).
#include <ostream>

#include "apps/sim_options.h"
#include "simtlm/config.h"

namespace simtlm::cli {

namespace {
const char* kConfigUsage =
    "usage: simtlm config describe [--markdown]\n"
    "\n"
    "Lists every configuration key of the model with its type, default (the gtx480\n"
    "preset), unit, valid range and meaning. --markdown prints the reference page\n"
    "(docs/config-reference.md is generated from the same table).\n";
}  // namespace

int cmd_config(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()("help,h", "show this help")("markdown", po::bool_switch(), "print Markdown");
  po::options_description all;
  all.add(desc).add_options()("action", po::value<std::string>(), "action");
  po::positional_options_description positional;
  positional.add("action", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << kConfigUsage << "\n" << desc;
    return kExitOk;
  }
  if (!vm.count("action")) usage_error("config: missing action (expected: describe)");
  const std::string action = vm["action"].as<std::string>();
  if (action != "describe") usage_error("config: unknown action '" + action + "' (expected: describe)");
  io.out << (vm["markdown"].as<bool>() ? Config::reference_markdown() : Config::describe());
  return kExitOk;
}

}  // namespace simtlm::cli
