#include "runtime/launch_checks.h"

#include <cstring>

#include "frontend/ir/types.h"
#include "simtlm/error.h"

namespace simtlm::runtime {

namespace {

[[noreturn]] void fail(const std::string& message) { throw Error(ErrorKind::Launch, message); }

std::string kernel_text(const ir::Function& kernel) { return "kernel '" + kernel.name + "'"; }

std::string dims_text3(const uint32_t d[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

uint64_t product(const uint32_t d[3]) {
  uint64_t n = 1;
  for (int i = 0; i < 3; ++i) n *= d[i] ? d[i] : 1;
  return n;
}

}  // namespace

std::string dims_text(const Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

const ir::Function& find_kernel(const ir::Module& module, const std::string& name) {
  if (const ir::Function* f = module.find_kernel(name)) {
    // A kernel the front end rejected while keeping the module's others.
    if (!f->rejected.empty()) throw Error(ErrorKind::Ptx, f->rejected);
    return *f;
  }
  std::string kernels;
  for (const ir::Function& f : module.functions) {
    if (!f.is_entry) continue;
    kernels += (kernels.empty() ? "" : ", ") + f.name;
  }
  std::string msg = "unknown kernel '" + name + "' in module '" + module.file + "'";
  auto it = module.function_index.find(name);
  if (it != module.function_index.end()) msg += " ('" + name + "' is a .func, not a .entry)";
  msg += kernels.empty() ? "; the module has no kernels" : "; its kernels are: " + kernels;
  fail(msg);
}

uint64_t param_size(const ir::Variable& param) {
  return param.size ? param.size : ir::type_size(param.type);
}

std::string param_type_text(const ir::Variable& param) {
  std::string text = "." + std::string(ir::type_name(param.type));
  unsigned elem = ir::type_size(param.type);
  if (elem && param.size > elem) text += "[" + std::to_string(param.size / elem) + "]";
  return text;
}

std::vector<uint8_t> pack_params(const ir::Module& module, const ir::Function& kernel,
                                 const KernelArgs& args) {
  if (args.size() != kernel.params.size())
    fail(kernel_text(kernel) + " takes " + std::to_string(kernel.params.size()) +
         " argument(s), got " + std::to_string(args.size()));
  std::vector<uint8_t> buffer(kernel.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::Variable& param = module.vars.at(kernel.params[i]);
    const std::vector<uint8_t>& bytes = args.args()[i];
    uint64_t expected = param_size(param);
    if (bytes.size() != expected)
      fail(kernel_text(kernel) + " argument " + std::to_string(i) + " ('" + param.name + "', " +
           param_type_text(param) + "): expected " + std::to_string(expected) +
           " bytes, got " + std::to_string(bytes.size()));
    if (param.param_offset + expected > buffer.size())
      throw Error(ErrorKind::Internal, kernel_text(kernel) + " parameter '" + param.name +
                                           "' lies outside the parameter buffer (offset " +
                                           std::to_string(param.param_offset) + ", buffer " +
                                           std::to_string(buffer.size()) + " bytes)");
    if (!bytes.empty()) std::memcpy(buffer.data() + param.param_offset, bytes.data(), bytes.size());
  }
  return buffer;
}

void check_launch_config(const ir::Function& kernel, const LaunchConfig& config,
                         const DeviceOptions& options) {
  const Dim3& b = config.block;
  const Dim3& g = config.grid;
  const std::string k = kernel_text(kernel);
  if (b.x == 0 || b.y == 0 || b.z == 0)
    fail(k + ": block dimensions must be at least 1, got " + dims_text(b));
  if (b.count() > options.max_threads_per_cta)
    fail(k + ": block " + dims_text(b) + " has " + std::to_string(b.count()) +
         " threads, more than the limit of " + std::to_string(options.max_threads_per_cta) +
         " threads per CTA");
  if (kernel.reqntid[0] != 0) {
    Dim3 req(kernel.reqntid[0], kernel.reqntid[1] ? kernel.reqntid[1] : 1,
             kernel.reqntid[2] ? kernel.reqntid[2] : 1);
    if (req.x != b.x || req.y != b.y || req.z != b.z)
      fail(k + " declares .reqntid " + dims_text(req) + " but is launched with block " +
           dims_text(b));
  }
  if (kernel.maxntid[0] != 0) {
    if (b.count() > product(kernel.maxntid))
      fail(k + " declares .maxntid " + dims_text3(kernel.maxntid) + " (" +
           std::to_string(product(kernel.maxntid)) + " threads) but is launched with block " +
           dims_text(b) + " (" + std::to_string(b.count()) + " threads)");
  }
  const uint32_t grid[3] = {g.x, g.y, g.z};
  const char* axis = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0) fail(k + ": grid dimensions must be at least 1, got " + dims_text(g));
    if (grid[i] > options.max_grid_dim[i])
      fail(k + ": grid dimension " + axis[i] + " = " + std::to_string(grid[i]) +
           " exceeds the limit of " + std::to_string(options.max_grid_dim[i]));
  }
  // CUDA's limit on a thread's local memory (512 KB from compute capability
  // 2.0 on). The local frame is host memory per resident thread: a kernel
  // declaring gigabytes ended in std::bad_alloc before this check.
  if (kernel.local_bytes > kMaxLocalBytesPerThread)
    fail(k + " needs " + std::to_string(kernel.local_bytes) + " bytes of local memory per thread, more than "
         "CUDA's limit of " + std::to_string(kMaxLocalBytesPerThread) + " bytes (512 KB)");
  uint64_t shared = kernel.static_shared_bytes + uint64_t(config.dynamic_shared_bytes);
  if (shared > options.max_shared_bytes_per_cta)
    fail(k + " needs " + std::to_string(kernel.static_shared_bytes) + " bytes of static + " +
         std::to_string(config.dynamic_shared_bytes) + " bytes of dynamic shared memory = " +
         std::to_string(shared) + " bytes per CTA, more than the limit of " +
         std::to_string(options.max_shared_bytes_per_cta) + " bytes");
}

}  // namespace simtlm::runtime
