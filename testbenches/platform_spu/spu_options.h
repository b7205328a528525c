// Device options of a p x p SPU (sim.platform = spu, p x p grid SMs) with
// configuration overrides ("key=value", as -p), shared by the SPU platform
// tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/config.h"
#include "simtlm/device.h"

namespace simtlm::test {

inline DeviceOptions spu_device_options(uint32_t p, Backend backend = Backend::Timing,
                                        const std::vector<std::string>& overrides = {}) {
  auto cfg = std::make_shared<Config>();
  cfg->set("sim.platform", "spu");
  cfg->set("spu.grid_size", std::to_string(p));
  cfg->set("gpu.num_sms", std::to_string(p * p));
  for (const std::string& o : overrides) cfg->apply_override(o);
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  return o;
}

}  // namespace simtlm::test
