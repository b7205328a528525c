#include "models/vws/vws_params.h"

#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm::models::vws {

VwsParams vws_params_from_config(const Config& cfg) {
  VwsParams v;
  const std::string mode = cfg.str("gpu.vws.mode");
  v.mode = mode == "slices" ? Mode::Slices : mode == "mixed" ? Mode::Mixed : Mode::Ganged;
  v.slices = cfg.u32("gpu.vws.slices");
  v.slice_width = cfg.u32("gpu.vws.slice_width");
  v.fetches_per_cycle = cfg.u32("gpu.vws.fetches_per_cycle");
  v.coalesce_same_cycle = cfg.boolean("gpu.vws.coalesce_same_cycle");
  v.gangs_per_cycle = cfg.u32("gpu.vws.gangs_per_cycle");
  v.gang_order = cfg.str("gpu.vws.gang_order");
  const std::string split = cfg.str("gpu.vws.split_memory");
  v.mem_split = split == "impatient" ? MemSplit::Impatient : split == "group" ? MemSplit::Group : MemSplit::None;
  const std::string reform = cfg.str("gpu.vws.reform");
  v.reform = reform == "opportunistic" ? Reform::Opportunistic : reform == "none" ? Reform::None : Reform::Sync;
  if (v.reform == Reform::Sync) v.sync_wait = static_cast<uint32_t>(std::stoul(reform.substr(4)));  // "sync<N>"
  v.l0_bytes = cfg.u32("gpu.vws.l0_bytes");
  return v;
}

SmParams platform_sm_params(const Config& cfg, uint32_t sm) {
  SmParams p = sm_params_from_config(cfg, sm);
  if (cfg.str("sim.platform") == "vws") p = vws_sm_params(p, vws_params_from_config(cfg));
  return p;
}

const char* to_string(Mode m) {
  switch (m) {
    case Mode::Slices: return "slices";
    case Mode::Mixed: return "mixed";
    default: return "ganged";
  }
}

SmParams vws_sm_params(const SmParams& base, const VwsParams& v) {
  // Mixed mode's SM is the slice-only one (its warps are a slice wide); the
  // ganging unit is added by the platform.
  const bool sliced = v.mode != Mode::Ganged;
  const uint32_t expected_warp = sliced ? v.slice_width : v.slices * v.slice_width;
  if (base.schedulers != 1 || base.warp_size != expected_warp) {
    throw Error(ErrorKind::Config, "vws SM " + std::to_string(base.id) + " in mode " + to_string(v.mode) +
                                       " needs one scheduler and warp size " + std::to_string(expected_warp) +
                                       " (gpu.sm.schedulers, gpu.sm.warp_size)");
  }
  SmParams p = base;
  if (v.mode == Mode::Ganged) return p;  // the baseline SM: one 32-lane warp instruction per cycle
  const uint32_t s = v.slices;
  p.schedulers = s;
  p.warp_slot_group = s;
  p.fetches_per_cycle = v.fetches_per_cycle == 0 ? s : v.fetches_per_cycle;
  p.coalesce_same_cycle = v.coalesce_same_cycle;
  // Each slice has its own copy of the per-instruction resources, 1/s as
  // wide: execution units, collector units, and a register file of the
  // baseline's banks (a lane slice of every bank: a slice's warps never meet
  // another slice's on a bank).
  for (ExecUnitParams* u : {&p.sp, &p.sfu, &p.dp, &p.int_unit, &p.ldst}) u->count *= s;
  p.collector_units *= s;
  p.collector_units_sfu *= s;
  p.collector_units_mem *= s;
  p.regfile_bank_groups = s;
  return p;
}

}  // namespace simtlm::models::vws
