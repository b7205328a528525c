// The L2 slice's parameters from the configuration (gpu.l2.*, gpu.clocks.l2_mhz).
// The L1D's are part of the SM's (models/sm/sm_params.cpp).
#include <string>

#include "models/cache/cache_params.h"
#include "models/common/clock_domain.h"
#include "models/common/config_parse.h"
#include "simtlm/config.h"

namespace simtlm::models {

CacheParams l2_params_from_config(const Config& cfg) {
  CacheParams p;
  p.level = 2;
  p.sets = cfg.u32("gpu.l2.sets");
  p.ways = cfg.u32("gpu.l2.ways");
  p.line_bytes = cfg.u32("gpu.l2.line_bytes");
  p.sector_bytes = cfg.u32("gpu.l2.sector_bytes");
  p.mshrs = cfg.u32("gpu.l2.mshrs");
  p.mshr_merge_limit = cfg.u32("gpu.l2.mshr_merge");
  p.hit_latency = cfg.u32("gpu.l2.hit_latency");
  p.request_queue = cfg.u32("gpu.l2.request_queue_entries");
  p.miss_queue = cfg.u32("gpu.l2.miss_queue_entries");
  p.response_queue = cfg.u32("gpu.l2.response_queue_entries");
  p.data_port_bytes = cfg.u32("gpu.l2.data_port_bytes");
  p.write_policy = parse_config_choice(&parse_write_policy, cfg, "gpu.l2.write_policy");
  p.write_allocate = cfg.boolean("gpu.l2.write_allocate");
  p.allocate_on = parse_config_choice(&parse_allocate_policy, cfg, "gpu.l2.allocate_on");
  p.replacement = parse_config_choice(&parse_replacement_policy, cfg, "gpu.l2.replacement");
  // A slice sees every slices-th interleave chunk; an XOR-folded set index
  // spreads those lines over all sets (a linear index would use a fraction).
  p.set_index = SetIndex::Xor;
  p.index_divisor = 1;
  p.clock_period = period_from_mhz(cfg.f64("gpu.clocks.l2_mhz"));
  return p;
}

}  // namespace simtlm::models
