#include "frontend/ptx/diagnostics.h"

#include <cstdio>

#include "simtlm/error.h"

namespace simtlm::frontend::ptx {

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (0: not one).
// Overlong forms, surrogates and code points past U+10FFFF are not well formed.
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string quote_source_text(std::string_view text, size_t max_chars, bool mark_cut) {
  std::string shown;
  size_t chars = 0;
  for (size_t i = 0; i < text.size();) {
    if (chars >= max_chars) {
      if (mark_cut) shown += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_sequence(text, i);
    if (c == '\n' || c == '\r' || c == '\t') {
      shown += ' ';
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      // A byte that is not text (invalid UTF-8, a control character) would
      // garble the terminal or the JSON the message ends up in: show its value.
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      shown += buf;
    } else {
      shown.append(text.substr(i, n));
    }
    i += n == 0 ? 1 : n;
    ++chars;
  }
  return shown;
}

std::string ptx_error_message(const std::string& file, uint32_t line, uint32_t column,
                              const std::string& what, std::string_view near) {
  // Keep the quoted context short and on one line.
  std::string msg = file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": error: " + what;
  if (near.empty())
    msg += " near end of file";
  else
    msg += " near '" + quote_source_text(near, 60) + "'";
  return msg;
}

[[noreturn]] void throw_ptx_error(const std::string& file, uint32_t line, uint32_t column,
                                  const std::string& what, std::string_view near) {
  throw Error(ErrorKind::Ptx, ptx_error_message(file, line, column, what, near));
}

}  // namespace simtlm::frontend::ptx
