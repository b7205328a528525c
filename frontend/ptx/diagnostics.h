// Uniform PTX diagnostics: every parser error is one simtlm::Error(Ptx) whose
// message is "file:line:column: error: <what> near '<text>'".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace simtlm::frontend::ptx {

// `text` as it may be quoted in a one-line message: at most `max_chars`
// characters (then "..." when `mark_cut`), line breaks and tabs as spaces,
// well-formed UTF-8 kept, every other byte (invalid UTF-8, control
// characters) as \xNN.
std::string quote_source_text(std::string_view text, size_t max_chars, bool mark_cut = true);

// The message of such an error, for a diagnostic that is kept rather than
// thrown at once (a kernel the inliner rejects while the module's other
// kernels stay usable).
std::string ptx_error_message(const std::string& file, uint32_t line, uint32_t column,
                              const std::string& what, std::string_view near);

[[noreturn]] void throw_ptx_error(const std::string& file, uint32_t line, uint32_t column,
                                  const std::string& what, std::string_view near);

}  // namespace simtlm::frontend::ptx
