#include "platforms/vws/vws_platform.h"

#include <string>

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
                  Deferred{},
                  [&cfg](models::Sm& sm, unsigned) {
                    // Mixed mode: the slice-only SM plus the warp ganging unit.
                    const models::vws::VwsParams v = models::vws::vws_params_from_config(cfg);
                    if (v.mode != models::vws::Mode::Mixed) return;
                    models::vws::GangingUnit::install(sm, models::vws::ganging_params(v, sm.params()));
                  }),
      vws_(models::vws::vws_params_from_config(cfg)) {
  finish_construction();  // here, so that register_topology_stats is this class's
}

void VwsPlatform::register_topology_stats(const stats::Group& gpu) {
  GpuPlatform::register_topology_stats(gpu);
  if (vws_.mode != models::vws::Mode::Slices) return;  // mixed: the ganging unit's; ganged: the baseline's
  for (unsigned i = 0; i < num_sms(); ++i) {
    const stats::Group sm = gpu.child("sm", i);
    const stats::Group g = sm.child("vws");
    const std::string wi = sm.path("warp_instructions"), ti = sm.path("thread_instructions");
    const std::string cycles = sm.path("active_cycles"), fetches = sm.path("fetches");
    if (!this->sm(i).stats().scheduler_fetches.empty()) {
      g.vector("slice_fetches", &this->sm(i).stats().scheduler_fetches, "fetches", "fetches per slice");
    }
    g.formula("issues", wi, "instructions", "instructions issued (one per slice instruction)");
    g.formula("lanes_per_issue", ti + " / " + wi, "lanes", "active lanes per issued instruction");
    g.formula("fetches_per_cycle", fetches + " / " + cycles, "fetches/cycle", "fetch/decodes per active cycle");
  }
}

}  // namespace simtlm::platforms
