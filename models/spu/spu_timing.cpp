#include "models/spu/spu_timing.h"

#include "frontend/ptx/spu_extensions.h"
#include "models/sm/extension_timing.h"

namespace simtlm::models::spu {

const std::vector<std::string>& cb_spaces() {
  static const std::vector<std::string> kSpaces = {"cb_north", "cb_west", "cb_south", "cb_east"};
  return kSpaces;
}

void register_cb_timing() {
  namespace ext = frontend::ptx::spu;
  auto reg = [](uint16_t id, functional::ExecClass cls, unsigned dir) {
    ExtensionTiming t;
    t.cls = cls;
    t.memory_space = cb_spaces()[dir];
    register_extension_timing(id, std::move(t));
  };
  reg(ext::kLdCbNorth, functional::ExecClass::Load, 0);
  reg(ext::kLdCbWest, functional::ExecClass::Load, 1);
  reg(ext::kStCbSouth, functional::ExecClass::Store, 2);
  reg(ext::kStCbEast, functional::ExecClass::Store, 3);
}

}  // namespace simtlm::models::spu
