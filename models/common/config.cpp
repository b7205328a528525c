// Loading, validating and reading a configuration (schema in config_schema.cpp,
// cross-key rules in config_validate.cpp, generated text in config_reference.cpp).
#include "simtlm/config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "models/common/config_detail.h"
#include "models/common/json_input.h"

namespace simtlm {

using nlohmann::ordered_json;

const char* to_string(ConfigType type) {
  switch (type) {
    case ConfigType::UInt: return "uint";
    case ConfigType::Int: return "int";
    case ConfigType::Double: return "double";
    case ConfigType::Bool: return "bool";
    case ConfigType::String: return "string";
    case ConfigType::Enum: return "enum";
  }
  return "?";
}

std::string format_config_value(const ConfigValue& value) {
  if (const auto* u = std::get_if<std::uint64_t>(&value)) return std::to_string(*u);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return ordered_json(*d).dump();
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<std::string>(value);
}

namespace config_detail {

const std::unordered_map<std::string, std::size_t>& schema_index() {
  static const std::unordered_map<std::string, std::size_t> index = [] {
    std::unordered_map<std::string, std::size_t> m;
    const auto& schema = config_schema();
    for (std::size_t i = 0; i < schema.size(); ++i) m.emplace(schema[i].path, i);
    return m;
  }();
  return index;
}

bool is_group(const std::string& prefix) {
  const std::string dotted = prefix + ".";
  for (const ConfigKey& k : config_schema()) {
    if (k.path.compare(0, dotted.size(), dotted) == 0) return true;
  }
  return false;
}

std::string type_phrase(ConfigType type) {
  switch (type) {
    case ConfigType::UInt: return "an unsigned integer";
    case ConfigType::Int: return "an integer";
    case ConfigType::Double: return "a number";
    case ConfigType::Bool: return "a boolean (true/false)";
    case ConfigType::String: return "a string";
    case ConfigType::Enum: return "a string";
  }
  return "?";
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string range_text(const ConfigKey& key) {
  return "[" + format_config_value(key.min) + ", " + format_config_value(key.max) + "]";
}

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string w = lower(word);
  const std::size_t limit = std::max<std::size_t>(2, w.size() / 3);
  std::string best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length: a candidate that
    // cannot come within the limit is not measured (a mistyped key of
    // thousands of characters took seconds against every key; fuzzing found it).
    const std::size_t length_gap = w.size() > c.size() ? w.size() - c.size() : c.size() - w.size();
    if (length_gap > limit) continue;
    const std::size_t d = edit_distance(w, lower(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best_d <= limit ? best : std::string();
}

std::string did_you_mean(const std::string& suggestion) {
  return suggestion.empty() ? std::string() : "; did you mean '" + suggestion + "'?";
}

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw Error(ErrorKind::Config, where + ": " + message);
}

[[noreturn]] void fail_unknown_key(const std::string& where, const std::string& path) {
  const std::string s = nearest_config_key(path);
  fail(where, "key '" + path + "' is unknown" +
                  (s.empty() ? std::string(" (`simtlm config describe` lists every key)") : did_you_mean(s)));
}

// Range check shared by JSON and text input.
void check_range(const ConfigKey& key, const ConfigValue& v, const std::string& where) {
  bool ok = true;
  switch (key.type) {
    case ConfigType::UInt: {
      const auto x = std::get<std::uint64_t>(v);
      ok = x >= std::get<std::uint64_t>(key.min) && x <= std::get<std::uint64_t>(key.max);
      break;
    }
    case ConfigType::Int: {
      const auto x = std::get<std::int64_t>(v);
      ok = x >= std::get<std::int64_t>(key.min) && x <= std::get<std::int64_t>(key.max);
      break;
    }
    case ConfigType::Double: {
      const double x = std::get<double>(v);
      ok = std::isfinite(x) && x >= std::get<double>(key.min) && x <= std::get<double>(key.max);
      break;
    }
    case ConfigType::Enum: {
      const auto& s = std::get<std::string>(v);
      if (std::find(key.planned.begin(), key.planned.end(), s) != key.planned.end()) {
        fail(where, "key '" + key.path + "' = '" + s + "' is not built yet; built: " + join(key.allowed, ", "));
      }
      if (std::find(key.allowed.begin(), key.allowed.end(), s) == key.allowed.end()) {
        fail(where, "key '" + key.path + "' = '" + s + "' is not an allowed value; allowed: " +
                        join(key.allowed, ", ") + did_you_mean(nearest(s, key.allowed)));
      }
      return;
    }
    case ConfigType::Bool:
    case ConfigType::String: return;
  }
  if (!ok) {
    fail(where, "key '" + key.path + "' = " + format_config_value(v) + " is out of range " + range_text(key) +
                    (key.unit.empty() ? std::string() : " (" + key.unit + ")"));
  }
}

[[noreturn]] void fail_negative(const ConfigKey& key, const std::string& text, const std::string& where) {
  fail(where, "key '" + key.path + "' = " + text + " is out of range " + range_text(key) +
                  (key.unit.empty() ? std::string() : " (" + key.unit + ")"));
}

std::string json_phrase(const ordered_json& j) {
  std::string text = j.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  switch (j.type()) {
    case ordered_json::value_t::object: return "an object";
    case ordered_json::value_t::array: return "an array";
    case ordered_json::value_t::null: return "null";
    case ordered_json::value_t::string: return "string " + text;
    case ordered_json::value_t::boolean: return "boolean " + text;
    default: return "number " + text;
  }
}

[[noreturn]] void fail_type(const ConfigKey& key, const std::string& got, const std::string& where) {
  std::string expected = type_phrase(key.type);
  if (key.type == ConfigType::Enum) expected += " (one of " + join(key.allowed, ", ") + ")";
  fail(where, "key '" + key.path + "' expects " + expected + ", got " + got);
}

ConfigValue from_json(const ConfigKey& key, const ordered_json& j, const std::string& where) {
  ConfigValue v;
  switch (key.type) {
    case ConfigType::UInt:
      if (j.is_number_unsigned()) {
        v = j.get<std::uint64_t>();
      } else if (j.is_number_integer()) {
        fail_negative(key, j.dump(), where);
      } else {
        fail_type(key, json_phrase(j), where);
      }
      break;
    case ConfigType::Int:
      if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          fail_negative(key, j.dump(), where);
        }
        v = static_cast<std::int64_t>(u);
      } else if (j.is_number_integer()) {
        v = j.get<std::int64_t>();
      } else {
        fail_type(key, json_phrase(j), where);
      }
      break;
    case ConfigType::Double:
      if (!j.is_number()) fail_type(key, json_phrase(j), where);
      v = j.get<double>();
      break;
    case ConfigType::Bool:
      if (!j.is_boolean()) fail_type(key, json_phrase(j), where);
      v = j.get<bool>();
      break;
    case ConfigType::String:
    case ConfigType::Enum:
      if (!j.is_string()) fail_type(key, json_phrase(j), where);
      v = j.get<std::string>();
      break;
  }
  check_range(key, v, where);
  return v;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return std::string();
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

ConfigValue from_text(const ConfigKey& key, const std::string& raw, const std::string& where) {
  const std::string text = trim(raw);
  ConfigValue v;
  const std::string got = "'" + raw + "'";
  switch (key.type) {
    case ConfigType::UInt: {
      if (!text.empty() && text[0] == '-') {
        // A well-formed negative integer is a range error, anything else a type error.
        char* end = nullptr;
        errno = 0;
        (void)std::strtoll(text.c_str(), &end, 10);
        if (end && *end == '\0' && text.size() > 1) fail_negative(key, text, where);
        fail_type(key, got, where);
      }
      const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
      const std::string digits = hex ? text.substr(2) : text;
      const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
      if (digits.empty() || digits.find_first_not_of(allowed) != std::string::npos) fail_type(key, got, where);
      errno = 0;
      const unsigned long long x = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
      if (errno == ERANGE) fail_negative(key, text, where);
      v = static_cast<std::uint64_t>(x);
      break;
    }
    case ConfigType::Int: {
      char* end = nullptr;
      errno = 0;
      const long long x = std::strtoll(text.c_str(), &end, 0);
      if (text.empty() || *end != '\0') fail_type(key, got, where);
      if (errno == ERANGE) fail_negative(key, text, where);
      v = static_cast<std::int64_t>(x);
      break;
    }
    case ConfigType::Double: {
      char* end = nullptr;
      const double x = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(x)) fail_type(key, got, where);
      v = x;
      break;
    }
    case ConfigType::Bool: {
      const std::string t = lower(text);
      if (t == "true" || t == "1" || t == "yes" || t == "on") {
        v = true;
      } else if (t == "false" || t == "0" || t == "no" || t == "off") {
        v = false;
      } else {
        fail_type(key, got, where);
      }
      break;
    }
    case ConfigType::String:
    case ConfigType::Enum: {
      std::string s = text;
      if (s.size() >= 2 && ((s.front() == '"' && s.back() == '"') || (s.front() == '\'' && s.back() == '\''))) {
        s = s.substr(1, s.size() - 2);
      }
      v = s;
      break;
    }
  }
  check_range(key, v, where);
  return v;
}

// First leaf path under an object (for suggesting a key when a whole group is misspelt).
std::string first_leaf(const std::string& prefix, const ordered_json& j) {
  if (!j.is_object()) return prefix;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.key().empty() && it.key()[0] == '$') continue;
    return first_leaf(prefix + "." + it.key(), it.value());
  }
  return prefix;
}

ordered_json to_json_value(const ConfigValue& v) {
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return ordered_json(*u);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return ordered_json(*i);
  if (const auto* d = std::get_if<double>(&v)) return ordered_json(*d);
  if (const auto* b = std::get_if<bool>(&v)) return ordered_json(*b);
  return ordered_json(std::get<std::string>(v));
}

void set_path(ordered_json& root, const std::string& path, ordered_json value) {
  ordered_json* node = &root;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    if (dot == std::string::npos) {
      (*node)[path.substr(start)] = std::move(value);
      return;
    }
    node = &(*node)[path.substr(start, dot - start)];
    start = dot + 1;
  }
}

}  // namespace config_detail

using namespace config_detail;

const ConfigKey* find_config_key(const std::string& path) {
  const auto& index = schema_index();
  const auto it = index.find(path);
  return it == index.end() ? nullptr : &config_schema()[it->second];
}

std::string nearest_config_key(const std::string& path) {
  // A key that ends with what was typed (a missing "gpu." prefix) is the best guess.
  if (!path.empty()) {
    for (const ConfigKey& k : config_schema()) {
      if (k.path.size() > path.size() && k.path.compare(k.path.size() - path.size(), path.size(), path) == 0 &&
          k.path[k.path.size() - path.size() - 1] == '.') {
        return k.path;
      }
    }
  }
  std::vector<std::string> paths;
  paths.reserve(config_schema().size());
  for (const ConfigKey& k : config_schema()) paths.push_back(k.path);
  return nearest(path, paths);
}

const std::vector<std::string>& config_preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [name, text] : config_detail::embedded_presets()) n.push_back(name);
    return n;
  }();
  return names;
}

Config::Config() {
  const auto& schema = config_schema();
  values_.reserve(schema.size());
  for (const ConfigKey& k : schema) values_.push_back(k.default_value);
  origins_.assign(schema.size(), "default");
}

Config Config::preset(const std::string& name) {
  Config cfg;
  cfg.load_string(preset_json(name), "preset " + name);
  return cfg;
}

const std::string& Config::preset_json(const std::string& name) {
  for (const auto& [n, text] : config_detail::embedded_presets()) {
    if (n == name) return text;
  }
  throw Error(ErrorKind::Config, "unknown preset '" + name + "'; built-in presets: " +
                                     join(config_preset_names(), ", ") +
                                     did_you_mean(nearest(name, config_preset_names())));
}

void Config::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Input, "cannot read configuration file '" + path + "': " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  load_string(text.str(), path);
}

void Config::load_string(const std::string& json_text, const std::string& origin) {
  const ordered_json tree = parse_ordered_json_input(json_text, origin, ErrorKind::Config);
  if (!tree.is_object()) {
    fail(origin, "the top level must be a JSON object of keys, got " + json_phrase(tree));
  }
  std::unordered_map<std::string, std::string> given;
  apply_tree(tree, "", "", origin, given);
}

void Config::apply_tree(const ordered_json& tree, const std::string& prefix, const std::string& spelling,
                        const std::string& origin, std::unordered_map<std::string, std::string>& given) {
  for (auto it = tree.begin(); it != tree.end(); ++it) {
    const std::string& name = it.key();
    if (!name.empty() && name[0] == '$') continue;  // "$comment" and other metadata
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const std::string spelt = spelling + "\"" + name + "\"";
    const ordered_json& value = it.value();
    if (const ConfigKey* key = find_config_key(path)) {
      const auto [first, fresh] = given.emplace(path, spelt);
      if (!fresh) {
        fail(origin, "key '" + path + "' is given twice: as " + first->second + " and as " + spelt +
                         "; give each key once");
      }
      assign(static_cast<std::size_t>(key - config_schema().data()), from_json(*key, value, origin), origin);
    } else if (!name.empty() && is_group(path)) {
      if (!value.is_object()) {
        std::vector<std::string> members;
        for (const ConfigKey& k : config_schema()) {
          if (k.path.compare(0, path.size() + 1, path + ".") == 0 && members.size() < 4) members.push_back(k.path);
        }
        fail(origin, "key '" + path + "' is a group of keys (" + join(members, ", ") +
                         ", ...) and needs a JSON object, got " + json_phrase(value));
      }
      apply_tree(value, path, spelt + " > ", origin, given);
    } else {
      fail_unknown_key(origin, value.is_object() ? first_leaf(path, value) : path);
    }
  }
}

void Config::apply_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key = eq == std::string::npos ? std::string() : trim(assignment.substr(0, eq));
  if (key.empty()) {
    throw Error(ErrorKind::Config, "-p '" + assignment + "': expected key=value (e.g. -p gpu.l1d.sets=64)");
  }
  set(key, assignment.substr(eq + 1));
}

void Config::set(const std::string& key, const std::string& value_text, const std::string& origin) {
  const std::string where = origin.empty() ? "-p " + key + "=" + value_text : origin;
  const ConfigKey* k = find_config_key(key);
  if (!k) {
    if (is_group(key)) {
      fail(where, "key '" + key + "' is a group of keys, not a key; name a key inside it" +
                      did_you_mean(nearest_config_key(key)));
    }
    fail_unknown_key(where, key);
  }
  assign(static_cast<std::size_t>(k - config_schema().data()), from_text(*k, value_text, where),
         origin.empty() ? "-p" : origin);
}

void Config::assign(std::size_t index, ConfigValue value, const std::string& origin) {
  values_[index] = std::move(value);
  origins_[index] = origin;
}

std::size_t Config::index_of(const std::string& key) const {
  const auto& index = schema_index();
  const auto it = index.find(key);
  if (it == index.end()) {
    throw Error(ErrorKind::Internal,
                "unknown configuration key '" + key + "' requested" + did_you_mean(nearest_config_key(key)));
  }
  return it->second;
}

const ConfigValue& Config::typed(const std::string& key, ConfigType type) const {
  const std::size_t i = index_of(key);
  const ConfigType actual = config_schema()[i].type;
  const bool ok = actual == type || (type == ConfigType::String && actual == ConfigType::Enum);
  if (!ok) {
    throw Error(ErrorKind::Internal, "configuration key '" + key + "' is of type " + to_string(actual) +
                                         ", read as " + to_string(type));
  }
  return values_[i];
}

std::uint64_t Config::u64(const std::string& key) const {
  return std::get<std::uint64_t>(typed(key, ConfigType::UInt));
}

std::uint32_t Config::u32(const std::string& key) const {
  const std::uint64_t v = u64(key);
  if (v > std::numeric_limits<std::uint32_t>::max()) {
    throw Error(ErrorKind::Config, "key '" + key + "' = " + std::to_string(v) + " (from " + origin(key) +
                                       ") does not fit in 32 bits where the model uses it");
  }
  return static_cast<std::uint32_t>(v);
}

std::int64_t Config::i64(const std::string& key) const { return std::get<std::int64_t>(typed(key, ConfigType::Int)); }
double Config::f64(const std::string& key) const { return std::get<double>(typed(key, ConfigType::Double)); }
bool Config::boolean(const std::string& key) const { return std::get<bool>(typed(key, ConfigType::Bool)); }
const std::string& Config::str(const std::string& key) const {
  return std::get<std::string>(typed(key, ConfigType::String));
}
const ConfigValue& Config::value(const std::string& key) const { return values_[index_of(key)]; }
const std::string& Config::origin(const std::string& key) const { return origins_[index_of(key)]; }

ordered_json Config::to_json() const {
  ordered_json root = ordered_json::object();
  const auto& schema = config_schema();
  for (std::size_t i = 0; i < schema.size(); ++i) set_path(root, schema[i].path, to_json_value(values_[i]));
  return root;
}

std::string Config::effective_json() const { return to_json().dump(2) + "\n"; }

std::string Config::summary() const {
  std::ostringstream out;
  const auto& schema = config_schema();
  std::size_t width = 0;
  for (std::size_t i = 0; i < schema.size(); ++i) {
    if (values_[i] != schema[i].default_value) width = std::max(width, schema[i].path.size());
  }
  out << "configuration: " << std::get<std::string>(values_[index_of("gpu.name")])
      << " (keys differing from the built-in gtx480 defaults)\n";
  bool any = false;
  for (std::size_t i = 0; i < schema.size(); ++i) {
    if (values_[i] == schema[i].default_value) continue;
    any = true;
    out << "  " << schema[i].path << std::string(width - schema[i].path.size() + 1, ' ') << "= "
        << format_config_value(values_[i]) << "  (" << origins_[i] << ")\n";
  }
  if (!any) out << "  (none)\n";
  return out.str();
}

Config load_config(const std::vector<std::string>& files, const std::vector<std::string>& overrides) {
  Config cfg;
  for (const std::string& f : files) cfg.load_file(f);
  for (const std::string& o : overrides) cfg.apply_override(o);
  cfg.validate();
  return cfg;
}

}  // namespace simtlm
