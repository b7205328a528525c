// Device: the public facade over DeviceImpl (see simtlm/device.h).
#include "simtlm/device.h"

#include "frontend/load.h"
#include "runtime/device_impl.h"

namespace simtlm {

Device::Device(DeviceOptions options) : impl_(std::make_unique<DeviceImpl>(options)) {}
Device::~Device() = default;

const DeviceOptions& Device::options() const { return impl_->options(); }

DevicePtr Device::malloc(size_t bytes) { return impl_->memory().allocate(bytes); }
void Device::free(DevicePtr ptr) { impl_->memory().release(ptr); }

void Device::memcpy_to_device(DevicePtr dst, const void* src, size_t bytes) {
  impl_->memory().write(dst, src, bytes);
}
void Device::memcpy_to_host(void* dst, DevicePtr src, size_t bytes) {
  impl_->memory().read(dst, src, bytes);
}
void Device::memset(DevicePtr dst, int value, size_t bytes) {
  impl_->memory().fill(dst, static_cast<uint8_t>(value), bytes);
}

ModuleHandle Device::load_module_file(const std::string& path) {
  return impl_->add_module(frontend::load_ptx_file(path, impl_->pipeline()));
}
ModuleHandle Device::load_module_string(const std::string& ptx_text, const std::string& name) {
  return impl_->add_module(frontend::load_ptx_text(ptx_text, name, impl_->pipeline()));
}

LaunchStats Device::launch(ModuleHandle module, const std::string& kernel,
                           const LaunchConfig& cfg, const KernelArgs& args) {
  return impl_->launch(module, kernel, cfg, args);
}

// Launches run to completion inside launch(), so there is nothing to wait for.
void Device::synchronize() {}

const std::vector<LaunchStats>& Device::launch_history() const { return impl_->history(); }

std::string Device::backend_stats_json() const { return impl_->backend().stats_json(); }

std::string Device::backend_summary() const { return impl_->backend().summary(); }

// LaunchStats::stats_json: the text, made once on demand.
class LaunchStats::LazyText {
 public:
  explicit LazyText(std::function<std::string()> make) : make_(std::move(make)) {}
  const std::string& text() {
    if (make_) {
      text_ = make_();
      make_ = nullptr;  // drop what the text was made from
    }
    return text_;
  }

 private:
  std::function<std::string()> make_;
  std::string text_;
};

const std::string& LaunchStats::stats_json() const {
  static const std::string none;
  return stats_json_ ? stats_json_->text() : none;
}

void LaunchStats::set_stats_json_source(std::function<std::string()> make) {
  stats_json_ = make ? std::make_shared<LazyText>(std::move(make)) : nullptr;
}

DeviceImpl& Device::impl() { return *impl_; }
const DeviceImpl& Device::impl() const { return *impl_; }

}  // namespace simtlm
