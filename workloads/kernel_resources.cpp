#include "workloads/kernel_resources.h"

#include <algorithm>

#include "frontend/load.h"
#include "models/sm/sm_params.h"
#include "models/vws/vws_params.h"
#include "simtlm/error.h"

namespace simtlm::workloads {

std::vector<KernelResources> kernel_resources(const Workload& workload) {
  const WorkloadInfo info = workload.info();
  const std::string ptx_name = info.ptx_name.empty() ? info.name : info.ptx_name;
  const auto module = frontend::load_ptx_text(embedded_ptx(ptx_name), ptx_name + ".ptx");
  const auto ptxas = ptxas_record(ptx_name);
  std::vector<KernelResources> out;
  for (const KernelShape& shape : workload.kernel_shapes()) {
    const ir::Function* f = module->find_kernel(shape.kernel);
    if (!f) {
      throw Error(ErrorKind::Internal, "workload '" + info.name + "' declares kernel '" + shape.kernel +
                                           "', which is not an entry of " + ptx_name + ".ptx");
    }
    KernelResources k;
    k.shape = shape;
    k.regs_per_thread = f->analysis.regs_per_thread;
    k.static_shared_bytes = f->static_shared_bytes;
    if (auto it = ptxas.find(shape.kernel); it != ptxas.end()) k.ptxas = it->second;
    out.push_back(k);
  }
  return out;
}

uint32_t KernelResources::admission_regs(const Config& config) const {
  const bool ptxas_count = config.str("gpu.sm.register_count_source") == "ptxas" && ptxas && ptxas->registers != 0;
  const uint32_t count = ptxas_count ? ptxas->registers : regs_per_thread;
  if (config.str("gpu.sm.register_limit_policy") != "cap") return count;  // a launch would be refused
  return std::min(count, config.u32("gpu.sm.max_registers_per_thread"));
}

models::OccupancyLimits occupancy_on(const Config& config, const KernelResources& kernel) {
  const models::SmParams params = models::vws::platform_sm_params(config, 0);
  return models::occupancy_limits(
      params, models::cta_shape(kernel.shape.threads_per_cta, params.warp_size, kernel.admission_regs(config),
                                kernel.shared_bytes()));
}

}  // namespace simtlm::workloads
