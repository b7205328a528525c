#include "runtime/device_impl.h"

#include <cstdio>

#include "runtime/launch_checks.h"
#include "runtime/module_globals.h"
#include "runtime/pass_config.h"
#include "runtime/register_counts.h"
#include "runtime/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm {

namespace {

const DeviceOptions& checked(const DeviceOptions& options) {
  if (options.warp_size < 1 || options.warp_size > 64)
    throw Error(ErrorKind::Config,
                "warp size " + std::to_string(options.warp_size) + " is outside 1..64");
  if (options.max_threads_per_cta == 0)
    throw Error(ErrorKind::Config, "max_threads_per_cta must be at least 1");
  return options;
}

// The configuration modules are loaded with (DeviceOptions::config, else the built-in defaults).
const Config& config_of(const DeviceOptions& options) {
  static const Config defaults;
  return options.config ? *options.config : defaults;
}

// Hands a launch's printf text to DeviceOptions::printf_output (stdout by default).
void deliver_printf(const functional::PrintfBuffer& buffer, const DeviceOptions& options) {
  const std::string text = buffer.text();
  if (text.empty()) return;
  if (options.printf_output) {
    options.printf_output(text);
    return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

DeviceImpl::DeviceImpl(DeviceOptions options)
    : options_(checked(options)), pipeline_(runtime::pass_pipeline_from_config(config_of(options_))), backend_(runtime::make_backend(options_)),
      printf_capacity_(config_of(options_).u64("sim.printf_buffer_bytes")) {
  memory_.set_capacity(config_of(options_).u64("gpu.global_memory_bytes"));
}

ModuleHandle DeviceImpl::add_module(std::unique_ptr<ir::Module> module) {
  if (!module) throw Error(ErrorKind::Internal, "add_module: null module");
  runtime::choose_register_counts(*module, config_of(options_), options_.known_register_counts);
  LoadedModule loaded;
  loaded.var_addresses = runtime::place_module_variables(*module, memory_);
  loaded.module = std::move(module);
  modules_.push_back(std::move(loaded));
  return static_cast<ModuleHandle>(modules_.size());
}

const LoadedModule& DeviceImpl::module(ModuleHandle handle) const {
  if (handle == 0 || handle > modules_.size())
    throw Error(ErrorKind::Launch, "unknown module handle " + std::to_string(handle) + " (" +
                                       std::to_string(modules_.size()) + " module(s) loaded)");
  return modules_[handle - 1];
}

const ir::Module& DeviceImpl::module_for_launch(ModuleHandle handle, const Dim3& block, uint32_t dynamic_shared_bytes) {
  const LoadedModule& loaded = module(handle);
  if (!pipeline_.needs_launch_shape()) return *loaded.module;
  auto& variant = variants_[{handle, block.x, block.y, block.z, dynamic_shared_bytes}];
  if (!variant) {
    frontend::LaunchShape shape;
    shape.block[0] = block.x;
    shape.block[1] = block.y;
    shape.block[2] = block.z;
    shape.dynamic_shared_bytes = dynamic_shared_bytes;
    variant = pipeline_.make_variant(*loaded.module, shape);
  }
  return *variant;
}

LaunchStats DeviceImpl::launch(ModuleHandle handle, const std::string& kernel_name,
                               const LaunchConfig& config, const KernelArgs& args) {
  const LoadedModule& loaded = module(handle);
  runtime::check_launch_config(runtime::find_kernel(*loaded.module, kernel_name), config, options_);
  const ir::Module& module = module_for_launch(handle, config.block, config.dynamic_shared_bytes);
  const ir::Function& kernel = runtime::find_kernel(module, kernel_name);
  // A launch-shape pass may change the kernel's registers and shared memory
  // (unified_alloc_shared): the variant's are the ones admitted.
  if (&module != loaded.module.get()) runtime::check_launch_config(kernel, config, options_);
  runtime::check_register_limit(kernel, config_of(options_));

  functional::LaunchRequest request;
  request.module = &module;
  request.kernel = &kernel;
  request.grid = {config.grid.x, config.grid.y, config.grid.z};
  request.block = {config.block.x, config.block.y, config.block.z};
  request.dynamic_shared_bytes = config.dynamic_shared_bytes;
  request.params = runtime::pack_params(module, kernel, args);
  request.warp_size = options_.warp_size;
  request.num_sms = options_.num_sms;
  request.grid_id = next_grid_id_++;
  request.var_addresses = &loaded.var_addresses;
  functional::PrintfBuffer printf_buffer(printf_capacity_);
  request.printf_buffer = &printf_buffer;
  request.max_warp_instructions = config_of(options_).u64("sim.max_instructions");
  runtime::apply_platform(module, kernel, config_of(options_), request);

  LaunchStats stats;
  try {
    stats = backend_->launch(request, memory_);
  } catch (...) {
    deliver_printf(printf_buffer, options_);  // what the kernel printed before it failed helps to debug it
    throw;
  }
  deliver_printf(printf_buffer, options_);
  stats.printf_calls = printf_buffer.calls();
  stats.printf_dropped = printf_buffer.dropped();
  if (stats.kernel.empty()) stats.kernel = kernel.name;
  stats.threads_per_cta = config.block.x * config.block.y * config.block.z;
  stats.dynamic_shared_bytes = config.dynamic_shared_bytes;
  stats.regs_per_thread = kernel.analysis.regs_per_thread;
  stats.register_count_source = ir::register_count_source_name(kernel.analysis.regs_source);
  stats.register_count_detail = kernel.analysis.regs_source_detail;
  const size_t keep = options_.launch_records;
  if (keep != 0 && history_.size() >= keep) {
    history_.erase(history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(history_.size() - keep + 1));
  }
  history_.push_back(stats);
  return stats;
}

}  // namespace simtlm
