// Backend::Functional: runs launches on the timing-free SIMT executor
// (functional::run_launch). Fast, and the correctness oracle for the timing
// backend.
#pragma once

#include "runtime/backend.h"

namespace simtlm::runtime {

class FunctionalBackend final : public LaunchBackend {
 public:
  // Throws Error(Config) for spu.iu.kind = dma (DMA IUs are timing-only).
  explicit FunctionalBackend(const DeviceOptions& options);
  const char* name() const override { return "functional"; }
  LaunchStats launch(const functional::LaunchRequest& request,
                     functional::GlobalMemory& memory) override;

 private:
  std::function<void(const LaunchProgress&)> progress_;
};

}  // namespace simtlm::runtime
