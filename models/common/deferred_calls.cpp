// sc_spawn and sc_bind (the dynamic-process API).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/common/deferred_calls.h"

#include <map>
#include <memory>
#include <utility>

namespace simtlm::models {

DeferredCalls& DeferredCalls::instance() {
  // One queue per simulation context (tests may build a fresh context); the
  // queues live as long as the process, like the kernel objects they use.
  static std::map<const sc_core::sc_simcontext*, std::unique_ptr<DeferredCalls>> queues;
  std::unique_ptr<DeferredCalls>& q = queues[sc_core::sc_get_curr_simcontext()];
  if (!q) q.reset(new DeferredCalls());
  return *q;
}

DeferredCalls::DeferredCalls() : wake_(sc_core::sc_gen_unique_name("simtlm_deferred_calls_event")) {
  sc_core::sc_spawn_options options;
  options.spawn_method();
  options.set_sensitivity(&wake_);
  options.dont_initialize();
  sc_core::sc_spawn(sc_bind(&DeferredCalls::run, this), sc_core::sc_gen_unique_name("simtlm_deferred_calls"),
                    &options);
}

void DeferredCalls::run() {
  running_.swap(queue_);
  for (const Call& c : running_) c.callback(c.owner, *c.trans, c.phase);
  running_.clear();
}

}  // namespace simtlm::models
