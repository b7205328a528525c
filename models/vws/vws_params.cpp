#include "models/vws/vws_params.h"

#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm::models::vws {

VwsParams vws_params_from_config(const Config& cfg) {
  VwsParams v;
  v.mode = cfg.str("gpu.vws.mode") == "slices" ? Mode::Slices : Mode::Ganged;
  v.slices = cfg.u32("gpu.vws.slices");
  v.slice_width = cfg.u32("gpu.vws.slice_width");
  v.fetches_per_cycle = cfg.u32("gpu.vws.fetches_per_cycle");
  v.coalesce_same_cycle = cfg.boolean("gpu.vws.coalesce_same_cycle");
  return v;
}

SmParams platform_sm_params(const Config& cfg, uint32_t sm) {
  SmParams p = sm_params_from_config(cfg, sm);
  if (cfg.str("sim.platform") == "vws") p = vws_sm_params(p, vws_params_from_config(cfg));
  return p;
}

const char* to_string(Mode m) { return m == Mode::Slices ? "slices" : "ganged"; }

SmParams vws_sm_params(const SmParams& base, const VwsParams& v) {
  const uint32_t expected_warp = v.mode == Mode::Slices ? v.slice_width : v.slices * v.slice_width;
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
