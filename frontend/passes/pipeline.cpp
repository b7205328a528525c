// Pass registry and pipeline (see pipeline.h).
#include "frontend/passes/pipeline.h"

#include <algorithm>
#include <map>
#include <set>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/inline_calls.h"
#include "frontend/passes/layout_memory.h"
#include "frontend/passes/reorder_registers.h"
#include "frontend/passes/relssp_placement.h"
#include "frontend/passes/power_states_pass.h"
#include "frontend/passes/unified_alloc.h"
#include "simtlm/error.h"

namespace simtlm::frontend {

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

PassRegistry& PassRegistry::global() {
  static PassRegistry* registry = [] {
    auto* r = new PassRegistry();
    add_builtin_passes(*r);
    return r;
  }();
  return *registry;
}

void PassRegistry::add(PassInfo info) {
  if (info.name.empty()) throw Error(ErrorKind::Internal, "a front-end pass needs a name");
  if (find(info.name)) throw Error(ErrorKind::Internal, "front-end pass '" + info.name + "' is registered twice");
  if (!info.run) throw Error(ErrorKind::Internal, "front-end pass '" + info.name + "' has nothing to run");
  passes_.push_back(std::make_unique<PassInfo>(std::move(info)));
}

const PassInfo* PassRegistry::find(const std::string& name) const {
  for (const auto& p : passes_)
    if (p->name == name) return p.get();
  return nullptr;
}

std::vector<std::string> PassRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& p : passes_) out.push_back(p->name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<const PassInfo*> PassRegistry::ordered() const {
  // Kahn's algorithm; the ready set is ordered by (needs launch, name) so the
  // result does not depend on registration order.
  std::map<std::string, const PassInfo*> by_name;
  for (const auto& p : passes_) by_name[p->name] = p.get();
  std::map<std::string, size_t> waiting;                  // unmet `after` count
  std::map<std::string, std::vector<std::string>> users;  // pass -> passes after it
  for (const auto& p : passes_) {
    for (const std::string& before : p->after) {
      if (!by_name.count(before))
        throw Error(ErrorKind::Internal, "front-end pass '" + p->name + "' runs after unknown pass '" + before + "'");
      users[before].push_back(p->name);
    }
    waiting[p->name] = std::set<std::string>(p->after.begin(), p->after.end()).size();
  }
  using Key = std::pair<bool, std::string>;
  std::set<Key> ready;
  for (const auto& [name, n] : waiting)
    if (n == 0) ready.insert({by_name[name]->needs_launch_shape, name});
  std::vector<const PassInfo*> out;
  while (!ready.empty()) {
    const std::string name = ready.begin()->second;
    ready.erase(ready.begin());
    out.push_back(by_name[name]);
    std::set<std::string> done;  // a pass named twice in `after` counts once
    for (const std::string& user : users[name]) {
      if (!done.insert(user).second) continue;
      if (--waiting[user] == 0) ready.insert({by_name[user]->needs_launch_shape, user});
    }
  }
  if (out.size() != passes_.size()) {
    std::vector<std::string> stuck;
    for (const auto& [name, n] : waiting)
      if (n != 0) stuck.push_back(name);
    throw Error(ErrorKind::Internal, "front-end passes ordered in a cycle: " + join(stuck));
  }
  return out;
}

void add_builtin_passes(PassRegistry& registry) {
  PassInfo inl;
  inl.name = "inline_calls";
  inl.description = "inline every call to a .func (the analyses and backends see call-free kernels)";
  inl.required = true;
  inl.run = [](PassContext& c) { passes::inline_calls(c.module); };
  registry.add(std::move(inl));

  PassInfo layout;
  layout.name = "layout_memory";
  layout.description = "offsets of shared, local and parameter variables";
  layout.after = {"inline_calls"};
  layout.required = true;
  layout.run = [](PassContext& c) { passes::layout_memory(c.module); };
  registry.add(std::move(layout));

  PassInfo analyze;
  analyze.name = "analyze";
  analyze.description = "CFG, reconvergence points, loops, liveness, register allocation";
  analyze.after = {"layout_memory"};
  analyze.required = true;
  analyze.run = [](PassContext& c) { analysis::analyze(c.module); };
  registry.add(std::move(analyze));

  passes::register_relssp_pass(registry);  // off unless frontend.relssp.placement asks for it
  // Off by default (gpu.sm.regfile.sharing_reorder). After relssp, which
  // analyses again (analyze clears the numbering reorder_registers sets).
  registry.add(passes::reorder_registers_pass());
  passes::add_power_states_pass(registry);  // GREENER (off by default)
  passes::add_unified_alloc_pass(registry);  // Hayes & Zhang (off unless frontend.unified_alloc.mode asks)
}

PassPipeline::PassPipeline(const PassRegistry& registry, PassOptions options) : options_(std::move(options)) {
  const std::string& origin = options_.origin();
  for (const auto& [name, params] : options_.passes()) {
    const PassInfo* pass = registry.find(name);
    if (!pass) {
      throw Error(ErrorKind::Config, origin + ": unknown front-end pass '" + name + "' (registered: " +
                                         join(registry.names()) + ")");
    }
    for (const auto& [key, value] : params.values()) {
      if (key == "enabled") continue;
      if (std::find(pass->option_keys.begin(), pass->option_keys.end(), key) == pass->option_keys.end()) {
        throw Error(ErrorKind::Config, origin + ": front-end pass '" + name + "' has no option '" + key + "'" +
                                           (pass->option_keys.empty() ? std::string(" (it takes none)")
                                                                      : " (options: " + join(pass->option_keys) + ")"));
      }
    }
    if (pass->required && !params.flag("enabled", true))
      throw Error(ErrorKind::Config, origin + ": front-end pass '" + name + "' is required and cannot be disabled");
  }
  bool launch_stage = false;
  for (const PassInfo* pass : registry.ordered()) {
    if (!options_.params(pass->name).flag("enabled", pass->enabled_by_default)) continue;
    launch_stage = launch_stage || pass->needs_launch_shape;
    (launch_stage ? launch_ : load_).push_back(*pass);
  }
}

PassPipeline PassPipeline::standard() { return PassPipeline(PassRegistry::global(), PassOptions()); }

void PassPipeline::run(const PassInfo& pass, ir::Module& module, const LaunchShape* shape) const {
  PassContext context{module, options_.params(pass.name), shape};
  pass.run(context);
}

void PassPipeline::run_load_passes(ir::Module& module) const {
  for (const PassInfo& pass : load_) run(pass, module, nullptr);
}

std::unique_ptr<ir::Module> PassPipeline::make_variant(const ir::Module& loaded, const LaunchShape& shape) const {
  auto variant = std::make_unique<ir::Module>(loaded);
  for (const PassInfo& pass : launch_) run(pass, *variant, &shape);
  // Variables with device addresses (and functions) are the loaded module's;
  // per-thread .local variables (no address) may be appended.
  bool same = variant->vars.size() >= loaded.vars.size() && variant->functions.size() == loaded.functions.size();
  for (size_t v = loaded.vars.size(); same && v < variant->vars.size(); ++v)
    same = variant->vars[v].space == ir::StateSpace::Local;
  if (!same) {
    throw Error(ErrorKind::Internal, "a launch-shape pass of module '" + loaded.file +
                                         "' removed variables or functions, or added some other than .local");
  }
  return variant;
}

std::vector<std::string> PassPipeline::load_pass_names() const {
  std::vector<std::string> out;
  for (const PassInfo& p : load_) out.push_back(p.name);
  return out;
}

std::vector<std::string> PassPipeline::launch_pass_names() const {
  std::vector<std::string> out;
  for (const PassInfo& p : launch_) out.push_back(p.name);
  return out;
}

}  // namespace simtlm::frontend
