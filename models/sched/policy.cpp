#include "models/sched/policy.h"

#include "models/sched/gto.h"
#include "models/sched/lrr.h"
#include "models/sched/two_level.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

const char* to_string(StallKind kind) {
  switch (kind) {
    case StallKind::Fetch: return "fetch";
    case StallKind::Barrier: return "barrier";
    case StallKind::Scoreboard: return "scoreboard";
    case StallKind::LongLatency: return "long-latency";
    case StallKind::Pipeline: return "pipeline";
    case StallKind::Memory: return "memory";
    case StallKind::Throttled: return "throttled";
  }
  return "?";
}

std::unique_ptr<Policy> make_policy(const PolicyParams& params) {
  if (params.schedulers == 0) throw Error(ErrorKind::Config, "warp scheduler: at least one scheduler is needed");
  if (params.name == "lrr") return std::make_unique<LrrPolicy>(params);
  if (params.name == "gto") return std::make_unique<GtoPolicy>(params);
  if (params.name == "two_level") return std::make_unique<TwoLevelPolicy>(params);
  throw Error(ErrorKind::Config, "gpu.sm.scheduler.policy '" + params.name +
                                     "' is not implemented yet (available: lrr, gto, two_level)");
}

}  // namespace simtlm::models::sched
