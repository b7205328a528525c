// The front-end pass pipeline. Passes are registered by name in a
// PassRegistry, each declaring which passes must run before it; the pipeline
// runs the enabled ones in that order with their PassOptions.
//
// Two stages. Load-time passes run once when a module is loaded (the
// built-in inline_calls -> layout_memory -> analyze, and any pass that does
// not need the launch). A pass that declares needs_launch_shape, and every
// pass ordered after one, runs per kernel variant: the runtime copies the
// loaded module, runs those passes for the launch's block shape and caches
// the copy per (module, block shape, dynamic shared bytes) (runtime/device_impl.h). Among passes
// free to run, load-time ones go first, so the split is as early as the
// declared order allows.
//
// Adding a pass: register a PassInfo in PassRegistry::global() before the
// device loads modules, declare `after` (usually {"analyze"}, to read
// FunctionAnalysis::analyses) and its option keys; enable it with the
// configuration key frontend.passes ("name.enabled=true; name.key=value").
// A pass that changes instructions after analyze must run analysis::analyze
// again; a launch-shape pass must not remove variables nor add any but
// per-thread .local ones (the variant shares the loaded module's device
// addresses).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/pass_options.h"

namespace simtlm::frontend {

// The block shape (and dynamic shared memory) a kernel variant is made for.
struct LaunchShape {
  uint32_t block[3] = {1, 1, 1};
  // The launch's dynamic shared memory per CTA: a pass that places data
  // above the kernel's own shared memory needs it (unified_alloc_shared).
  uint32_t dynamic_shared_bytes = 0;
  uint32_t threads() const { return block[0] * block[1] * block[2]; }
};

// What a pass sees when it runs.
struct PassContext {
  ir::Module& module;
  const PassParams& params;         // this pass's options
  const LaunchShape* launch;        // the variant's shape; nullptr for load-time passes
};

struct PassInfo {
  std::string name;
  std::string description;                 // one line, for messages and docs
  std::vector<std::string> after;          // passes that must run before this one
  std::vector<std::string> option_keys;    // accepted parameters besides "enabled"
  bool enabled_by_default = true;
  bool required = false;                   // may not be switched off (loading steps)
  bool needs_launch_shape = false;         // runs per kernel variant
  std::function<void(PassContext&)> run;
};

class PassRegistry {
 public:
  // The registry the runtime uses: the built-in passes plus any added since.
  static PassRegistry& global();
  // An empty registry (tests); add_builtin_passes() fills in the built-ins.
  PassRegistry() = default;

  // Error(Internal) for an empty or duplicate name or a pass without `run`.
  void add(PassInfo info);
  const PassInfo* find(const std::string& name) const;
  std::vector<std::string> names() const;  // sorted

  // Every pass in run order: after the passes it names in `after`; among
  // passes free to run, load-time passes first, then by name. Error(Internal)
  // naming the pass for an unknown `after` name or a cycle.
  std::vector<const PassInfo*> ordered() const;

 private:
  std::vector<std::unique_ptr<PassInfo>> passes_;
};

// inline_calls, layout_memory and analyze (required, in that order), and the
// passes of mechanisms (off by default): relssp, reorder_registers, power_states.
void add_builtin_passes(PassRegistry& registry);

class PassPipeline {
 public:
  // Checks `options` against `registry` and fixes the order. Error(Config)
  // "<options origin>: ..." for an unknown pass (listing the registered
  // ones), an option the pass does not declare, a required pass switched off
  // or a malformed "enabled".
  PassPipeline(const PassRegistry& registry, PassOptions options);
  // The global registry with no options (the built-in loading steps).
  static PassPipeline standard();

  void run_load_passes(ir::Module& module) const;
  // True when some enabled pass needs the launch shape.
  bool needs_launch_shape() const { return !launch_.empty(); }
  // A copy of a loaded module with the launch-stage passes run for `shape`.
  std::unique_ptr<ir::Module> make_variant(const ir::Module& loaded, const LaunchShape& shape) const;

  const PassOptions& options() const { return options_; }
  std::vector<std::string> load_pass_names() const;
  std::vector<std::string> launch_pass_names() const;

 private:
  void run(const PassInfo& pass, ir::Module& module, const LaunchShape* shape) const;
  PassOptions options_;
  std::vector<PassInfo> load_, launch_;  // copies: the pipeline outlives no registry
};

}  // namespace simtlm::frontend
