// What the two launch drivers of the functional backend share: the GPU's one
// CTA at a time (launch.cpp) and the SPU's all CTAs together (spu/spu_launch.cpp).
#pragma once

#include <cstdint>

#include "functional/cta.h"
#include "functional/executor.h"

namespace simtlm::functional::detail {

// Hears every instruction a CTA's warp executed (SPU launches: the interface
// units' capability check and the off-chip access count); may throw to end
// the launch. The GPU's one-CTA-at-a-time driver has none.
class IssueObserver {
 public:
  virtual ~IssueObserver() = default;
  virtual void executed(const ExecRecord& record, const Warp& warp, const Cta& cta, const LaunchContext& ctx) = 0;
};

// Runs the CTA's warps round-robin, each up to a quantum of instructions,
// until none can issue (all finished or waiting). Returns whether any
// instruction ran. `budget`: warp instructions the launch may still run
// (sim.max_instructions = `limit`); Error(Launch) when it runs out.
bool run_until_blocked(Cta& cta, const LaunchContext& ctx, uint64_t& budget, uint64_t limit,
                       IssueObserver* observer = nullptr);

}  // namespace simtlm::functional::detail
