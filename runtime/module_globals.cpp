#include "runtime/module_globals.h"

#include <cstring>
#include <string>

#include "simtlm/error.h"

namespace simtlm::runtime {

namespace {

bool is_device_variable(const ir::Variable& v) {
  return (v.space == ir::StateSpace::Global || v.space == ir::StateSpace::Const) &&
         !v.is_kernel_param && !v.is_func_param;
}

std::string where(const ir::Module& module, const ir::Variable& v) {
  return module.file + ":" + std::to_string(v.loc.line) + ":" + std::to_string(v.loc.column);
}

void fill_variable(const ir::Module& module, const ir::Variable& var, uint64_t addr,
                   const std::vector<uint64_t>& addresses, functional::GlobalMemory& memory) {
  if (var.size == 0) return;
  std::vector<uint8_t> bytes(var.size, 0);
  std::memcpy(bytes.data(), var.init.data(), std::min<size_t>(var.init.size(), bytes.size()));
  const unsigned ptr_bytes = module.address_size == 32 ? 4 : 8;
  for (auto [offset, target] : var.address_inits) {
    if (target >= module.vars.size() || addresses[target] == 0)
      throw Error(ErrorKind::Ptx,
                  where(module, var) + ": error: initialiser of '" + var.name +
                      "' takes the address of " +
                      (target < module.vars.size() ? "'" + module.vars[target].name + "'"
                                                   : std::string("an unknown variable")) +
                      ", which is not a .global or .const variable");
    if (offset + ptr_bytes > bytes.size())
      throw Error(ErrorKind::Ptx, where(module, var) + ": error: address initialiser at byte " +
                                      std::to_string(offset) + " lies outside '" + var.name +
                                      "' (" + std::to_string(var.size) + " bytes)");
    uint64_t value = 0;
    std::memcpy(&value, bytes.data() + offset, ptr_bytes);  // little-endian addend
    value += addresses[target];
    std::memcpy(bytes.data() + offset, &value, ptr_bytes);
  }
  memory.write(addr, bytes.data(), bytes.size());
}

}  // namespace

std::vector<uint64_t> place_module_variables(const ir::Module& module,
                                             functional::GlobalMemory& memory) {
  std::vector<uint64_t> addresses(module.vars.size(), 0);
  try {
    // Addresses first: initialisers may refer to variables declared later.
    for (size_t i = 0; i < module.vars.size(); ++i)
      if (is_device_variable(module.vars[i])) addresses[i] = memory.allocate(module.vars[i].size);
    for (size_t i = 0; i < module.vars.size(); ++i)
      if (addresses[i]) fill_variable(module, module.vars[i], addresses[i], addresses, memory);
  } catch (...) {
    for (uint64_t addr : addresses)
      if (addr) memory.release(addr);
    throw;
  }
  return addresses;
}

}  // namespace simtlm::runtime
