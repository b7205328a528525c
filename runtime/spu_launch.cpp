#include "runtime/spu_launch.h"

#include <string>

#include "functional/spu/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm::runtime {

void apply_platform(const ir::Module& module, const ir::Function& kernel, const Config& config,
                    functional::LaunchRequest& request) {
  const std::string& platform = config.str("sim.platform");
  if (platform == "spu") {
    request.spu_grid_size = config.u32("spu.grid_size");
    request.spu_cb_bytes = config.u32("spu.cb_bytes");
    request.num_sms = request.spu_grid_size * request.spu_grid_size;
    return;
  }
  if (const ir::Instruction* inst = functional::spu::first_spu_instruction(kernel)) {
    throw Error(ErrorKind::Ptx, module.file + ":" + std::to_string(inst->loc.line) + ": kernel '" + kernel.name +
                                    "' uses the SPU instruction `" + inst->text + "`, which the " + platform +
                                    " platform does not have (sim.platform = " + platform +
                                    "; SPU kernels run with sim.platform = spu)");
  }
}

}  // namespace simtlm::runtime
