#include "models/sm/sm_params.h"

#include "models/common/clock_domain.h"
#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm::models {

namespace {
bool pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void SmParams::validate() const {
  const std::string who = "SM " + std::to_string(id);
  auto bad = [&](const std::string& field, const std::string& why) {
    throw Error(ErrorKind::Config, who + ": " + field + " " + why);
  };
  if (warp_size == 0 || warp_size > 64) bad("warp_size", "must be in 1..64");
  if (max_threads < warp_size) bad("max_threads", "must hold at least one warp");
  if (max_ctas == 0) bad("max_ctas", "must be at least 1");
  if (fetch_width == 0) bad("fetch_width", "must be at least 1");
  if (ibuffer_entries == 0) bad("ibuffer_entries", "must be at least 1");
  if (instruction_bytes == 0) bad("instruction_bytes", "must be at least 1");
  if (!icache_perfect) {
    if (icache_sets == 0 || icache_ways == 0) bad("icache", "needs at least one set and one way");
    if (!pow2(icache_line_bytes)) bad("icache_line_bytes", "must be a power of two");
  }
  if (icache_hit_latency == 0) bad("icache_hit_latency", "must be at least 1");
  if (schedulers == 0) bad("schedulers", "must be at least 1");
  if (fetches_per_cycle == 0) bad("fetches_per_cycle", "must be at least 1");
  if (fetches_per_cycle > 1 && schedulers > 64) bad("fetches_per_cycle", "above 1 needs at most 64 schedulers");
  if (warp_slot_group == 0 || max_warps() % warp_slot_group != 0) {
    bad("warp_slot_group", "must be at least 1 and divide the warp slots (max_threads / warp_size)");
  }
  if (max_issue_per_warp == 0) bad("max_issue_per_warp", "must be at least 1");
  if (regfile_banks == 0) bad("regfile_banks", "must be at least 1");
  if (regfile_bank_groups == 0) bad("regfile_bank_groups", "must be at least 1");
  if (regfile_ports_per_bank == 0) bad("regfile_ports_per_bank", "must be at least 1");
  if (regfile_write_ports_per_bank == 0) bad("regfile_write_ports_per_bank", "must be at least 1");
  if (collector_units == 0 || collector_units_sfu == 0 || collector_units_mem == 0) {
    bad("collector_units", "every collector-unit set needs at least one unit");
  }
  if (sp.count == 0) bad("sp.count", "must be at least 1");
  if (sfu.count == 0) bad("sfu.count", "must be at least 1");
  if (ldst.count == 0) bad("ldst.count", "must be at least 1");
  for (const ExecUnitParams* u : {&sp, &sfu, &dp, &int_unit, &ldst}) {
    if (u->latency == 0 || u->initiation_interval == 0) bad("exec", "latencies and initiation intervals must be >= 1");
  }
  if (smem_banks == 0 || smem_bank_width_bytes == 0) bad("smem", "needs at least one bank of at least one byte");
  if (smem_latency == 0) bad("smem_latency", "must be at least 1");
  if (const_sets == 0 || const_ways == 0 || !pow2(const_line_bytes)) bad("const cache", "has a bad geometry");
  if (!pow2(coalesce_line_bytes) || !pow2(coalesce_sector_bytes) || coalesce_sector_bytes > coalesce_line_bytes ||
      coalesce_line_bytes / coalesce_sector_bytes > 32) {
    bad("coalesce_line_bytes/coalesce_sector_bytes", "must be powers of two with at most 32 sectors per line");
  }
  if (l1d_enabled) {
    l1d.validate(who + " L1D");
    if (l1d.line_bytes != coalesce_line_bytes || l1d.sector_bytes != coalesce_sector_bytes) {
      bad("l1d", "line and sector sizes must equal the coalescer's");
    }
    if (l1d.write_policy == WritePolicy::WriteBack) {
      bad("l1d.write_policy", "must be write_evict or write_through (the L1D is not coherent)");
    }
  }
}

SmParams sm_params_from_config(const Config& cfg, uint32_t sm_id) {
  SmParams p;
  p.id = sm_id;
  p.clock_period = period_from_mhz(cfg.f64("gpu.clocks.core_mhz"));
  p.warp_size = cfg.u32("gpu.sm.warp_size");
  p.max_threads = cfg.u32("gpu.sm.max_threads");
  p.max_ctas = cfg.u32("gpu.sm.max_ctas");
  p.registers = cfg.u32("gpu.sm.registers");
  p.register_alloc_granularity = cfg.u32("gpu.sm.register_alloc_granularity");
  p.max_registers_per_thread = cfg.u32("gpu.sm.max_registers_per_thread");
  p.register_alloc_policy = cfg.str("gpu.sm.regfile.alloc_policy");
  p.register_sharing_threshold = cfg.f64("gpu.sm.regfile.sharing_threshold");
  p.shared_memory_bytes = cfg.u64("gpu.sm.shared_memory_bytes");
  p.shared_memory_alloc_granularity = cfg.u32("gpu.sm.shared_memory_alloc_granularity");
  p.shared_alloc_policy = cfg.str("gpu.sm.smem.alloc_policy");
  p.shared_sharing_threshold = cfg.f64("gpu.sm.smem.sharing_threshold");
  p.register_power_policy = cfg.str("gpu.sm.regfile.power.policy");
  p.register_sleep_wakeup = cfg.u32("gpu.sm.regfile.power.sleep_wakeup_cycles");
  p.register_off_wakeup = cfg.u32("gpu.sm.regfile.power.off_wakeup_cycles");
  p.register_sleep_leakage = cfg.f64("gpu.sm.regfile.power.sleep_leakage_ratio");
  p.register_off_leakage = cfg.f64("gpu.sm.regfile.power.off_leakage_ratio");
  p.register_power_runtime_correction = cfg.boolean("gpu.sm.regfile.power.runtime_correction");
  p.finereg.acrf_bytes = cfg.u64("gpu.sm.regfile.finereg.acrf_bytes");
  p.finereg.pcrf_bytes = cfg.u64("gpu.sm.regfile.finereg.pcrf_bytes");
  p.finereg.max_resident_ctas = cfg.u32("gpu.sm.regfile.finereg.max_resident_ctas");
  p.finereg.max_resident_warps = cfg.u32("gpu.sm.regfile.finereg.max_resident_warps");
  p.finereg.pcrf_latency = cfg.u32("gpu.sm.regfile.finereg.pcrf_latency");
  p.finereg.cycles_per_register = cfg.u32("gpu.sm.regfile.finereg.cycles_per_register");
  p.finereg.vector_cache_entries = cfg.u32("gpu.sm.regfile.finereg.vector_cache_entries");
  p.finereg.restore_first = cfg.str("gpu.sm.regfile.finereg.switch_order") == "restore_first";
  p.finereg.launch_beyond_limit = cfg.boolean("gpu.sm.regfile.finereg.launch_beyond_limit");
  p.finereg.context_only_switch = cfg.boolean("gpu.sm.regfile.finereg.context_only_switch");
  p.finereg.check = cfg.boolean("gpu.sm.regfile.finereg.check");
  p.vt.context_bytes_per_warp = cfg.u32("gpu.sm.regfile.vt.context_bytes_per_warp");
  p.vt.context_bytes_per_cycle = cfg.u32("gpu.sm.regfile.vt.context_bytes_per_cycle");
  p.vt.max_offchip_ctas = cfg.u32("gpu.sm.regfile.regdram.max_offchip_ctas");

  p.fetch_width = cfg.u32("gpu.sm.fetch_width");
  p.ibuffer_entries = cfg.u32("gpu.sm.ibuffer_entries");
  p.icache_perfect = cfg.boolean("gpu.sm.icache.perfect");
  p.icache_sets = cfg.u32("gpu.sm.icache.sets");
  p.icache_ways = cfg.u32("gpu.sm.icache.ways");
  p.icache_line_bytes = cfg.u32("gpu.sm.icache.line_bytes");
  p.icache_mshrs = cfg.u32("gpu.sm.icache.mshrs");
  p.icache_hit_latency = cfg.u32("gpu.sm.icache.hit_latency");

  // Misses of the SM-internal instruction and constant caches cost a fixed
  // latency (their fills are not modelled as memory traffic).
  p.icache_miss_latency = cfg.u32("gpu.sm.icache.miss_latency");
  p.const_miss_latency = cfg.u32("gpu.const_cache.miss_latency");

  p.schedulers = cfg.u32("gpu.sm.schedulers");
  p.max_issue_per_warp = cfg.u32("gpu.sm.scheduler.max_issue_per_warp");
  p.policy.name = cfg.str("gpu.sm.scheduler.policy");
  p.policy.active_set_size = cfg.u32("gpu.sm.scheduler.two_level.active_set_size");
  p.policy.inner_policy = cfg.str("gpu.sm.scheduler.two_level.inner_policy");
  p.policy.outer_policy = cfg.str("gpu.sm.scheduler.two_level.outer_policy");
  p.policy.warp_limit = cfg.u32("gpu.sm.scheduler.swl.warp_limit");
  p.policy.k_throttle = cfg.f64("gpu.sm.scheduler.ccws.k_throttle");
  p.policy.base_score = cfg.u32("gpu.sm.scheduler.ccws.base_score");
  p.policy.vta_entries_per_warp = cfg.u32("gpu.sm.scheduler.ccws.vta_entries_per_warp");
  p.policy.vta_ways = cfg.u32("gpu.sm.scheduler.ccws.vta_ways");
  p.policy.line_bytes = cfg.u32("gpu.l1d.line_bytes");
  p.policy.l1d_lines = cfg.u64("gpu.l1d.sets") * cfg.u64("gpu.l1d.ways");
  p.policy.daws_mode = cfg.str("gpu.sm.scheduler.daws.mode");
  p.policy.daws_assoc_factor = cfg.f64("gpu.sm.scheduler.daws.assoc_factor");
  p.policy.daws_lane_aware = cfg.boolean("gpu.sm.scheduler.daws.lane_aware");
  p.policy.daws_profile = cfg.str("gpu.sm.scheduler.daws.profile");
  p.policy.daws_ilrd_entries = cfg.u32("gpu.sm.scheduler.daws.ilrd_entries");
  p.policy.daws_ilrd_ways = cfg.u32("gpu.sm.scheduler.daws.ilrd_ways");

  p.regfile_banks = cfg.u32("gpu.sm.regfile.banks");
  p.regfile_ports_per_bank = cfg.u32("gpu.sm.regfile.ports_per_bank");
  p.regfile_write_ports_per_bank = cfg.u32("gpu.sm.regfile.write_ports_per_bank");
  p.collector_units = cfg.u32("gpu.sm.regfile.collector_units");
  p.collector_units_sfu = cfg.u32("gpu.sm.regfile.collector_units_sfu");
  p.collector_units_mem = cfg.u32("gpu.sm.regfile.collector_units_mem");

  auto unit = [&](const std::string& name) {
    ExecUnitParams u;
    u.count = cfg.u32("gpu.sm.exec." + name + ".count");
    u.latency = cfg.u32("gpu.sm.exec." + name + ".latency");
    u.initiation_interval = cfg.u32("gpu.sm.exec." + name + ".initiation_interval");
    return u;
  };
  p.sp = unit("sp");
  p.sfu = unit("sfu");
  p.dp = unit("dp");
  p.int_unit = unit("int");
  p.ldst = unit("ldst");
  auto table = [&](const std::string& cls) {
    auto op = [&](const std::string& name) {
      OpTiming t;
      t.latency = cfg.u32("gpu.sm.op." + cls + "." + name + ".latency");
      t.initiation_interval = cfg.u32("gpu.sm.op." + cls + "." + name + ".initiation_interval");
      return t;
    };
    return OpTable{op("add"), op("max"), op("mul"), op("mad"), op("div")};
  };
  p.op_int = table("int");
  p.op_fp = table("fp");
  p.op_dp = table("dp");

  p.smem_banks = cfg.u32("gpu.sm.smem.banks");
  p.smem_bank_width_bytes = cfg.u32("gpu.sm.smem.bank_width_bytes");
  p.smem_latency = cfg.u32("gpu.sm.smem.latency");

  p.const_sets = cfg.u32("gpu.const_cache.sets");
  p.const_ways = cfg.u32("gpu.const_cache.ways");
  p.const_line_bytes = cfg.u32("gpu.const_cache.line_bytes");
  p.const_hit_latency = cfg.u32("gpu.const_cache.hit_latency");
  p.param_latency = cfg.u32("gpu.sm.param_latency");

  p.l1d_enabled = cfg.boolean("gpu.l1d.enabled");
  p.l1d_cache_global = cfg.boolean("gpu.l1d.cache_global");
  p.cache_operators = cfg.boolean("gpu.l1d.cache_operators");
  p.l1d_locality_stats = cfg.boolean("gpu.l1d.locality_stats");
  p.coalesce_line_bytes = cfg.u32("gpu.l1d.line_bytes");
  p.coalesce_sector_bytes = cfg.u32("gpu.l1d.sector_bytes");
  CacheParams& l1 = p.l1d;
  l1.sets = cfg.u32("gpu.l1d.sets");
  l1.ways = cfg.u32("gpu.l1d.ways");
  l1.line_bytes = cfg.u32("gpu.l1d.line_bytes");
  l1.sector_bytes = cfg.u32("gpu.l1d.sector_bytes");
  l1.mshrs = cfg.u32("gpu.l1d.mshrs");
  l1.mshr_merge_limit = cfg.u32("gpu.l1d.mshr_merge");
  l1.miss_queue = cfg.u32("gpu.l1d.miss_queue_entries");
  l1.hit_latency = cfg.u32("gpu.l1d.hit_latency");
  if (!parse_write_policy(cfg.str("gpu.l1d.write_policy"), l1.write_policy)) {
    throw Error(ErrorKind::Config, "gpu.l1d.write_policy '" + cfg.str("gpu.l1d.write_policy") + "' is not supported");
  }
  l1.write_allocate = cfg.boolean("gpu.l1d.write_allocate");
  if (!parse_replacement_policy(cfg.str("gpu.l1d.replacement"), l1.replacement)) {
    throw Error(ErrorKind::Config, "gpu.l1d.replacement '" + cfg.str("gpu.l1d.replacement") + "' is not supported");
  }
  l1.clock_period = p.clock_period;
  return p;
}

}  // namespace simtlm::models
