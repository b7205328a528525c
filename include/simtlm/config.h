// Configuration of a simulated GPU: one schema table of every key (dotted path
// mirroring the module hierarchy, type, default, unit, range, meaning and the
// source of the preset values), merged from the fragments each module folder
// declares; JSON presets with nested objects, `-p key=value` overrides, strict
// validation and typed accessors.
//
// Typical use (CLI, platform builder, testbench):
//
//   simtlm::Config cfg;                          // built-in defaults (= gtx480)
//   cfg.load_file("configs/tesla_c2050.json");   // a preset, applied on top
//   cfg.apply_override("gpu.l1d.sets=64");       // -p overrides, in order
//   cfg.validate();                              // cross-key checks
//   unsigned sets = cfg.u32("gpu.l1d.sets");
//
// Every problem ends in one simtlm::Error(ErrorKind::Config) whose message names
// the origin (file or "-p key=value") and the key; see docs/config-reference.md.
//
// Adding a key: add it to its module's fragment (models/<module>/*_config_keys.cpp,
// see models/common/config_keys.h) with the built-in (gtx480) value and a
// source, give it its value in every configs/<preset>.json (each preset names
// every key; the files are embedded at build time and are the source of truth
// for their values), regenerate docs/config-reference.md with
// scripts/gen_config_reference.sh, and add a cross-key rule to
// Config::validate() if the key constrains others. See docs/architecture.md,
// "Adding a configuration key".
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "simtlm/error.h"

namespace simtlm {

enum class ConfigType {
  UInt,    // std::uint64_t
  Int,     // std::int64_t
  Double,  // double
  Bool,    // bool
  String,  // free text
  Enum,    // one of ConfigKey::allowed (held as std::string)
};

const char* to_string(ConfigType type);

// A value of one key: always the alternative matching the key's type
// (String and Enum keys hold std::string).
using ConfigValue = std::variant<std::uint64_t, std::int64_t, double, bool, std::string>;

// Text form of a value as it appears in -p overrides and in the reference.
std::string format_config_value(const ConfigValue& value);

// One row of the schema table.
struct ConfigKey {
  std::string path;                  // "gpu.l1d.sets"
  ConfigType type = ConfigType::UInt;
  ConfigValue default_value;         // built-in default = the gtx480 preset value
  std::string unit;                  // "" when dimensionless
  ConfigValue min, max;              // inclusive range (numeric types only)
  std::vector<std::string> allowed;  // Enum only
  std::vector<std::string> planned;  // Enum only: named values not built yet (rejected at load)
  std::string description;
  std::string source;                // where the preset values come from
};

// The schema, in table order (grouped by module).
const std::vector<ConfigKey>& config_schema();
// The key with this exact path, or nullptr.
const ConfigKey* find_config_key(const std::string& path);
// The valid key nearest to `path` by edit distance ("" if nothing is close).
std::string nearest_config_key(const std::string& path);

// Names of the built-in presets: every configs/<name>.json embedded at build
// time ("gtx480", "tesla_c2050"), sorted.
const std::vector<std::string>& config_preset_names();

class Config {
 public:
  // Built-in defaults: the gtx480 preset.
  Config();

  // A built-in preset by name: the defaults with configs/<name>.json (as
  // embedded at build time) applied.
  static Config preset(const std::string& name);

  // Apply a JSON file on top of the current values. Nested objects and dotted
  // member names are both accepted ({"gpu": {"l1d": {"sets": 32}}} or
  // {"gpu.l1d.sets": 32}); members whose name starts with '$' (e.g. "$comment")
  // are ignored. Throws Error(Input) when the file cannot be read.
  void load_file(const std::string& path);
  // Same for JSON text; `origin` names it in messages (a path or "<string>").
  void load_string(const std::string& json_text, const std::string& origin);
  // One `-p key=value` override; the value is parsed per the key's type.
  void apply_override(const std::string& assignment);
  // Set one key from its text form (as in -p); origin defaults to "-p key=value".
  void set(const std::string& key, const std::string& value_text, const std::string& origin = "");

  // Cross-key checks (geometry, divisibility, consistency between blocks).
  // Call once after every file and override has been applied.
  void validate() const;

  // Typed accessors. An unknown key or a key of another type is a programming
  // error: Error(Internal) naming the key (and the nearest valid key).
  std::uint64_t u64(const std::string& key) const;
  std::uint32_t u32(const std::string& key) const;  // also checks the value fits
  std::int64_t i64(const std::string& key) const;
  double f64(const std::string& key) const;
  bool boolean(const std::string& key) const;
  const std::string& str(const std::string& key) const;  // String and Enum keys
  const ConfigValue& value(const std::string& key) const;
  // Where the effective value came from: "default", a file path or "-p".
  const std::string& origin(const std::string& key) const;

  // Every key with its effective value as nested JSON in table order, pretty
  // printed; loading it back (load_string/load_file) reproduces this Config.
  std::string effective_json() const;
  nlohmann::ordered_json to_json() const;
  // The keys whose value differs from the built-in default, with their origin.
  std::string summary() const;

  // `simtlm config describe`: every key with type, default, unit, range, meaning.
  static std::string describe();
  // docs/config-reference.md, generated from the same table.
  static std::string reference_markdown();
  // Text of configs/<name>.json as embedded at build time.
  static const std::string& preset_json(const std::string& name);

  bool operator==(const Config& other) const { return values_ == other.values_; }
  bool operator!=(const Config& other) const { return !(*this == other); }

 private:
  std::size_t index_of(const std::string& key) const;  // Internal error if unknown
  const ConfigValue& typed(const std::string& key, ConfigType type) const;
  void assign(std::size_t index, ConfigValue value, const std::string& origin);
  // `given`: every key this tree set so far, with the member names that
  // spelt it (a key given twice in one file, nested and dotted, is an error).
  void apply_tree(const nlohmann::ordered_json& tree, const std::string& prefix, const std::string& spelling,
                  const std::string& origin, std::unordered_map<std::string, std::string>& given);

  std::vector<ConfigValue> values_;  // indexed like config_schema()
  std::vector<std::string> origins_;
};

// Convenience for front ends: defaults, then each file in order, then each
// override in order, then validate().
Config load_config(const std::vector<std::string>& files, const std::vector<std::string>& overrides);

}  // namespace simtlm
