// The variable-warp-sizing GPU (sim.platform = vws; seed 002 Ch. 6): the
// baseline GPU's topology (platforms/gpu/) whose SMs are VWS SMs, shaped by
// gpu.vws.* (models/vws/vws_params.h): ganged-only (= WS32), slice-only
// (= WS4) or mixed (slice-only plus the warp ganging unit,
// models/vws/ganging_unit.h, installed on every SM). The memory side, statistics and summary are the gpu
// platform's; in slice mode each SM adds gpu.sm[i].vws.* (per-slice fetches,
// fetches per cycle, active lanes per issued instruction: the figures the
// ganging unit registers in mixed mode, where they are meaningful without it).
#pragma once

#include "models/vws/vws_params.h"
#include "platforms/gpu/gpu_platform.h"

namespace simtlm::platforms {

class VwsPlatform final : public GpuPlatform {
 public:
  // Throws Error(Config) for a configuration the platform cannot build.
  VwsPlatform(const sc_core::sc_module_name& name, const Config& cfg);

  const models::vws::VwsParams& vws() const { return vws_; }

 protected:
  void register_topology_stats(const stats::Group& top) override;

 private:
  models::vws::VwsParams vws_;
};

}  // namespace simtlm::platforms
