// PTX tokenizer: a single forward scan with line/column tracking.
#include "frontend/ptx/lexer.h"

#include "frontend/ptx/diagnostics.h"

namespace simtlm::frontend::ptx {

namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file) : src_(src), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(src_.size() / 4 + 16);
    for (;;) {
      skip_space_and_comments();
      Token t;
      t.offset = static_cast<uint32_t>(pos_);
      t.line = line_;
      t.column = static_cast<uint32_t>(pos_ - line_start_ + 1);
      if (pos_ >= src_.size()) {
        t.kind = TokKind::End;
        out.push_back(t);
        return out;
      }
      lex_one(t);
      t.text = src_.substr(t.offset, pos_ - t.offset);
      out.push_back(t);
    }
  }

 private:
  char at(size_t p) const { return p < src_.size() ? src_[p] : '\0'; }

  [[noreturn]] void fail(const std::string& what, size_t from) {
    size_t col = from - line_start_ + 1;
    size_t end = from;
    while (end < src_.size() && end < from + 20 && src_[end] != '\n') ++end;
    throw_ptx_error(file_, line_, static_cast<uint32_t>(col), what, src_.substr(from, end - from));
  }

  void newline_at(size_t p) {
    ++line_;
    line_start_ = p + 1;
  }

  void skip_space_and_comments() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        newline_at(pos_);
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '*') {
        size_t start = pos_;
        uint32_t start_line = line_;
        size_t start_line_start = line_start_;
        pos_ += 2;
        for (;;) {
          if (pos_ >= src_.size()) {
            line_ = start_line;
            line_start_ = start_line_start;
            fail("unterminated /* comment", start);
          }
          if (src_[pos_] == '*' && at(pos_ + 1) == '/') {
            pos_ += 2;
            break;
          }
          if (src_[pos_] == '\n') newline_at(pos_);
          ++pos_;
        }
      } else {
        return;
      }
    }
  }

  // One component after a dot: identifier characters, possibly with `::`.
  // Returns false if no component character follows.
  bool lex_component() {
    size_t start = pos_;
    for (;;) {
      while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
      if (at(pos_) == ':' && at(pos_ + 1) == ':' && is_ident_char(at(pos_ + 2))) {
        pos_ += 2;
        continue;
      }
      break;
    }
    return pos_ > start;
  }

  void lex_one(Token& t) {
    char c = src_[pos_];
    if (is_ident_start(c)) {
      t.kind = TokKind::Ident;
      ++pos_;
      while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
      while (at(pos_) == '.' && is_ident_char(at(pos_ + 1))) {
        ++pos_;
        lex_component();
      }
      // Allow `::` directly on the mnemonic part only inside components.
      return;
    }
    if (c == '.') {
      if (is_digit(at(pos_ + 1))) {
        lex_number(t);
        return;
      }
      ++pos_;
      if (!lex_component()) fail("stray '.'", pos_ - 1);
      t.kind = TokKind::Directive;
      return;
    }
    if (is_digit(c)) {
      lex_number(t);
      return;
    }
    if (c == '"') {
      size_t start = pos_;
      ++pos_;
      while (pos_ < src_.size() && src_[pos_] != '"') {
        if (src_[pos_] == '\n') fail("unterminated string literal", start);
        if (src_[pos_] == '\\') ++pos_;
        ++pos_;
      }
      if (pos_ >= src_.size()) fail("unterminated string literal", start);
      ++pos_;
      t.kind = TokKind::String;
      return;
    }
    switch (c) {
      case ',': case ';': case ':': case '{': case '}': case '[': case ']': case '(':
      case ')': case '+': case '-': case '!': case '@': case '|': case '<': case '>':
      case '=': case '*':
        t.kind = TokKind::Punct;
        t.punct = c;
        ++pos_;
        return;
      default:
        break;
    }
    fail("unexpected character '" + quote_source_text(src_.substr(pos_, 4), 1, false) + "'", pos_);
  }

  void lex_number(Token& t) {
    size_t start = pos_;
    char c0 = src_[pos_];
    char c1 = at(pos_ + 1);
    if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
      size_t want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
      pos_ += 2;
      size_t digits = 0;
      while (pos_ < src_.size() && is_hex(src_[pos_])) {
        ++pos_;
        ++digits;
      }
      if (digits != want)
        fail(std::string("hexadecimal floating-point literal needs exactly ") +
                 std::to_string(want) + " hex digits",
             start);
      if (is_ident_char(at(pos_))) fail("malformed number", start);
      t.kind = TokKind::Float;
      return;
    }
    if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
      pos_ += 2;
      size_t s = pos_;
      while (pos_ < src_.size() && is_hex(src_[pos_])) ++pos_;
      if (pos_ == s) fail("malformed hexadecimal literal", start);
      if (at(pos_) == 'U') ++pos_;
      if (is_ident_char(at(pos_)) || at(pos_) == '.') fail("malformed number", start);
      t.kind = TokKind::Int;
      return;
    }
    if (c0 == '0' && (c1 == 'b' || c1 == 'B')) {
      pos_ += 2;
      size_t s = pos_;
      while (at(pos_) == '0' || at(pos_) == '1') ++pos_;
      if (pos_ == s) fail("malformed binary literal", start);
      if (at(pos_) == 'U') ++pos_;
      if (is_ident_char(at(pos_)) || at(pos_) == '.') fail("malformed number", start);
      t.kind = TokKind::Int;
      return;
    }
    // decimal integer, octal integer or decimal float
    bool is_float = false;
    while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    if (at(pos_) == '.' && !is_ident_start(at(pos_ + 1))) {
      is_float = true;
      ++pos_;
      while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    }
    if (at(pos_) == 'e' || at(pos_) == 'E') {
      size_t p = pos_ + 1;
      if (at(p) == '+' || at(p) == '-') ++p;
      if (is_digit(at(p))) {
        is_float = true;
        pos_ = p;
        while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
      }
    }
    if (!is_float && at(pos_) == 'U') ++pos_;
    if (is_ident_char(at(pos_)) || at(pos_) == '.') fail("malformed number", start);
    if (!is_float && src_[start] == '0' && pos_ - start > 1) {
      for (size_t p = start; p < pos_; ++p)
        if (src_[p] == '8' || src_[p] == '9') fail("malformed octal literal", start);
    }
    t.kind = is_float ? TokKind::Float : TokKind::Int;
  }

  std::string_view src_;
  const std::string& file_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& filename) {
  if (source.size() >= 0xFFFFFFF0u)
    throw_ptx_error(filename, 1, 1, "PTX text too large (4 GiB limit)", "");
  return Lexer(source, filename).run();
}

}  // namespace simtlm::frontend::ptx
