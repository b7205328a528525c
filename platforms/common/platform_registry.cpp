#include "platforms/common/platform_registry.h"

#include <map>

#include "simtlm/error.h"

namespace simtlm::platforms {

namespace {

std::map<std::string, PlatformBuilder>& builders() {
  static std::map<std::string, PlatformBuilder> b;
  return b;
}

std::string known() {
  std::string out;
  for (const auto& [n, b] : builders()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void register_platform(const std::string& name, PlatformBuilder builder) {
  if (!builders().emplace(name, std::move(builder)).second) {
    throw Error(ErrorKind::Internal, "platform builder '" + name + "' is registered twice");
  }
}

std::unique_ptr<Platform> make_platform(const sc_core::sc_module_name& name, const Config& cfg) {
  cfg.validate();
  return make_platform(cfg.str("sim.platform"), name, cfg);
}

std::unique_ptr<Platform> make_platform(const std::string& builder, const sc_core::sc_module_name& name,
                                        const Config& cfg) {
  const auto it = builders().find(builder);
  if (it == builders().end()) {
    throw Error(ErrorKind::Config, "sim.platform '" + builder + "' is not built yet; built platforms: " + known());
  }
  return it->second(name, cfg);
}

std::vector<std::string> platform_names() {
  std::vector<std::string> names;
  for (const auto& [n, b] : builders()) names.push_back(n);
  return names;
}

}  // namespace simtlm::platforms
