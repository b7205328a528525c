// Options of the front-end pass pipeline: per pass name, text key/value
// parameters with typed accessors. The front end knows nothing of Config: the
// runtime makes this value from the configuration (runtime/pass_config.h) and
// the pipeline checks it against the registered passes (pipeline.h), so an
// unknown pass or key is an error before anything runs.
//
// The key "enabled" (true/false) switches a pass on or off; every other key is
// a parameter the pass declares (PassInfo::option_keys).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace simtlm::frontend {

// The parameters of one pass. Typed accessors throw Error(Config) naming
// "<origin>: pass '<pass>' option '<key>'" when a value does not parse.
class PassParams {
 public:
  PassParams() = default;
  PassParams(std::string pass, std::string origin) : pass_(std::move(pass)), origin_(std::move(origin)) {}

  void set(const std::string& key, const std::string& value) { values_[key] = value; }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::optional<std::string> get(const std::string& key) const;

  std::string text(const std::string& key, const std::string& fallback) const;
  uint64_t u64(const std::string& key, uint64_t fallback) const;
  double real(const std::string& key, double fallback) const;
  bool flag(const std::string& key, bool fallback) const;

  const std::map<std::string, std::string>& values() const { return values_; }
  const std::string& pass() const { return pass_; }
  bool operator==(const PassParams& o) const { return values_ == o.values_; }

 private:
  [[noreturn]] void bad(const std::string& key, const std::string& what) const;
  std::string pass_;
  std::string origin_;  // where the options came from, for messages
  std::map<std::string, std::string> values_;
};

class PassOptions {
 public:
  // `origin` names where the options come from in messages (a config key).
  explicit PassOptions(std::string origin = "pass options") : origin_(std::move(origin)) {}

  void set(const std::string& pass, const std::string& key, const std::string& value);
  void enable(const std::string& pass, bool on) { set(pass, "enabled", on ? "true" : "false"); }

  // The parameters given for `pass` (empty when none were).
  const PassParams& params(const std::string& pass) const;
  // Passes with any option, by name.
  const std::map<std::string, PassParams>& passes() const { return passes_; }
  const std::string& origin() const { return origin_; }

  // Parses "pass.key=value" items separated by ';' (spaces around items are
  // ignored; "" is no options), e.g. "my_pass.enabled=true; my_pass.limit=4".
  // Error(Config) "<origin>: ..." naming the malformed item.
  static PassOptions parse(const std::string& text, const std::string& origin);

  // Canonical text of every option (the parse() syntax, sorted): equal
  // options give equal text, so it can key a cache.
  std::string canonical() const;

  bool operator==(const PassOptions& o) const { return passes_ == o.passes_; }

 private:
  std::string origin_;
  std::map<std::string, PassParams> passes_;
};

}  // namespace simtlm::frontend
