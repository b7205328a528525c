// Where the configuration meets the front end: the pass pipeline a device
// loads modules with, made from the key frontend.passes and the keys of
// mechanisms implemented as passes (gpu.sm.regfile.sharing_reorder ->
// reorder_registers). The front end itself
// never sees a Config.
#pragma once

#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/slot_colouring.h"
#include "simtlm/config.h"

namespace simtlm::runtime {

// PassOptions::parse of frontend.passes, checked against the global pass
// registry. Error(Config) naming the key (and where its value came from) for
// malformed text, an unknown pass or option, or a required pass switched off.
frontend::PassPipeline pass_pipeline_from_config(const Config& config);

// The SM's admission limits as the unified allocation's occupancy model sees
// them (frontend/passes/occupancy_model.h): gpu.sm.registers, .max_threads,
// .max_ctas, .warp_size, .shared_memory_bytes, .max_registers_per_thread;
// registers are allocated per warp in units of register_alloc_granularity x
// warp_size, shared memory per CTA in units of
// shared_memory_alloc_granularity (what models/sm/occupancy.h computes with
// the baseline allocators); a CTA's shared memory is at most 48 KB
// (DeviceOptions::max_shared_bytes_per_cta) and the SM's.
frontend::passes::OccupancyLimits occupancy_limits_from_config(const Config& config);
// The seed's "SM_cores" of the occupancy search's initial level (AD_int x
// cores): the threads an SM issues per cycle, gpu.sm.schedulers x warp_size.
uint32_t search_cores(const Config& config);
// frontend.unified_alloc.prune_priority.
frontend::passes::PrunePriority prune_priority(const Config& config);

}  // namespace simtlm::runtime
