// Helpers of the platform-level tests: a timing Device built from the
// built-in gtx480 configuration plus -p style overrides (one timing device
// per process: gtest_discover_tests runs every TEST in its own process), and
// access to one launch's statistics window.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simtlm/config.h"
#include "simtlm/device.h"

namespace simtlm::test {

inline std::shared_ptr<Config> make_config(const std::vector<std::string>& overrides) {
  auto cfg = std::make_shared<Config>();
  for (const std::string& o : overrides) cfg->apply_override(o);
  cfg->validate();
  return cfg;
}

inline DeviceOptions timing_options(const std::shared_ptr<Config>& cfg) {
  DeviceOptions o;
  o.backend = Backend::Timing;
  o.config = cfg;
  o.warp_size = cfg->u32("gpu.sm.warp_size");
  o.num_sms = cfg->u32("gpu.num_sms");
  return o;
}

// One statistic of a launch's window (NaN when null).
inline double stat(const LaunchStats& s, const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(s.stats_json);
  if (!j.contains(name)) {
    ADD_FAILURE() << "no statistic " << name;
    return std::nan("");
  }
  return j[name].is_null() ? std::nan("") : j[name].get<double>();
}

}  // namespace simtlm::test
