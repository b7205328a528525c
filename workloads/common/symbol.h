// Host access to a loaded module's .global/.const variables (the counterpart
// of cudaMemcpyToSymbol): the runtime places them in device memory when the
// module is loaded; this looks the address up by name so a driver can fill a
// __constant__ array (e.g. a chunk of input streamed through constant memory).
#pragma once

#include <string>

#include "runtime/device_impl.h"
#include "simtlm/device.h"
#include "simtlm/error.h"

namespace simtlm::workloads {

struct SymbolInfo {
  DevicePtr ptr = 0;
  uint64_t bytes = 0;
};

// Throws Error(Launch) when `module` has no .global/.const variable `name`.
inline SymbolInfo module_symbol(Device& dev, ModuleHandle module, const std::string& name) {
  const LoadedModule& loaded = dev.impl().module(module);
  for (size_t i = 0; i < loaded.module->vars.size(); ++i) {
    const ir::Variable& v = loaded.module->vars[i];
    if (v.name == name && i < loaded.var_addresses.size() && loaded.var_addresses[i] != 0)
      return {DevicePtr(loaded.var_addresses[i]), v.size};
  }
  throw Error(ErrorKind::Launch, "module has no .global/.const variable '" + name + "'");
}

}  // namespace simtlm::workloads
