// Platform builders by name: sim.platform chooses which top level the timing
// backend builds. A builder registers itself in its own file:
//
//   const PlatformRegistration reg("gpu", [](const sc_core::sc_module_name& n, const Config& c) {
//     return std::make_unique<GpuPlatform>(n, c);
//   });
//
// The platforms library is linked whole (platforms/CMakeLists.txt), so every
// builder in it is registered; tests register their own (a test platform).
// Values of sim.platform the schema lists but no builder implements yet (spu,
// vws) are rejected when the configuration is loaded (ConfigKey::planned).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "platforms/common/platform.h"

namespace simtlm::platforms {

using PlatformBuilder = std::function<std::unique_ptr<Platform>(const sc_core::sc_module_name&, const Config&)>;

// Registers a builder; a duplicate name is Error(Internal).
void register_platform(const std::string& name, PlatformBuilder builder);
// Builds the platform named by sim.platform (validating `cfg` first).
std::unique_ptr<Platform> make_platform(const sc_core::sc_module_name& name, const Config& cfg);
// Builds the platform of builder `builder`; Error(Config) naming sim.platform
// when no builder of that name is registered.
std::unique_ptr<Platform> make_platform(const std::string& builder, const sc_core::sc_module_name& name,
                                        const Config& cfg);
// Registered builder names, sorted.
std::vector<std::string> platform_names();

struct PlatformRegistration {
  PlatformRegistration(const std::string& name, PlatformBuilder builder) {
    register_platform(name, std::move(builder));
  }
};

}  // namespace simtlm::platforms
