// Configuration keys of the energy model (gpu.power.*): the switch, the power
// trace's interval, the energy of one event per GPUWattch component, the
// activity-independent powers and the leakage power of each block instance.
// The gtx480 values are this file's defaults; configs/tesla_c2050.json has the
// C2050 table. docs/power.md explains every value; "estimate" marks the ones
// that are not taken from a published source.
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

const char* const kEst =
    "estimate (docs/power.md, Per-event energies): order of magnitude of published 40 nm access energies, "
    "not a GPUWattch/McPAT output";
const char* const kLeak =
    "estimate split of the seed's GTX 480 leakage, 46.4 W in total (seed note 003 §3.4, Rajasree Table 6.4); "
    "docs/power.md, Leakage";

void pj(std::vector<ConfigKey>& t, const char* name, double value, const char* what) {
  t.push_back(D(std::string("gpu.power.energy_pj.") + name, value, "pJ", 0.0, 1e9, what, kEst));
}

void leak(std::vector<ConfigKey>& t, const char* name, double value, const char* what) {
  t.push_back(D(std::string("gpu.power.leakage_w.") + name, value, "W", 0.0, 1e4, what, kLeak));
}

void power_keys(std::vector<ConfigKey>& t) {
  t.push_back(B("gpu.power.enabled", true,
                "Energy accounting: per-component dynamic and leakage energy of every launch and of the run, "
                "in stats.json (timing.energy) and the summary. Off: neither appears; the simulation itself "
                "is the same either way (the model reads the statistics after each launch).",
                kDecision));
  t.push_back(U("gpu.power.trace_interval_cycles", 500, "core cycles", 1, 1000000000ULL,
                "Interval of the power trace (sim.trace.power_file and the timeline's power counter track).",
                "GPUWattch samples the counters about every 500 cycles (seed note 003 §3.1)"));
  // Activity-independent dynamic power.
  t.push_back(D("gpu.power.const_dynamic_w", 20.0, "W", 0.0, 1e4,
                "CONST_DYNAMICP: dynamic power drawn while a kernel runs, whatever it does (clock tree, "
                "always-on logic).",
                "estimate (docs/power.md): GPUWattch has this component; its GTX 480 value is a fitted "
                "coefficient, not published in watts"));
  t.push_back(D("gpu.power.idle_sm_w", 1.59, "W", 0.0, 1e3,
                "IDLE_COREP: power of one SM with no resident CTA while a kernel runs (load imbalance).",
                "GPGPU-Sim configs/GTX480/gpuwattch_gtx480.xml idle_core_power = 1.59 (seed note 003 §2.2)"));
  t.push_back(D("gpu.power.dram_refresh_w", 0.08, "W", 0.0, 1e3,
                "DRAMP: refresh power of one DRAM channel, charged for all simulated time (the channel model "
                "issues no REF commands).",
                "estimate (docs/power.md): two GDDR5 chips per channel at about 40 mW refresh each"));
  // Dynamic energy per event, one group per GPUWattch component.
  pj(t, "ibuffer_access", 10.0, "IBP: one I-buffer write (fetch) or read (issue).");
  pj(t, "icache_access", 40.0, "ICP: one instruction-cache access (fetch).");
  pj(t, "icache_miss", 200.0, "ICP: extra energy of an instruction-cache miss (line fill).");
  pj(t, "l1d_read", 300.0, "DCP: one L1D read request (tag and data).");
  pj(t, "l1d_write", 300.0, "DCP: one L1D write request.");
  pj(t, "l1d_fill", 300.0, "DCP: one fill written into the L1D.");
  pj(t, "const_access", 60.0, "CCP: one constant-cache access (hit or miss).");
  pj(t, "const_miss", 200.0, "CCP: extra energy of a constant-cache miss (fill).");
  pj(t, "smem_pass", 250.0, "SHRDP: one shared-memory pass (all banks of one conflict-free access).");
  pj(t, "reg_read", 200.0, "RFP: one warp-wide read of a 32-bit physical register (a bank access).");
  pj(t, "reg_write", 250.0, "RFP: one warp-wide write of a 32-bit physical register.");
  pj(t, "int_op", 150.0, "SPP: one integer warp instruction (all lanes).");
  pj(t, "fp_op", 450.0, "FPUP: one single-precision warp instruction (all lanes).");
  pj(t, "dp_op", 1500.0, "FPUP: one double-precision warp instruction (all lanes).");
  pj(t, "sfu_op", 600.0, "SFUP: one special-function warp instruction (all lanes).");
  pj(t, "schedule", 100.0, "SCHEDP: scheduling one issued warp instruction (arbitration, scoreboard).");
  pj(t, "pipeline", 400.0, "PIPEP: pipeline registers and decode of one issued warp instruction.");
  pj(t, "l2_read", 600.0, "L2CP: one L2 read request.");
  pj(t, "l2_write", 600.0, "L2CP: one L2 write request.");
  pj(t, "l2_fill", 600.0, "L2CP: one fill written into an L2 slice.");
  pj(t, "noc_flit", 300.0, "NOCP: one flit crossing the interconnect (either network).");
  pj(t, "mc_request", 500.0, "MCP: one request handled by a memory controller (read or write).");
  pj(t, "dram_activate", 2000.0, "DRAMP: one ACT (with its precharge) of a DRAM bank.");
  pj(t, "dram_read_burst", 6000.0, "DRAMP: one read burst on a channel (array, I/O and termination).");
  pj(t, "dram_write_burst", 6500.0, "DRAMP: one write burst on a channel.");
  // FineReg's structures (FINEREGP; reported only with a CTA-switching
  // allocator, docs/finereg.md "Energy").
  pj(t, "pcrf_access", 230.0,
     "FINEREGP: one PCRF access (a 128-byte warp-register and its 21-bit tag, read or written) by the RMU.");
  pj(t, "vector_lookup", 10.0, "FINEREGP: one lookup of FineReg's 32-entry live-register vector cache (12 B entry).");
  pj(t, "staging_access", 40.0,
     "FINEREGP: one warp-register through the RMU's 128-byte staging buffer (written and read once).");
  // Leakage per block instance.
  leak(t, "regfile", 0.60, "Leakage of one SM's register file.");
  leak(t, "smem", 0.22, "Leakage of one SM's shared memory.");
  leak(t, "l1d", 0.10, "Leakage of one SM's L1 data cache.");
  leak(t, "sm_logic", 1.60,
       "Leakage of the rest of one SM (execution units, scheduler, I-buffer, I-cache, constant cache, "
       "pipeline).");
  leak(t, "l2_slice", 0.40, "Leakage of one L2 slice (memory sub-partition).");
  leak(t, "noc", 1.40, "Leakage of the interconnect.");
  leak(t, "mc", 0.40, "Leakage of one memory controller (per DRAM channel).");
}

const Registration kPower(kRankPower, "power", &power_keys);

}  // namespace
}  // namespace simtlm::config_keys
