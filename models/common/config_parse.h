// Reading a configuration value into a module's own type, for the modules'
// *_params_from_config functions.
#pragma once

#include <string>

#include "simtlm/config.h"

namespace simtlm {

// The value of `key` parsed by the module's `parse` (e.g. parse_page_policy);
// Error(Config) naming the key when the module does not implement the value.
template <typename T>
T parse_config_choice(bool (*parse)(const std::string&, T&), const Config& cfg, const std::string& key) {
  T out{};
  if (!parse(cfg.str(key), out)) {
    throw Error(ErrorKind::Config, key + " '" + cfg.str(key) + "' is not supported by the platform");
  }
  return out;
}

}  // namespace simtlm
