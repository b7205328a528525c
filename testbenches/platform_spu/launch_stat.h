// A top-level number of a launch's statistics JSON (LaunchStats::stats_json),
// shared by the SPU platform tests; a missing or non-numeric key fails the
// test naming it and reads as -1.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "simtlm/device.h"

namespace simtlm::test {

inline double launch_stat(const LaunchStats& s, const std::string& key) {
  const nlohmann::json j = nlohmann::json::parse(s.stats_json());
  if (!j.contains(key) || !j[key].is_number()) {
    ADD_FAILURE() << "no statistic " << key;
    return -1;
  }
  return j[key].get<double>();
}

}  // namespace simtlm::test
