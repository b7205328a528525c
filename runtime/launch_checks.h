// Pre-launch checks of the Device API, kept apart from the device so they can
// be read (and tested) as the list of rules a launch must satisfy. Every
// failure is Error(Launch) whose message names the kernel and the offending
// parameter, dimension or limit with the numbers involved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "simtlm/device.h"

namespace simtlm::runtime {

// The kernel `name` of `module`; otherwise an error listing the module's kernels.
const ir::Function& find_kernel(const ir::Module& module, const std::string& name);

// Byte size of a kernel parameter (arrays: the whole array).
uint64_t param_size(const ir::Variable& param);
// ".u64", ".b8[16]": the parameter's declared type as PTX spells it.
std::string param_type_text(const ir::Variable& param);

// Checks argument count and sizes against the kernel's .param list and lays
// the arguments out at their .param offsets (Function::param_bytes bytes).
std::vector<uint8_t> pack_params(const ir::Module& module, const ir::Function& kernel,
                                 const KernelArgs& args);

// CUDA's limit on local memory per thread (compute capability 2.0 and later).
inline constexpr uint64_t kMaxLocalBytesPerThread = 512 * 1024;

// Block (1..max threads, .reqntid/.maxntid), grid (1..max per dimension),
// shared memory (static + dynamic <= max per CTA) and local memory
// (<= kMaxLocalBytesPerThread) limits.
void check_launch_config(const ir::Function& kernel, const LaunchConfig& config,
                         const DeviceOptions& options);

// "32x8x1"
std::string dims_text(const Dim3& d);

}  // namespace simtlm::runtime
