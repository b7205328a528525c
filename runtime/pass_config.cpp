#include "runtime/pass_config.h"

#include <sstream>

#include "frontend/passes/power_states_pass.h"
#include "frontend/passes/reorder_registers.h"
#include "frontend/passes/unified_alloc.h"
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
  // Unified allocation (Hayes & Zhang) likewise has keys of its own.
  const char* unified = frontend::passes::kUnifiedAllocPass;
  if (options.passes().count(unified))
    throw Error(ErrorKind::Config, where + ": the pass '" + std::string(unified) +
                                       "' is chosen by frontend.unified_alloc.mode, not here");
  if (config.str("frontend.unified_alloc.mode") == "fixed") {
    options.enable(unified, true);
    options.set(unified, "registers", std::to_string(config.u64("frontend.unified_alloc.registers")));
    options.set(unified, "spill", config.str("frontend.unified_alloc.spill"));
  }
  return frontend::PassPipeline(frontend::PassRegistry::global(), std::move(options));
}

}  // namespace simtlm::runtime
