// GpuPlatform: construction from the configuration and socket binding; each
// module reads its own parameters (models/*/..._config.cpp). Statistics of the
// memory side and its summary lines are in gpu_stats.cpp.
#include "platforms/gpu/gpu_platform.h"

#include "platforms/common/platform_registry.h"
#include "simtlm/error.h"

namespace simtlm::platforms {

using models::Cache;
using models::Crossbar;
using models::DramChannel;
using models::MemMux;
using models::Sm;

namespace {

const PlatformRegistration kGpu("gpu", [](const sc_core::sc_module_name& name, const Config& cfg) {
  return std::make_unique<GpuPlatform>(name, cfg);
});

const Config& checked(const Config& cfg) {
  cfg.validate();
  return cfg;
}

}  // namespace

GpuPlatform::GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg)
    : GpuPlatform(name, cfg, [](const Config& c, unsigned i) { return models::sm_params_from_config(c, i); }) {}

GpuPlatform::GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg, const SmParamsFn& sm_params,
                         const SmSetupFn& setup)
    : GpuPlatform(name, cfg, sm_params, Deferred{}, setup) {
  finish_construction();
}

GpuPlatform::GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg, const SmParamsFn& sm_params,
                         Deferred deferred, const SmSetupFn& setup)
    : Platform(name, checked(cfg)) {
  const unsigned n = cfg.u32("gpu.num_sms");
  for (unsigned i = 0; i < n; ++i) {
    const std::string sm_name = "sm[" + std::to_string(i) + "]";
    Sm& sm = add_sm(std::make_unique<Sm>(sm_name.c_str(), sm_params(cfg, i)));
    if (setup) setup(sm, i);
  }
  build_memory_side(deferred.extra_noc_ports);
  bind_all();
}

GpuPlatform::~GpuPlatform() = default;

void GpuPlatform::build_memory_side(unsigned extra_noc_ports) {
  const Config& cfg = config();
  const unsigned channels = cfg.u32("gpu.dram.channels");
  l2_enabled_ = cfg.boolean("gpu.l2.enabled");
  sub_partitions_ = l2_enabled_ ? cfg.u32("gpu.l2.sub_partitions_per_channel") : 1;
  const unsigned ports = channels * sub_partitions_;
  const uint64_t interleave = cfg.u64("gpu.l2.interleave_bytes");
  slice_map_ = cfg.str("gpu.l2.slice_hash") == "xor" ? models::xor_interleave(ports, interleave)
                                                      : models::linear_interleave(ports, interleave);
  const models::DramParams dp = models::dram_params_from_config(cfg, interleave * sub_partitions_);
  for (unsigned c = 0; c < channels; ++c) {
    const std::string nm = "dram[" + std::to_string(c) + "]";
    dram_.push_back(std::make_unique<DramChannel>(nm.c_str(), dp));
  }
  if (l2_enabled_) {
    const models::CacheParams lp = models::l2_params_from_config(cfg);
    for (unsigned s = 0; s < ports; ++s) {
      const std::string nm = "l2[" + std::to_string(s) + "]";
      l2_.push_back(std::make_unique<Cache>(nm.c_str(), lp));
    }
    if (sub_partitions_ > 1) {
      for (unsigned c = 0; c < channels; ++c) {
        const std::string nm = "dram_mux[" + std::to_string(c) + "]";
        dram_mux_.push_back(std::make_unique<MemMux>(nm.c_str(), sub_partitions_));
      }
    }
  }
  noc_ = std::make_unique<Crossbar>("noc", models::xbar_params_from_config(cfg, num_sms() + extra_noc_ports, ports), slice_map_);
}

// Every socket of the platform is bound here.
void GpuPlatform::bind_all() {
  for (unsigned i = 0; i < num_sms(); ++i) sm(i).mem_socket().bind(noc_->target_socket(i));
  if (!l2_enabled_) {
    for (unsigned c = 0; c < dram_.size(); ++c) noc_->initiator_socket(c).bind(dram_[c]->target_socket);
    return;
  }
  for (unsigned s = 0; s < l2_.size(); ++s) {
    noc_->initiator_socket(s).bind(l2_[s]->target_socket);
    const unsigned channel = s / sub_partitions_;
    if (dram_mux_.empty()) {
      l2_[s]->initiator_socket.bind(dram_[channel]->target_socket);
    } else {
      l2_[s]->initiator_socket.bind(dram_mux_[channel]->target_socket(s % sub_partitions_));
    }
  }
  for (unsigned c = 0; c < dram_mux_.size(); ++c) dram_mux_[c]->initiator_socket().bind(dram_[c]->target_socket);
}

}  // namespace simtlm::platforms
