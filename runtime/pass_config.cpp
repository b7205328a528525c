#include "runtime/pass_config.h"

namespace simtlm::runtime {

frontend::PassPipeline pass_pipeline_from_config(const Config& config) {
  const std::string key = "frontend.passes";
  const std::string& origin = config.origin(key);
  const std::string where = origin == "default" ? key : key + " (from " + origin + ")";
  return frontend::PassPipeline(frontend::PassRegistry::global(),
                                frontend::PassOptions::parse(config.str(key), where));
}

}  // namespace simtlm::runtime
