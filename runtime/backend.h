// The seam between the Device API and an execution engine. The runtime does
// everything that does not depend on how a kernel is executed (module loading,
// device memory, argument packing, launch-limit checks) and hands a fully
// validated functional::LaunchRequest to a backend, which runs it to
// completion. The functional executor is one backend; the timing model plugs
// in as another behind the same interface (make_backend chooses by
// DeviceOptions::backend).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "functional/launch.h"
#include "functional/memory.h"
#include "simtlm/device.h"

namespace simtlm::runtime {

class LaunchBackend {
 public:
  virtual ~LaunchBackend() = default;
  // "functional", "timing": used in messages and statistics.
  virtual const char* name() const = 0;
  // Runs every CTA of a validated launch. Returns the launch figures (kernel
  // name, CTAs, instruction counts, cycles if timed, host seconds). Throws
  // Error(Fault) / Error(Deadlock) when the kernel misbehaves.
  virtual LaunchStats launch(const functional::LaunchRequest& request,
                             functional::GlobalMemory& memory) = 0;
  // Statistics of every launch so far as a JSON object (null when the backend
  // keeps none; callers that embed them in a larger document take this, with
  // no text round trip), as that object's text ("" when none), and a readable
  // summary of their total ("" when none).
  virtual nlohmann::ordered_json stats_tree() const { return nullptr; }
  std::string stats_json() const {
    const nlohmann::ordered_json tree = stats_tree();
    return tree.is_null() ? std::string() : tree.dump(2) + "\n";
  }
  virtual std::string summary() const { return ""; }
  // A readable table of the launches so far, one line per kernel name or per
  // launch ("" when the backend keeps no statistics).
  virtual std::string kernel_table(bool /*per_launch*/) const { return ""; }
};

// The backend selected by options.backend. Throws Error(Usage) for a backend
// that is not built yet.
std::unique_ptr<LaunchBackend> make_backend(const DeviceOptions& options);

}  // namespace simtlm::runtime
