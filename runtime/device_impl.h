// The Device's state: options, the front-end pass pipeline, device global
// memory, loaded modules (with the device addresses of their .global/.const
// variables) and their kernel variants, the execution backend and the launch
// history. Exposed (through Device::impl()) to backends and
// testbenches that need the memory or the parsed modules directly.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/pipeline.h"
#include "functional/memory.h"
#include "runtime/backend.h"
#include "simtlm/device.h"

namespace simtlm {

struct LoadedModule {
  std::unique_ptr<ir::Module> module;
  // Device address of every .global/.const variable, indexed like
  // Module::vars (0 for variables in other spaces): LaunchRequest::var_addresses.
  std::vector<uint64_t> var_addresses;
};

class DeviceImpl {
 public:
  explicit DeviceImpl(DeviceOptions options);

  const DeviceOptions& options() const { return options_; }
  functional::GlobalMemory& memory() { return memory_; }
  const functional::GlobalMemory& memory() const { return memory_; }
  runtime::LaunchBackend& backend() { return *backend_; }
  const runtime::LaunchBackend& backend() const { return *backend_; }
  // The pipeline modules are loaded with (from the configuration's
  // frontend.passes; the built-in passes when DeviceOptions::config is null).
  const frontend::PassPipeline& pipeline() const { return pipeline_; }

  // Takes a parsed module, places its .global/.const variables in device
  // memory (with initialisers) and returns its handle.
  ModuleHandle add_module(std::unique_ptr<ir::Module> module);
  // Throws Error(Launch) for a handle that load_module_* did not return.
  const LoadedModule& module(ModuleHandle handle) const;
  // The module a launch of `handle` with `block` runs: the loaded one, or,
  // when an enabled pass needs the launch shape, its variant for that block
  // shape and dynamic shared bytes (made on first use, then reused; the
  // pipeline's options are fixed for the device, so (module, block shape,
  // dynamic shared bytes) keys the cache).
  const ir::Module& module_for_launch(ModuleHandle handle, const Dim3& block, uint32_t dynamic_shared_bytes = 0);
  size_t variants_made() const { return variants_.size(); }

  LaunchStats launch(ModuleHandle handle, const std::string& kernel, const LaunchConfig& config,
                     const KernelArgs& args);

  const std::vector<LaunchStats>& history() const { return history_; }

 private:
  DeviceOptions options_;
  frontend::PassPipeline pipeline_;
  functional::GlobalMemory memory_;
  std::unique_ptr<runtime::LaunchBackend> backend_;
  std::vector<LoadedModule> modules_;  // handle h is modules_[h - 1]
  std::map<std::tuple<ModuleHandle, uint32_t, uint32_t, uint32_t, uint32_t>, std::unique_ptr<ir::Module>> variants_;
  std::vector<LaunchStats> history_;
  uint32_t next_grid_id_ = 1;
  uint64_t printf_capacity_;  // sim.printf_buffer_bytes
};

}  // namespace simtlm
