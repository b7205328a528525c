// The baseline GPU: one builder of topology on the shared launch machinery
// (Platform). It owns every child module and binds every socket in one place,
// the constructor (Accellera TLM example style):
//
//   sm[i] (with its L1D) ──▶ noc (request network) ──▶ l2[s] ──▶ dram_mux[c] ──▶ dram[c]
//   sm[i] ◀── noc (reply network) ◀── l2[s] ◀── dram_mux[c] ◀── dram[c]
//
// Built from the configuration tree (gpu.*): gpu.num_sms SMs, one crossbar
// (request and reply networks), channels x sub_partitions_per_channel L2
// slices (address -> slice by gpu.l2.slice_hash over gpu.l2.interleave_bytes;
// slice s belongs to channel s / sub_partitions_per_channel), one DramChannel
// per channel behind a MemMux joining its sub-partitions. With gpu.l2.enabled
// = false the crossbar's memory ports are the DRAM channels themselves.
// Clock domains: SMs on core_mhz, crossbar on noc_mhz, L2 on l2_mhz, DRAM on
// dram_mhz. Timing payloads carry no data: the functional model reads and
// writes the device's GlobalMemory at issue. Registered as sim.platform "gpu".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/cache/cache.h"
#include "models/dram/dram_channel.h"
#include "models/noc/address_map.h"
#include "models/noc/crossbar.h"
#include "models/sm/mem_mux.h"
#include "models/sm/sm_params.h"
#include "platforms/common/platform.h"

namespace simtlm::platforms {

class GpuPlatform : public Platform {
 public:
  // Throws Error(Config) for a configuration the platform cannot build.
  GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg);
  ~GpuPlatform() override;

  // The parameters of SM i (sm_params_from_config for the baseline GPU).
  using SmParamsFn = std::function<models::SmParams(const Config&, unsigned sm)>;
  // What a platform variant adds to SM i once it is built (e.g. the vws
  // platform's warp ganging unit), before the statistics are registered.
  using SmSetupFn = std::function<void(models::Sm&, unsigned sm)>;

  models::Cache& l2_slice(unsigned s) { return *l2_.at(s); }
  unsigned num_l2_slices() const { return static_cast<unsigned>(l2_.size()); }
  models::DramChannel& dram(unsigned c) { return *dram_.at(c); }
  unsigned num_dram_channels() const { return static_cast<unsigned>(dram_.size()); }
  models::Crossbar& noc() { return *noc_; }
  // Memory-side port (L2 slice, or DRAM channel without an L2) of an address.
  unsigned memory_port_of(uint64_t addr) const { return slice_map_(addr); }

 protected:
  // A GPU of the same topology whose SMs have the parameters `sm_params`
  // gives, each completed by `setup` when given (a platform variant such as vws).
  GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg, const SmParamsFn& sm_params,
              const SmSetupFn& setup = {});
  // The same with `extra_noc_ports` more crossbar ports after the SMs' (for
  // units besides the SMs that reach global memory, e.g. the SPU's interface
  // units: noc().target_socket(num_sms() + k)), and without
  // finish_construction(): the derived builder adds its modules, binds them
  // and calls it (so that its statistics overrides are the ones registered).
  struct Deferred {
    unsigned extra_noc_ports = 0;
  };
  GpuPlatform(const sc_core::sc_module_name& name, const Config& cfg, const SmParamsFn& sm_params, Deferred deferred,
              const SmSetupFn& setup = {});

  void register_topology_stats(const stats::Group& top) override;
  void refresh_topology_stats() override;
  void summarize_topology(const stats::Values& values, const SummaryLine& line) const override;
  std::vector<std::pair<std::string, double>> clock_domains() const override;

 private:
  void build_memory_side(unsigned extra_noc_ports);
  void bind_all();

  std::unique_ptr<models::Crossbar> noc_;
  std::vector<std::unique_ptr<models::Cache>> l2_;
  std::vector<std::unique_ptr<models::MemMux>> dram_mux_;
  std::vector<std::unique_ptr<models::DramChannel>> dram_;
  models::AddressMap slice_map_;
  unsigned sub_partitions_ = 1;
  bool l2_enabled_ = true;
};

}  // namespace simtlm::platforms
