// Uniform PTX diagnostics: every parser error is one simtlm::Error(Ptx) whose
// message is "file:line:column: error: <what> near '<text>'".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace simtlm::frontend::ptx {

[[noreturn]] void throw_ptx_error(const std::string& file, uint32_t line, uint32_t column,
                                  const std::string& what, std::string_view near);

}  // namespace simtlm::frontend::ptx
