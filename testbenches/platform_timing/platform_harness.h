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

// A kernel that can never progress: its two warps wait at different named
// barriers, each expecting 64 threads (watchdog and CLI exit-code tests).
inline const char* const kDeadlockPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry deadlock()
{
	.reg .b32 	%r<3>;
	.reg .pred 	%p<2>;

	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 32;
	@%p1 bra 	$L_first;
	bar.sync 	2, 64;
	bra.uni 	$L_done;
$L_first:
	bar.sync 	1, 64;
$L_done:
	ret;
}
)";

// One statistic of a launch's window (NaN when null).
inline double stat(const LaunchStats& s, const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(s.stats_json());
  if (!j.contains(name)) {
    ADD_FAILURE() << "no statistic " << name;
    return std::nan("");
  }
  return j[name].is_null() ? std::nan("") : j[name].get<double>();
}

}  // namespace simtlm::test
