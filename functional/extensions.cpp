// Extension semantics registry (see extensions.h). Handlers are kept in
// individually allocated slots so pointers handed to decoded programs stay
// valid while other ids are registered.
#include "functional/extensions.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace simtlm::functional {

namespace {
struct Registry {
  std::mutex lock;
  std::map<uint16_t, std::unique_ptr<ExtensionHandler>> handlers;
};
Registry& registry() {
  static Registry r;
  return r;
}
}  // namespace

void register_extension_semantics(uint16_t ext_id, ExtensionHandler handler) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  std::unique_ptr<ExtensionHandler>& slot = r.handlers[ext_id];
  if (slot) {
    *slot = std::move(handler);  // keep the slot: decoded programs may point at it
  } else {
    slot = std::make_unique<ExtensionHandler>(std::move(handler));
  }
}

void unregister_extension_semantics(uint16_t ext_id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  r.handlers.erase(ext_id);
}

const ExtensionHandler* find_extension_semantics(uint16_t ext_id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  auto it = r.handlers.find(ext_id);
  if (it == r.handlers.end() || !*it->second) return nullptr;
  return it->second.get();
}

}  // namespace simtlm::functional
