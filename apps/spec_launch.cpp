#include "apps/spec_launch.h"

#include <cstring>
#include <filesystem>
#include <map>

#include "apps/output_files.h"
#include "frontend/ir/types.h"
#include "runtime/device_impl.h"
#include "runtime/launch_checks.h"

namespace simtlm::cli {

namespace {

// A scalar of the other class than its parameter (a float for an integer
// .param, or an integer for a float one) would pass its bit pattern: refused.
// Untyped .b parameters and .b values go with either class.
void check_type_class(const LaunchSpec& spec, const ArgSpec& arg, const ir::Variable& param, const std::string& k) {
  ir::DataType given = ir::DataType::None;
  if (!ir::parse_type(arg.type, given) || ir::is_bits(given) || ir::is_bits(param.type)) return;
  if (ir::is_float(given) == ir::is_float(param.type)) return;
  spec.fail(arg.path + ".type", "." + arg.type + " is " + (ir::is_float(given) ? "a float" : "an integer") +
                                    " but parameter '" + param.name + "' of " + k + " is " +
                                    runtime::param_type_text(param) + " (" +
                                    (ir::is_float(param.type) ? "a float" : "an integer") +
                                    "); give the parameter's type, or a .b type for its bits");
}

// Argument count and sizes, checked here (rather than only in the runtime) so
// that the message points at the spec entry.
void check_args(const LaunchSpec& spec, const ir::Module& module, const ir::Function& kernel) {
  const std::string k = "kernel '" + kernel.name + "'";
  if (spec.args.size() != kernel.params.size()) {
    std::string names;
    for (uint32_t p : kernel.params)
      names += (names.empty() ? "" : ", ") + module.vars.at(p).name + " " +
               runtime::param_type_text(module.vars.at(p));
    spec.fail("args", k + " takes " + std::to_string(kernel.params.size()) + " argument(s)" +
                          (names.empty() ? "" : " (" + names + ")") + ", the spec gives " +
                          std::to_string(spec.args.size()));
  }
  const uint64_t pointer_bytes = module.address_size == 32 ? 4 : 8;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& arg = spec.args[i];
    const ir::Variable& param = module.vars.at(kernel.params[i]);
    uint64_t expected = runtime::param_size(param);
    uint64_t given = arg.is_buffer ? pointer_bytes : arg.bytes.size();
    if (given == expected && !arg.is_buffer) check_type_class(spec, arg, param, k);
    if (given != expected)
      spec.fail(arg.path, (arg.is_buffer ? "buffer '" + arg.buffer + "' is a " +
                                               std::to_string(given) + "-byte pointer"
                                         : (arg.type == kRawBytesType ? std::string("the bytes given are ")
                                                                      : "type " + arg.type + " has ") +
                                               std::to_string(given) + " bytes") +
                              " but parameter '" + param.name + "' of " + k + " is " +
                              runtime::param_type_text(param) + " (" + std::to_string(expected) +
                              " bytes)");
  }
}

}  // namespace

void check_outputs_spare_inputs(const LaunchSpec& spec, const std::filesystem::path& output_dir) {
  for (const BufferSpec& out : spec.buffers) {
    if (out.output.empty()) continue;
    const std::filesystem::path target = output_dir / out.output;
    for (const BufferSpec& in : spec.buffers) {
      if (in.init != BufferInit::File) continue;
      std::error_code ec;
      if (std::filesystem::equivalent(target, in.file, ec)) {
        spec.fail(out.path + ".output", "'" + target.string() + "' is the input file of " + in.path +
                                            ".init.file; writing it would overwrite that input (name another file)");
      }
    }
  }
}


SpecLaunchResult launch_from_spec(Device& device, ModuleHandle handle, const std::string& kernel_name,
                                  const LaunchSpec& spec, const std::filesystem::path& output_dir) {
  const ir::Module& module = *device.impl().module(handle).module;
  const ir::Function& kernel = runtime::find_kernel(module, kernel_name);
  check_args(spec, module, kernel);
  check_outputs_spare_inputs(spec, output_dir);

  std::map<std::string, DevicePtr> addresses;
  for (const BufferSpec& b : spec.buffers) {
    DevicePtr p = device.malloc(b.size_bytes);
    std::vector<uint8_t> bytes = initial_contents(spec, b);
    device.memcpy_to_device(p, bytes.data(), bytes.size());
    addresses[b.name] = p;
  }

  KernelArgs args;
  const size_t pointer_bytes = module.address_size == 32 ? 4 : 8;
  for (const ArgSpec& arg : spec.args) {
    if (arg.is_buffer) {
      uint64_t addr = addresses.at(arg.buffer) + arg.offset;
      std::vector<uint8_t> bytes(pointer_bytes);
      std::memcpy(bytes.data(), &addr, pointer_bytes);
      args.add_bytes(std::move(bytes));
    } else {
      args.add_bytes(arg.bytes);
    }
  }

  LaunchConfig config;
  config.grid = spec.grid;
  config.block = spec.block;
  config.dynamic_shared_bytes = spec.dynamic_shared_bytes;

  SpecLaunchResult result;
  result.stats = device.launch(handle, kernel_name, config, args);

  // Read every output back before writing any, so a failure leaves no partial set.
  std::vector<std::pair<std::filesystem::path, std::vector<uint8_t>>> outputs;
  for (const BufferSpec& b : spec.buffers) {
    if (b.output.empty()) continue;
    std::vector<uint8_t> bytes(b.size_bytes);
    device.memcpy_to_host(bytes.data(), addresses.at(b.name), bytes.size());
    std::filesystem::path path = output_dir / b.output;
    outputs.emplace_back(path, std::move(bytes));
  }
  for (auto& [path, bytes] : outputs) {
    if (path.has_parent_path()) {
      std::error_code ec;
      std::filesystem::create_directories(path.parent_path(), ec);
    }
    write_file_atomic(path, bytes.data(), bytes.size());
    result.outputs.push_back(path.string());
  }
  return result;
}

}  // namespace simtlm::cli
