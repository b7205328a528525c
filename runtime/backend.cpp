#include "runtime/backend.h"

#include "runtime/functional_backend.h"
#include "runtime/timing_backend.h"

namespace simtlm::runtime {

std::unique_ptr<LaunchBackend> make_backend(const DeviceOptions& options) {
  switch (options.backend) {
    case Backend::Functional:
      return std::make_unique<FunctionalBackend>(options);
    case Backend::Timing:
      return std::make_unique<TimingBackend>(options);
  }
  throw Error(ErrorKind::Internal, "unknown backend kind");
}

}  // namespace simtlm::runtime
