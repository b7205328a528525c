#include "models/common/json_input.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace simtlm {

namespace {

// A single pass over the text that knows only what the checks need: strings
// (to tell member names and skip their contents), brackets (depth, which
// container is open), ',' and ':' (where a member name is expected), and
// numbers. Anything malformed ends the pass quietly: the JSON parser that
// runs next reports it with its own message.
class JsonInputScanner {
 public:
  JsonInputScanner(const std::string& text, const std::string& origin, ErrorKind kind)
      : t_(text), origin_(origin), kind_(kind) {}

  void run() {
    while (i_ < t_.size()) {
      const char ch = t_[i_];
      if (ch == '\n') {
        ++i_;
        ++line_;
        line_start_ = i_;
      } else if (ch == '{' || ch == '[') {
        if (levels_.size() >= kMaxJsonDepth) {
          fail(here(), "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        levels_.push_back(Level{ch == '{', ch == '{', {}});
        ++i_;
      } else if (ch == '}' || ch == ']') {
        if (levels_.empty()) return;
        levels_.pop_back();
        ++i_;
      } else if (ch == ',') {
        if (!levels_.empty() && levels_.back().object) levels_.back().expect_name = true;
        ++i_;
      } else if (ch == '"') {
        if (!string_token()) return;
      } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        number_token();
      } else {
        ++i_;
      }
    }
  }

 private:
  struct Place {
    std::size_t line, column;
  };
  struct Level {
    bool object;
    bool expect_name;                               // the next string is a member name
    std::unordered_map<std::string, Place> names;  // member names seen in this object
  };

  Place here() const { return {line_, i_ - line_start_ + 1}; }

  [[noreturn]] void fail(Place at, const std::string& what) const {
    throw Error(kind_, origin_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + what);
  }

  // Returns false on an unterminated string (left to the parser).
  bool string_token() {
    const Place at = here();
    const std::size_t begin = ++i_;
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\n') return false;  // control characters are invalid in strings
      i_ += t_[i_] == '\\' ? 2 : 1;
    }
    if (i_ >= t_.size()) return false;
    const std::size_t length = i_ - begin;
    ++i_;
    if (levels_.empty() || !levels_.back().object || !levels_.back().expect_name) return true;
    Level& level = levels_.back();
    level.expect_name = false;
    if (length > kMaxJsonKeyLength) {
      fail(at, "member name of " + std::to_string(length) + " bytes; at most " + std::to_string(kMaxJsonKeyLength) +
                   " are accepted");
    }
    std::string name = t_.substr(begin, length);
    const auto [it, fresh] = level.names.emplace(name, at);
    if (!fresh) {
      fail(at, "member \"" + name + "\" is given twice in one object (first at line " +
                   std::to_string(it->second.line) + ", column " + std::to_string(it->second.column) +
                   "); give each key once");
    }
    return true;
  }

  void number_token() {
    const Place at = here();
    const std::size_t begin = i_;
    while (i_ < t_.size() && std::strchr("0123456789+-.eE", t_[i_]) != nullptr) ++i_;
    const std::string token = t_.substr(begin, i_ - begin);
    // strtod in the "C" locale the program runs in: overflow gives +-HUGE_VAL.
    const double value = std::strtod(token.c_str(), nullptr);
    if (std::isinf(value)) fail(at, "number " + token + " is beyond the range of a double");
  }

  const std::string& t_;
  const std::string& origin_;
  ErrorKind kind_;
  std::size_t i_ = 0, line_ = 1, line_start_ = 0;
  std::vector<Level> levels_;
};

template <typename Json>
Json parse_checked(const std::string& text, const std::string& origin, ErrorKind kind) {
  check_json_input(text, origin, kind);
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Line and column of the last byte the library read (it reports a 1-based
    // offset); a line break read after a token stands for the token's end.
    std::size_t index = std::min<std::size_t>(e.byte, text.size());
    index = index > 0 ? index - 1 : 0;
    while (index > 0 && (text[index] == '\n' || text[index] == '\r')) --index;
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < index; ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    const std::size_t column = index - line_start + 1;
    std::string reason = e.what();
    const std::size_t col_pos = reason.find("column ");
    const std::size_t colon = reason.find(": ", col_pos == std::string::npos ? 0 : col_pos);
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw Error(kind, origin + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": malformed JSON: " + reason);
  } catch (const nlohmann::json::exception& e) {
    // Anything the scan above did not foresee still names the file.
    throw Error(kind, origin + ": malformed JSON: " + e.what());
  }
}

}  // namespace

void check_json_input(const std::string& text, const std::string& origin, ErrorKind kind) {
  JsonInputScanner(text, origin, kind).run();
}

nlohmann::json parse_json_input(const std::string& text, const std::string& origin, ErrorKind kind) {
  return parse_checked<nlohmann::json>(text, origin, kind);
}

nlohmann::ordered_json parse_ordered_json_input(const std::string& text, const std::string& origin,
                                                ErrorKind kind) {
  return parse_checked<nlohmann::ordered_json>(text, origin, kind);
}

std::string read_json_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error(ErrorKind::Input, what + " '" + path + "' not found");
  if (fs::is_directory(path, ec)) throw Error(ErrorKind::Input, what + " '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, "cannot read " + what + " '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace simtlm
