#include "runtime/pass_config.h"

#include "frontend/passes/power_states_pass.h"
#include "simtlm/error.h"

namespace simtlm::runtime {

frontend::PassPipeline pass_pipeline_from_config(const Config& config) {
  const std::string key = "frontend.passes";
  const std::string& origin = config.origin(key);
  const std::string where = origin == "default" ? key : key + " (from " + origin + ")";
  frontend::PassOptions options = frontend::PassOptions::parse(config.str(key), where);
  // GREENER's timing model reads the power_states pass's annotation: the
  // policy switches the pass on with its window (one place sets W).
  if (config.str("gpu.sm.regfile.power.policy") == "greener") {
    const char* pass = frontend::passes::kPowerStatesPass;
    for (const auto& [k, v] : options.params(pass).values()) {
      if (k == "divergence_rule") continue;  // the one experiment switch (docs/greener.md)
      throw Error(ErrorKind::Config, where + ": " + std::string(pass) + "." + k +
                                         " is set by gpu.sm.regfile.power.policy = greener and "
                                         "gpu.sm.regfile.power.window; do not configure it here too");
    }
    options.enable(pass, true);
    options.set(pass, "window", std::to_string(config.u64("gpu.sm.regfile.power.window")));
  }
  return frontend::PassPipeline(frontend::PassRegistry::global(), options);
}

}  // namespace simtlm::runtime
