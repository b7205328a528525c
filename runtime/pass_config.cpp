#include "runtime/pass_config.h"

#include "simtlm/error.h"

namespace simtlm::runtime {

frontend::PassPipeline pass_pipeline_from_config(const Config& config) {
  const std::string key = "frontend.passes";
  const std::string& origin = config.origin(key);
  const std::string where = origin == "default" ? key : key + " (from " + origin + ")";
  frontend::PassOptions options = frontend::PassOptions::parse(config.str(key), where);
  // Jatala's relssp placement has a key of its own (the studies sweep it).
  const std::string relssp = config.str("frontend.relssp.placement");
  if (options.passes().count("relssp"))
    throw Error(ErrorKind::Config, where + ": the pass 'relssp' is chosen by frontend.relssp.placement, not here");
  if (relssp != "exit") {
    options.enable("relssp", true);
    options.set("relssp", "placement", relssp);
  }
  return frontend::PassPipeline(frontend::PassRegistry::global(), options);
}

}  // namespace simtlm::runtime
