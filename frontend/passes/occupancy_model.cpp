// The occupancy calculator and its inverse (see occupancy_model.h).
#include "frontend/passes/occupancy_model.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::frontend::passes {

namespace {

uint32_t round_up(uint32_t x, uint32_t unit) { return unit <= 1 ? x : (x + unit - 1) / unit * unit; }

}  // namespace

OccupancyLimits fermi_c2075() { return OccupancyLimits{}; }

OccupancyLimits kepler_gtx680() {
  OccupancyLimits l;
  l.registers_per_sm = 65536;
  l.reg_alloc_unit = 256;
  l.smem_alloc_unit = 256;
  l.max_threads_per_sm = 2048;
  l.max_ctas_per_sm = 16;
  return l;
}

uint32_t resident_ctas(const OccupancyLimits& l, uint32_t threads, uint32_t registers, uint32_t shared_bytes) {
  if (threads == 0 || threads > l.max_threads_per_sm) return 0;
  const uint32_t warps = (threads + l.warp_size - 1) / l.warp_size;
  uint32_t ctas = std::min(l.max_ctas_per_sm, l.max_threads_per_sm / (warps * l.warp_size));
  if (registers > 0) {
    const uint32_t per_warp = round_up(registers * l.warp_size, l.reg_alloc_unit);
    ctas = std::min(ctas, (l.registers_per_sm / per_warp) / warps);
  }
  if (shared_bytes > 0) ctas = std::min(ctas, l.shared_bytes_per_sm / round_up(shared_bytes, l.smem_alloc_unit));
  return ctas;
}

RegSmem reg_smem_for(const OccupancyLimits& l, uint32_t threads, uint32_t target_threads, uint32_t user_shared_bytes) {
  RegSmem r;
  if (threads == 0 || target_threads == 0) return r;
  const uint32_t ctas = target_threads / threads;
  for (uint32_t regs = l.max_registers_per_thread; regs >= 1 && r.registers == 0; --regs)
    if (active_threads(l, threads, regs, user_shared_bytes) >= target_threads) r.registers = regs;
  if (r.registers == 0 || ctas == 0) return r;
  // What the CTAs leave of the SM's shared memory, shared among their threads,
  // kept within the allocation units so that the CTAs still fit.
  const uint32_t per_cta = l.shared_bytes_per_sm / ctas / l.smem_alloc_unit * l.smem_alloc_unit;
  const uint32_t spare = per_cta > user_shared_bytes ? per_cta - user_shared_bytes : 0;
  r.smem_slots_per_thread = spare / threads / 4;
  return r;
}

namespace {

// Each key and the field it fills.
struct LimitKey {
  const char* key;
  uint32_t OccupancyLimits::*field;
};
const LimitKey kLimitKeys[] = {
    {"sm_registers", &OccupancyLimits::registers_per_sm},   {"reg_unit", &OccupancyLimits::reg_alloc_unit},
    {"sm_shared", &OccupancyLimits::shared_bytes_per_sm},   {"smem_unit", &OccupancyLimits::smem_alloc_unit},
    {"max_threads", &OccupancyLimits::max_threads_per_sm},  {"max_ctas", &OccupancyLimits::max_ctas_per_sm},
    {"warp_size", &OccupancyLimits::warp_size},             {"max_registers", &OccupancyLimits::max_registers_per_thread},
    {"cta_shared", &OccupancyLimits::max_shared_bytes_per_cta},
};

}  // namespace

const std::vector<std::string>& limit_option_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const LimitKey& l : kLimitKeys) k.push_back(l.key);
    return k;
  }();
  return keys;
}

void set_limit_options(PassOptions& options, const std::string& pass, const OccupancyLimits& limits) {
  for (const LimitKey& l : kLimitKeys) options.set(pass, l.key, std::to_string(limits.*(l.field)));
}

OccupancyLimits limit_options(const PassParams& params) {
  OccupancyLimits out;
  for (const LimitKey& l : kLimitKeys) {
    const uint64_t v = params.u64(l.key, 0);
    if (v == 0 || v > 0xFFFFFFFFull)
      throw Error(ErrorKind::Config, "front-end pass '" + params.pass() + "' needs the option '" + l.key +
                                         "' from 1 to 2^32-1 (the runtime sets it from the preset)");
    out.*(l.field) = static_cast<uint32_t>(v);
  }
  return out;
}

}  // namespace simtlm::frontend::passes
