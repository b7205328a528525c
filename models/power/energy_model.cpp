#include "models/power/energy_model.h"

#include <algorithm>

namespace simtlm::power {

namespace {

struct Names {
  const char* name;
  const char* description;
};

constexpr Names kNames[kComponents] = {
    {"IBP", "instruction buffer"},
    {"ICP", "instruction cache"},
    {"DCP", "L1 data cache"},
    {"TCP", "texture cache (not modelled)"},
    {"CCP", "constant cache"},
    {"SHRDP", "shared memory"},
    {"RFP", "register file"},
    {"SPP", "integer units"},
    {"SFUP", "special-function units"},
    {"FPUP", "floating-point units"},
    {"SCHEDP", "warp schedulers"},
    {"L2CP", "L2 cache"},
    {"MCP", "memory controllers"},
    {"NOCP", "interconnect"},
    {"DRAMP", "DRAM"},
    {"PIPEP", "pipeline"},
    {"IDLE_COREP", "idle SMs"},
    {"CONST_DYNAMICP", "constant dynamic power"},
    {"FINEREGP", "FineReg structures (PCRF, vector cache, staging buffer)"},
    {"SWITCHP", "CTA switching (register and context movement)"},
    {"CBP", "communication buffers"},
};

}  // namespace

const char* component_name(Component c) { return kNames[static_cast<std::size_t>(c)].name; }
const char* component_description(Component c) { return kNames[static_cast<std::size_t>(c)].description; }

double EnergyBreakdown::dynamic_total_j() const {
  double s = 0;
  for (double e : dynamic_j) s += e;
  return s;
}

double EnergyBreakdown::leakage_total_j() const {
  double s = 0;
  for (const auto& [block, e] : leakage_j) s += e;
  return s;
}

double EnergyBreakdown::average_power_w() const { return seconds > 0 ? total_j() / seconds : 0.0; }

double leakage_energy(const LeakageShare& s, double seconds) {
  const double reduced = std::clamp(s.reduced_seconds, 0.0, seconds);
  return s.watts * (seconds - (1.0 - s.reduced_ratio) * reduced);
}

EnergyBreakdown energy_of(const EnergyTable& t, const Activity& a, const std::vector<LeakageShare>& leakage) {
  EnergyBreakdown e;
  e.seconds = a.seconds;
  auto set = [&](Component c, double joules) { e.dynamic_j[static_cast<std::size_t>(c)] = joules; };
  set(Component::IBP, (a.fetches + a.issued) * t.ibuffer_access);
  set(Component::ICP, a.icache_accesses * t.icache_access + a.icache_misses * t.icache_miss);
  set(Component::DCP, a.l1d_reads * t.l1d_read + a.l1d_writes * t.l1d_write + a.l1d_fills * t.l1d_fill);
  set(Component::TCP, 0.0);
  set(Component::CCP, a.const_accesses * t.const_access + a.const_misses * t.const_miss);
  set(Component::SHRDP, a.smem_passes * t.smem_pass);
  set(Component::RFP, a.reg_reads * t.reg_read + a.reg_writes * t.reg_write);
  set(Component::SPP, a.int_ops * t.int_op);
  set(Component::SFUP, a.sfu_ops * t.sfu_op);
  set(Component::FPUP, a.fp_ops * t.fp_op + a.dp_ops * t.dp_op);
  set(Component::SCHEDP, a.issued * t.schedule);
  set(Component::L2CP, a.l2_reads * t.l2_read + a.l2_writes * t.l2_write + a.l2_fills * t.l2_fill);
  set(Component::MCP, a.mc_requests * t.mc_request);
  set(Component::NOCP, a.noc_flits * t.noc_flit);
  set(Component::DRAMP, a.dram_activates * t.dram_activate + a.dram_read_bursts * t.dram_read_burst +
                            a.dram_write_bursts * t.dram_write_burst +
                            a.dram_channels * a.seconds * t.dram_refresh_w);
  set(Component::PIPEP, a.issued * t.pipeline);
  set(Component::IDLE_COREP, a.idle_sm_seconds * t.idle_sm_w);
  set(Component::CONST_DYNAMICP, a.busy_seconds * t.const_dynamic_w);
  set(Component::FINEREGP,
      a.pcrf_accesses * t.pcrf_access + a.vector_lookups * t.vector_lookup + a.staging_passes * t.staging_access);
  // Movement: register-file reads/writes of the moved warp-registers and
  // the contexts' shared-memory passes. Reg+DRAM's off-chip contexts and
  // FineReg's vector fetches are memory traffic through the L1D/L2/DRAM
  // model: their energy is in those components'.
  set(Component::SWITCHP, a.switch_reg_reads * t.reg_read + a.switch_reg_writes * t.reg_write +
                              a.context_smem_passes * t.smem_pass);
  set(Component::CBP, a.cb_accesses * t.cb_access);
  for (const LeakageShare& s : leakage) {
    auto it = std::find_if(e.leakage_j.begin(), e.leakage_j.end(), [&](const auto& p) { return p.first == s.block; });
    if (it == e.leakage_j.end()) it = e.leakage_j.insert(e.leakage_j.end(), {s.block, 0.0});
    it->second += leakage_energy(s, a.seconds);
  }
  return e;
}

}  // namespace simtlm::power
