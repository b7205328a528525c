#include "runtime/pass_config.h"

#include <sstream>

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
  const std::string layout = config.str("frontend.relssp.layout");
  if (relssp != "exit" || layout != "declared") {
    options.enable("relssp", true);
    options.set("relssp", "placement", relssp);
    options.set("relssp", "layout", layout);
    std::ostringstream t;
    t.precision(17);
    t << config.f64("gpu.sm.smem.sharing_threshold");
    options.set("relssp", "threshold", t.str());
  }
  return frontend::PassPipeline(frontend::PassRegistry::global(), options);
}

}  // namespace simtlm::runtime
