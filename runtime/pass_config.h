// Where the configuration meets the front end: the pass pipeline a device
// loads modules with, made from the key frontend.passes and the keys of
// mechanisms implemented as passes (gpu.sm.regfile.sharing_reorder ->
// reorder_registers). The front end itself
// never sees a Config.
#pragma once

#include "frontend/passes/pipeline.h"
#include "simtlm/config.h"

namespace simtlm::runtime {

// PassOptions::parse of frontend.passes, checked against the global pass
// registry. Error(Config) naming the key (and where its value came from) for
// malformed text, an unknown pass or option, or a required pass switched off.
frontend::PassPipeline pass_pipeline_from_config(const Config& config);

}  // namespace simtlm::runtime
