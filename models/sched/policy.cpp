#include "models/sched/policy.h"

#include "models/sched/ccws.h"
#include "models/sched/daws.h"
#include "models/sched/gto.h"
#include "models/sched/lrr.h"
#include "models/sched/owf.h"
#include "models/sched/swl.h"
#include "models/sched/two_level.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

const char* to_string(SharingClass c) {
  switch (c) {
    case SharingClass::Owner: return "owner";
    case SharingClass::Unshared: return "unshared";
    case SharingClass::NonOwner: return "non-owner";
  }
  return "?";
}

const char* to_string(StallKind kind) {
  switch (kind) {
    case StallKind::Fetch: return "fetch";
    case StallKind::Barrier: return "barrier";
    case StallKind::Scoreboard: return "scoreboard";
    case StallKind::LongLatency: return "long-latency";
    case StallKind::Pipeline: return "pipeline";
    case StallKind::Memory: return "memory";
    case StallKind::Throttled: return "throttled";
    case StallKind::WakeUp: return "wake_up";
  }
  return "?";
}

PolicyRegistry& policies() {
  static PolicyRegistry registry = [] {
    PolicyRegistry r("gpu.sm.scheduler.policy");
    r.add("lrr", [](const PolicyParams& p) { return std::make_unique<LrrPolicy>(p); });
    r.add("gto", [](const PolicyParams& p) { return std::make_unique<GtoPolicy>(p); });
    r.add("two_level", [](const PolicyParams& p) { return std::make_unique<TwoLevelPolicy>(p); });
    r.add("owf", [](const PolicyParams& p) { return std::make_unique<OwfPolicy>(p); });
    r.add("swl", [](const PolicyParams& p) { return std::make_unique<SwlPolicy>(p); });
    r.add("ccws", [](const PolicyParams& p) { return std::make_unique<CcwsPolicy>(p); });
    r.add("daws", [](const PolicyParams& p) { return std::make_unique<DawsPolicy>(p); });
    return r;
  }();
  return registry;
}

std::unique_ptr<Policy> make_policy(const PolicyParams& params) {
  if (params.schedulers == 0) throw Error(ErrorKind::Config, "warp scheduler: at least one scheduler is needed");
  return policies().make(params.name, params);
}

}  // namespace simtlm::models::sched
