// What each kernel of a workload asks of an SM and how many of its CTAs fit:
// the declared launch geometry (Workload::kernel_shapes), our register
// allocation and static shared memory from the embedded PTX, ptxas's figures
// where recorded, and the occupancy limits on a configuration computed by the
// same code the CTA dispatcher uses (models/sm/occupancy.h). Used by
// `simtlm list --details` and by the workload-class test.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/sm/occupancy.h"
#include "simtlm/config.h"
#include "workloads/ptxas_record.h"
#include "workloads/workload.h"

namespace simtlm::workloads {

struct KernelResources {
  KernelShape shape;
  uint32_t regs_per_thread = 0;      // our allocator's estimate
  uint64_t static_shared_bytes = 0;  // from the PTX
  std::optional<PtxasKernel> ptxas;  // ptxas -v for sm_75, if recorded

  uint64_t shared_bytes() const { return static_shared_bytes + shape.dynamic_shared_bytes; }
  // The count CTA admission uses on `config` (gpu.sm.register_count_source;
  // capped at gpu.sm.max_registers_per_thread under register_limit_policy = cap, as
  // runtime/register_counts.h).
  uint32_t admission_regs(const Config& config) const;
};

// One entry per declared kernel, in declaration order. Throws Error(Internal)
// when a declared kernel is not an entry of the workload's PTX.
std::vector<KernelResources> kernel_resources(const Workload& workload);

// Occupancy of one kernel's CTAs on an SM configured by `config`, with the
// register count admission uses there (admission_regs).
models::OccupancyLimits occupancy_on(const Config& config, const KernelResources& kernel);

}  // namespace simtlm::workloads
