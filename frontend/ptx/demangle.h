// Readable names of kernels: nvcc gives every __global__ function that is not
// extern "C" its Itanium C++ ABI mangled name (_Z14dynproc_kerneliPiS_S_iiii),
// which is what PTX, the launch API and stats.json use; people read
// dynproc_kernel(int, int*, int*, int*, int, int, int, int).
#pragma once

#include <string>

namespace simtlm::frontend::ptx {

// The demangled signature of a mangled name (the C++ runtime's demangler,
// abi::__cxa_demangle); "" when `name` is not a mangled C++ name.
std::string demangle(const std::string& name);

// A short display name: the demangled function name without its parameter
// list (template arguments and namespaces kept), or `name` itself when it is
// not mangled.
std::string short_kernel_name(const std::string& name);

}  // namespace simtlm::frontend::ptx
