#include "platforms/vws/vws_platform.h"

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
                  }),
      vws_(models::vws::vws_params_from_config(cfg)) {}

}  // namespace simtlm::platforms
