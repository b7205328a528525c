// PTX tokenizer. Turns the whole text into a flat token vector in one pass
// (no regex, no per-token allocation: tokens are views into the source).
//
// Token shapes:
//   Ident     `ld.global.nc.v4.f32`, `%tid.x`, `%r12`, `$L__BB0_2`, `_Z3fooi`,
//             `L1::evict_last` components: an identifier followed by any number
//             of `.component` parts (components may contain `::`). PTX
//             identifiers never contain dots, so the dotted form is either an
//             opcode with its modifiers or a special register with a component.
//   Directive `.reg`, `.b32`, `.v4`, `.shared::cta`: a dot and one component.
//   Int       decimal, 0x hex, 0 octal, 0b binary, optional U suffix
//   Float     0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX, decimal `1.5`, `1e-3`, `.5`
//   String    "..." (escapes kept raw)
//   Punct     one of , ; : { } [ ] ( ) + - ! @ | < > = *
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simtlm::frontend::ptx {

enum class TokKind : uint8_t { End, Ident, Directive, Int, Float, String, Punct };

struct Token {
  TokKind kind = TokKind::End;
  char punct = 0;          // the character for Punct tokens
  uint32_t offset = 0;     // byte offset of the first character in the source
  uint32_t line = 0;       // 1-based
  uint32_t column = 0;     // 1-based
  std::string_view text;   // view into the source (empty for End)

  bool is(char p) const { return kind == TokKind::Punct && punct == p; }
  // `d` without the dot: is_directive("reg") matches `.reg`.
  bool is_directive(std::string_view d) const {
    return kind == TokKind::Directive && text.substr(1) == d;
  }
};

// Tokenizes `source`. The returned tokens reference `source`, which must
// outlive them. The last token is always End (positioned at the end of the
// text). Lexical errors throw simtlm::Error(ErrorKind::Ptx) with position.
std::vector<Token> tokenize(std::string_view source, const std::string& filename);

}  // namespace simtlm::frontend::ptx
