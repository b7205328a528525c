// The occupancy report of `simtlm occupancy` and `simtlm ptx --occupancy`:
// baseline resident CTAs per SM with the limiting resource, and what
// register sharing and scratchpad sharing (Jatala, models/sm/sharing_occupancy.h)
// would launch, as text or as one JSON object.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "frontend/ir/module.h"
#include "models/sm/sharing_occupancy.h"
#include "simtlm/config.h"

namespace simtlm::cli {

// {"cta": {...}, "baseline": {"ctas", "limiter", "by_*"}, "register_sharing":
//  {"enabled", "ctas", "pairs", "unshared", "threshold", "units_per_cta",
//   "storage_bits_per_sm"}, "scratchpad_sharing": {...}}
nlohmann::ordered_json occupancy_json(const models::SmParams& params, const models::CtaShape& shape,
                                      const models::OccupancyReport& report);

// The same as readable lines, each indented by `indent`.
void print_occupancy_report(std::ostream& out, const models::SmParams& params, const models::CtaShape& shape,
                            const models::OccupancyReport& report, const std::string& indent = "");

// `simtlm ptx FILE --occupancy --threads T`: the report for every kernel of
// `module` (or only `kernel`), with our allocator's registers per thread and
// the kernel's static shared memory, on the SM of `config`.
void print_ptx_occupancy(std::ostream& out, const ir::Module& module, const std::string& kernel,
                         const Config& config, uint32_t threads, bool json);

}  // namespace simtlm::cli
