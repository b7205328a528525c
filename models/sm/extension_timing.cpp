#include "models/sm/extension_timing.h"

#include <map>
#include <memory>

#include "simtlm/error.h"

namespace simtlm::models {

namespace {

// Node-based, so a registration's address stays valid while others come and go.
std::map<uint16_t, std::unique_ptr<ExtensionTiming>>& registry() {
  static std::map<uint16_t, std::unique_ptr<ExtensionTiming>> r;
  return r;
}

}  // namespace

void register_extension_timing(uint16_t ext_id, ExtensionTiming timing) {
  registry()[ext_id] = std::make_unique<ExtensionTiming>(std::move(timing));
}

void unregister_extension_timing(uint16_t ext_id) { registry().erase(ext_id); }

const ExtensionTiming* find_extension_timing(uint16_t ext_id) {
  auto it = registry().find(ext_id);
  return it == registry().end() ? nullptr : it->second.get();
}

uint32_t SmServices::mechanism_access(SmCycleHook&, uint64_t, uint32_t, bool, bool) {
  throw Error(ErrorKind::Internal, "this SM offers no memory path to mechanisms");
}

}  // namespace simtlm::models
