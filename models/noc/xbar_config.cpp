// The crossbar's parameters from the configuration (gpu.noc.*, gpu.clocks.noc_mhz).
#include "models/common/clock_domain.h"
#include "models/noc/xbar_params.h"
#include "simtlm/config.h"

namespace simtlm::models {

XbarParams xbar_params_from_config(const Config& cfg, unsigned requesters, unsigned memory_ports) {
  XbarParams p;
  p.ports_in = requesters;
  p.ports_out = memory_ports;
  p.latency = cfg.u32("gpu.noc.latency");
  p.flit_bytes = cfg.u32("gpu.noc.flit_bytes");
  p.header_bytes = cfg.u32("gpu.noc.header_bytes");
  p.flits_per_cycle = cfg.u32("gpu.noc.port_bandwidth_flits");
  p.input_buffer_flits = cfg.u32("gpu.noc.buffer_flits");
  p.output_buffer_flits = cfg.u32("gpu.noc.buffer_flits");
  if (cfg.str("gpu.noc.topology") == "ideal") {
    // Fixed latency, bandwidth far above what any port can offer.
    p.flits_per_cycle = 64;
    p.input_buffer_flits = 1u << 20;
    p.output_buffer_flits = 1u << 20;
  }
  p.clock_period = period_from_mhz(cfg.f64("gpu.clocks.noc_mhz"));
  return p;
}

}  // namespace simtlm::models
