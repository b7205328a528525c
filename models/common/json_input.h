// One way to read a JSON input file (configuration files and fragments,
// launch specs, sweep specs), so that every loader reports bad input alike:
// FILE:LINE:COLUMN and what is wrong, as an Error of the caller's kind.
//
// Beyond what the JSON library checks, the text is refused when
//   - objects/arrays nest deeper than kMaxJsonDepth (a deeply nested document
//     exhausted memory and the stack in the loaders' recursive walks),
//   - a member name is longer than kMaxJsonKeyLength bytes,
//   - one object names a member twice (the library keeps the last silently),
//   - a number does not fit a double (the library throws a different
//     exception, without a position, for `1e400`).
// Member names are compared as written (an escaped spelling of the same name
// is not recognised as a duplicate).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "simtlm/error.h"

namespace simtlm {

inline constexpr std::size_t kMaxJsonDepth = 64;
inline constexpr std::size_t kMaxJsonKeyLength = 256;

// Checks `text` as above; throws Error(kind) naming origin:line:column.
void check_json_input(const std::string& text, const std::string& origin, ErrorKind kind);

// check_json_input(), then parses; a syntax error is reported the same way.
nlohmann::json parse_json_input(const std::string& text, const std::string& origin, ErrorKind kind);
nlohmann::ordered_json parse_ordered_json_input(const std::string& text, const std::string& origin,
                                                ErrorKind kind);

// Reads a whole file (Error(ErrorKind::Input) naming it when it cannot).
std::string read_json_file(const std::string& path, const std::string& what);

}  // namespace simtlm
