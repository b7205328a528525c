#include "platforms/vws/vws_platform.h"

#include "models/vws/ganging_unit.h"
#include "platforms/common/platform_registry.h"

namespace simtlm::platforms {

namespace {

const PlatformRegistration kVws("vws", [](const sc_core::sc_module_name& name, const Config& cfg) {
  return std::make_unique<VwsPlatform>(name, cfg);
});

}  // namespace

VwsPlatform::VwsPlatform(const sc_core::sc_module_name& name, const Config& cfg)
    : GpuPlatform(name, cfg,
                  [](const Config& c, unsigned i) {  // c is validated by then (Platform's constructor)
                    return models::vws::vws_sm_params(models::sm_params_from_config(c, i),
                                                      models::vws::vws_params_from_config(c));
                  },
                  [&cfg](models::Sm& sm, unsigned) {
                    // Mixed mode: the slice-only SM plus the warp ganging unit.
                    const models::vws::VwsParams v = models::vws::vws_params_from_config(cfg);
                    if (v.mode != models::vws::Mode::Mixed) return;
                    models::vws::GangingUnit::install(sm, models::vws::ganging_params(v, sm.params()));
                  }),
      vws_(models::vws::vws_params_from_config(cfg)) {}

}  // namespace simtlm::platforms
