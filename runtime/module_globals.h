// Places a module's .global and .const variables in device memory.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir/module.h"
#include "functional/memory.h"

namespace simtlm::runtime {

// Allocates every .global/.const variable of `module`, copies its initialiser
// and resolves initialisers that hold the address of another variable (the
// bytes already present at that offset are an addend). Returns the addresses
// indexed like Module::vars (0 for other spaces). On error nothing stays
// allocated; a bad address initialiser is Error(Ptx) naming file:line:column.
std::vector<uint64_t> place_module_variables(const ir::Module& module,
                                             functional::GlobalMemory& memory);

}  // namespace simtlm::runtime
