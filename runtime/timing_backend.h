// Backend::Timing: runs launches on the SystemC/TLM-2.0 model of the platform
// sim.platform names (built by the platform registry; "gpu" = platforms/gpu).
// The platform is elaborated once, when the device is
// created, from DeviceOptions::config; every launch then runs on it with
// sc_start until its last CTA completes, kernel after kernel. SystemC
// elaborates once per process, so a process has at most one timing device.
// Values come from the functional model executing at issue against the
// device's GlobalMemory, so memory contents after a launch equal the
// functional backend's.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "runtime/backend.h"

namespace simtlm::platforms {
class Platform;
}

namespace simtlm::runtime {

class TimingBackend final : public LaunchBackend {
 public:
  // Throws Error(Config) for an invalid configuration and Error(Usage) when
  // a timing device was already created in this process.
  explicit TimingBackend(const DeviceOptions& options);
  ~TimingBackend() override;

  const char* name() const override { return "timing"; }
  LaunchStats launch(const functional::LaunchRequest& request, functional::GlobalMemory& memory) override;
  nlohmann::ordered_json stats_tree() const override;
  std::string summary() const override;
  std::string kernel_table(bool per_launch) const override;

  platforms::Platform& platform() { return *platform_; }

 private:
  void report_progress(const std::string& kernel, uint64_t cycles, uint64_t warp_instructions, uint64_t ctas_done,
                       uint64_t ctas_total, const std::string& hint = "");

  std::unique_ptr<platforms::Platform> platform_;
  std::function<void(const LaunchProgress&)> progress_;
  uint64_t launch_index_ = 0;  // of the running launch (LaunchRequest::grid_id)
};

}  // namespace simtlm::runtime
