#include "runtime/pass_config.h"

#include "frontend/passes/reorder_registers.h"
#include "simtlm/error.h"

namespace simtlm::runtime {

frontend::PassPipeline pass_pipeline_from_config(const Config& config) {
  const std::string key = "frontend.passes";
  const std::string& origin = config.origin(key);
  const std::string where = origin == "default" ? key : key + " (from " + origin + ")";
  frontend::PassOptions options = frontend::PassOptions::parse(config.str(key), where);
  // Passes of mechanisms are chosen by the mechanism's own key, so that the
  // configuration checks (Config::validate) see them: naming one in
  // frontend.passes as well would give two switches for one choice.
  const char* reorder = frontend::passes::kReorderRegistersPass;
  const std::string reorder_key = "gpu.sm.regfile.sharing_reorder";
  if (!options.params(reorder).values().empty()) {
    throw Error(ErrorKind::Config, where + ": the pass '" + std::string(reorder) + "' is chosen by " + reorder_key +
                                       ", not here");
  }
  if (config.boolean(reorder_key)) options.enable(reorder, true);
  return frontend::PassPipeline(frontend::PassRegistry::global(), std::move(options));
}

}  // namespace simtlm::runtime
