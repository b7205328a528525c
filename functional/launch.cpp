// The timing-free backend: runs every CTA of a launch to completion, one CTA
// at a time in linearised CTA-id order (an SPU kernel: all together,
// spu/spu_launch.h). Within a CTA the warps run round-
// robin, each for up to kQuantum instructions or until it waits at a barrier
// or finishes, so the result is deterministic and spin-waits between warps
// of a CTA make progress.
#include "functional/launch.h"

#include "functional/cta.h"
#include "functional/executor.h"
#include "functional/launch_internal.h"
#include "functional/spu/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace detail {

constexpr unsigned kQuantum = 1024;

bool run_until_blocked(Cta& cta, const LaunchContext& ctx, uint64_t& budget, uint64_t limit,
                       IssueObserver* observer) {
  std::vector<Warp>& warps = cta.warps();
  bool any = false;
  for (;;) {
    bool progress = false;
    for (Warp& warp : warps) {
      if (!warp.can_issue()) continue;
      progress = true;
      for (unsigned q = 0; q < kQuantum && warp.can_issue(); ++q) {
        if (budget == 0) {
          const Dim3u& id = cta.id();
          throw Error(ErrorKind::Launch, "kernel '" + ctx.kernel().name + "' stopped at sim.max_instructions = " +
                                             std::to_string(limit) + " warp instructions (functional backend; in CTA (" +
                                             std::to_string(id.x) + "," + std::to_string(id.y) + "," +
                                             std::to_string(id.z) + "))");
        }
        --budget;
        const ExecRecord& record = execute(warp, cta, ctx);
        if (observer) observer->executed(record, warp, cta, ctx);
      }
    }
    if (!progress) return any;
    any = true;
  }
}

}  // namespace detail

namespace {

void run_cta(Cta& cta, const LaunchContext& ctx, uint64_t& budget, uint64_t limit) {
  while (!cta.finished()) {
    if (!detail::run_until_blocked(cta, ctx, budget, limit)) {
      const Dim3u& id = cta.id();
      throw Error(ErrorKind::Deadlock, "deadlock in kernel '" + ctx.kernel().name + "', CTA (" +
                                           std::to_string(id.x) + "," + std::to_string(id.y) + "," +
                                           std::to_string(id.z) +
                                           "): no warp can make progress" + cta.describe_waiting(ctx));
    }
  }
}

}  // namespace

LaunchCounters run_launch(const LaunchRequest& request, GlobalMemory& memory, const CtaDoneCallback& on_cta_done) {
  LaunchContext ctx(request, memory);
  if (request.spu_grid_size != 0 && spu::uses_spu_instructions(*request.kernel))
    return spu::run_spu_launch(ctx, request, on_cta_done);
  LaunchCounters counters;
  uint64_t budget = request.max_warp_instructions != 0 ? request.max_warp_instructions : ~0ull;
  for (uint64_t id = 0; id < ctx.num_ctas(); ++id) {
    Cta cta(ctx, id);
    run_cta(cta, ctx, budget, request.max_warp_instructions);
    ++counters.ctas;
    for (const Warp& w : cta.warps()) {
      counters.warp_instructions += w.instructions();
      counters.thread_instructions += w.thread_instructions();
      counters.offchip_accesses += w.offchip_accesses();
    }
    if (on_cta_done) on_cta_done(counters, ctx.num_ctas());
  }
  return counters;
}

}  // namespace simtlm::functional
