#include "runtime/pass_config.h"

#include <algorithm>
#include <sstream>

#include "frontend/passes/occupancy_search.h"
#include "frontend/passes/power_states_pass.h"
#include "frontend/passes/reorder_registers.h"
#include "frontend/passes/shared_slots.h"
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
  if (options.passes().count(frontend::passes::kUnifiedSharedPass))
    throw Error(ErrorKind::Config, where + ": the pass '" + std::string(frontend::passes::kUnifiedSharedPass) +
                                       "' is chosen by frontend.unified_alloc.spill, not here");
  for (const char* stage : {frontend::passes::kUnifiedAutoPass})
    if (options.passes().count(stage))
      throw Error(ErrorKind::Config, where + ": the pass '" + std::string(stage) +
                                         "' is chosen by frontend.unified_alloc.mode, not here");
  if (config.str("frontend.unified_alloc.mode") == "auto") {
    frontend::passes::SearchOptions search;
    search.limits = occupancy_limits_from_config(config);
    frontend::passes::parse_spill_target(config.str("frontend.unified_alloc.spill"), search.spill);
    search.priority = prune_priority(config);
    search.max_cmratio = config.f64("frontend.unified_alloc.max_cmratio");
    search.concurrency_bound = config.f64("frontend.unified_alloc.concurrency_bound");
    search.cores = search_cores(config);
    frontend::passes::set_search_options(options, search);
  }
  if (config.str("frontend.unified_alloc.mode") == "fixed") {
    const uint32_t registers = config.u32("frontend.unified_alloc.registers");
    if (config.str("frontend.unified_alloc.spill") == "shared") {
      // Per block shape: the slot pointer is reserved only where slots are used.
      frontend::passes::set_shared_slot_options(options, registers, occupancy_limits_from_config(config),
                                                prune_priority(config));
    } else {
      options.enable(unified, true);
      options.set(unified, "registers", std::to_string(registers));
      options.set(unified, "spill", "local");
    }
  }
  return frontend::PassPipeline(frontend::PassRegistry::global(), std::move(options));
}

frontend::passes::PrunePriority prune_priority(const Config& config) {
  frontend::passes::PrunePriority p = frontend::passes::PrunePriority::LiveSets;
  frontend::passes::parse_prune_priority(config.str("frontend.unified_alloc.prune_priority"), p);
  return p;
}

uint32_t search_cores(const Config& config) {
  return config.u32("gpu.sm.schedulers") * config.u32("gpu.sm.warp_size");
}

frontend::passes::OccupancyLimits occupancy_limits_from_config(const Config& config) {
  frontend::passes::OccupancyLimits l;
  l.warp_size = config.u32("gpu.sm.warp_size");
  l.registers_per_sm = config.u32("gpu.sm.registers");
  l.reg_alloc_unit = std::max<uint32_t>(1, config.u32("gpu.sm.register_alloc_granularity")) * l.warp_size;
  l.shared_bytes_per_sm = config.u32("gpu.sm.shared_memory_bytes");
  l.smem_alloc_unit = std::max<uint32_t>(1, config.u32("gpu.sm.shared_memory_alloc_granularity"));
  l.max_threads_per_sm = config.u32("gpu.sm.max_threads");
  l.max_ctas_per_sm = config.u32("gpu.sm.max_ctas");
  l.max_registers_per_thread = config.u32("gpu.sm.max_registers_per_thread");
  l.max_shared_bytes_per_cta = std::min<uint32_t>(l.shared_bytes_per_sm, 48 * 1024);
  return l;
}

}  // namespace simtlm::runtime
