// Special-register names (%tid.x, %laneid, %clock64, ...) -> ir::SpecialReg.
#pragma once

#include <cstdint>
#include <string_view>

#include "frontend/ir/types.h"

namespace simtlm::frontend::ptx {

enum class SpecialLookup {
  NotSpecial,    // not a special-register name at all
  Found,
  BadComponent,  // vector special register without/with a wrong component
  Unsupported,   // a PTX special register this model does not provide
};

// `name` includes the leading '%' and an optional ".x/.y/.z" component
// (`WARP_SZ`, the predefined warp-size constant, has no '%').
SpecialLookup lookup_special_register(std::string_view name, ir::SpecialReg& sreg,
                                      uint8_t& component, unsigned& bits);

// Canonical PTX name of a special register ("%tid"), without component.
std::string_view special_register_name(ir::SpecialReg sreg);

}  // namespace simtlm::frontend::ptx
