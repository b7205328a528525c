#include "models/sm/resources.h"

#include "functional/executor.h"

namespace simtlm::models {

CtaShape CtaShape::of(const functional::LaunchContext& ctx) {
  CtaShape s;
  s.threads = ctx.threads_per_cta();
  s.warps = ctx.warps_per_cta();
  s.warp_size = ctx.warp_size();
  s.regs_per_thread = ctx.kernel().analysis.regs_per_thread;
  s.shared_bytes = ctx.shared_bytes();
  s.local_bytes = ctx.local_bytes();
  return s;
}

}  // namespace simtlm::models
