// The platform's part of a launch request (docs/spu.md). With sim.platform =
// spu the request carries the SPU's geometry (spu.grid_size, spu.cb_bytes;
// %nsmid = p * p), and the functional backend runs a kernel that uses SPU
// instructions on it. On any other platform such a kernel is Error(Ptx)
// naming its first SPU instruction's file and line: decided at launch, not
// at load, because one module may hold kernels for both platforms (the
// spu_stencil workload does) and a kernel that is never launched must not
// fail.
#pragma once

#include "frontend/ir/module.h"
#include "functional/launch.h"
#include "simtlm/config.h"

namespace simtlm::runtime {

void apply_platform(const ir::Module& module, const ir::Function& kernel, const Config& config,
                    functional::LaunchRequest& request);

}  // namespace simtlm::runtime
