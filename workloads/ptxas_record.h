// ptxas's resource use of a workload's kernels (sm_75), as recorded in
// workloads/<name>/ptxas.txt by scripts/regen_ptx.sh and embedded in the
// binary. Shown beside our own register allocation by `simtlm list --details`
// and docs/register-allocation.md; the register counts are what CTA admission
// uses when gpu.sm.register_count_source = ptxas (recorded_register_counts()).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "simtlm/device.h"

namespace simtlm::workloads {

struct PtxasKernel {
  uint32_t registers = 0;
  uint32_t smem_bytes = 0;
  uint32_t spill_store_bytes = 0;
  uint32_t spill_load_bytes = 0;
};

// Kernel name -> ptxas figures from a ptxas.txt text ('#' lines are comments;
// each other line: "kernel registers smem spill_stores spill_loads").
// Throws Error(Internal) naming the line when a line does not parse.
std::map<std::string, PtxasKernel> parse_ptxas_record(const std::string& text);

// The embedded record of workload PTX module `ptx_name` (empty map if none).
std::map<std::string, PtxasKernel> ptxas_record(const std::string& ptx_name);

// DeviceOptions::known_register_counts for the built-in workloads: the
// recorded count of a kernel of module "<ptx_name>.ptx" (the name the drivers
// load their embedded PTX under).
RegisterCountLookup recorded_register_counts();

}  // namespace simtlm::workloads
