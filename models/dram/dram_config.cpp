// A DRAM channel's parameters from the configuration (gpu.dram.*, gpu.clocks).
#include <cmath>
#include <string>

#include "models/common/clock_domain.h"
#include "models/common/config_parse.h"
#include "models/dram/dram_params.h"
#include "simtlm/config.h"

namespace simtlm::models {

DramParams dram_params_from_config(const Config& cfg, uint64_t channel_interleave) {
  DramParams p;
  p.banks = cfg.u32("gpu.dram.banks");
  p.bank_groups = cfg.u32("gpu.dram.bank_groups");
  p.row_bytes = cfg.u32("gpu.dram.row_bytes");
  // gpu.dram.row_bytes spans the channel's whole bus: all chips side by side.
  p.bus_width_bytes = cfg.u32("gpu.dram.bus_width_bytes") * cfg.u32("gpu.dram.chips_per_channel");
  p.burst_length = cfg.u32("gpu.dram.burst_length");
  p.data_rate = cfg.u32("gpu.dram.data_rate");
  p.queue_size = cfg.u32("gpu.dram.queue_size");
  const std::string sched = cfg.str("gpu.dram.scheduler");
  if (sched == "frfcfs") {
    p.scheduler = DramScheduler::FrFcfs;
  } else if (!parse_dram_scheduler(sched, p.scheduler)) {
    throw Error(ErrorKind::Config, "gpu.dram.scheduler '" + sched + "' is not supported by the DRAM channel");
  }
  p.page_policy = parse_config_choice(&parse_page_policy, cfg, "gpu.dram.page_policy");
  p.return_queue_size = cfg.u32("gpu.dram.return_queue_size");
  DramTiming& t = p.timing;
  t.tCL = cfg.u32("gpu.dram.timing.tCL");
  t.tWL = cfg.u32("gpu.dram.timing.tWL");
  t.tRCD = cfg.u32("gpu.dram.timing.tRCD");
  t.tRP = cfg.u32("gpu.dram.timing.tRP");
  t.tRAS = cfg.u32("gpu.dram.timing.tRAS");
  t.tRC = cfg.u32("gpu.dram.timing.tRC");
  t.tRRD = cfg.u32("gpu.dram.timing.tRRD");
  t.tCCD = cfg.u32("gpu.dram.timing.tCCD");
  t.tCCDL = cfg.u32("gpu.dram.timing.tCCDL");
  t.tWR = cfg.u32("gpu.dram.timing.tWR");
  t.tWTR = cfg.u32("gpu.dram.timing.tWTR");
  t.tCDLR = cfg.u32("gpu.dram.timing.tCDLR");
  t.tRTP = cfg.u32("gpu.dram.timing.tRTP");
  t.tRTPL = cfg.u32("gpu.dram.timing.tRTPL");
  t.tRTW = cfg.u32("gpu.dram.timing.tRTW");
  p.bank_interleave_bytes = cfg.u32("gpu.dram.bank_interleave_bytes");
  p.low_bank_bits = cfg.u32("gpu.dram.low_bank_bits");
  p.bank_xor = cfg.boolean("gpu.dram.bank_xor");
  p.channels = cfg.u32("gpu.dram.channels");
  p.channel_interleave_bytes = static_cast<uint32_t>(channel_interleave);
  // gpu.dram.fixed_latency is in L2 cycles; the channel counts DRAM cycles.
  const double l2_mhz = cfg.f64("gpu.clocks.l2_mhz");
  const double dram_mhz = cfg.f64("gpu.clocks.dram_mhz");
  p.frontend_latency = static_cast<uint32_t>(std::llround(cfg.u32("gpu.dram.fixed_latency") * dram_mhz / l2_mhz));
  p.backend_latency = 0;
  p.clock_period = period_from_mhz(dram_mhz);
  return p;
}

}  // namespace simtlm::models
