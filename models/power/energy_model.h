// The energy model (GPUWattch-style, seed note 003 §3.1): a launch's or an
// interval's dynamic energy is, per component, the sum over its events of
// count x energy per event; activity-independent dynamic power (constant
// dynamic, idle SMs, DRAM refresh) is charged for the time it applies; the
// leakage of every block instance is its leakage power x simulated time,
// less what its storage saved in reduced-leakage states (LeakageResidency).
//
//   Activity a;            // event counts and times of one window
//   a.reg_reads = ...; a.seconds = ...;
//   EnergyBreakdown e = energy_of(params, a, leakage_blocks);
//
// Plain arithmetic: no SystemC, no statistics tree (energy_account.h reads
// the window's events from the tree), so every formula is testable by hand.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace simtlm::power {

// The components of GPUWattch's dynamic power sum (Rajasree Table 5.1), in its
// order. Later platforms append their blocks (the SPU's communication buffers
// as CBP) before Count.
enum class Component {
  IBP,             // instruction buffer
  ICP,             // instruction cache
  DCP,             // L1 data cache
  TCP,             // texture cache (no texture path modelled: always 0)
  CCP,             // constant cache
  SHRDP,           // shared memory
  RFP,             // register file
  SPP,             // integer (SP) units
  SFUP,            // special-function units
  FPUP,            // floating-point units
  SCHEDP,          // warp schedulers
  L2CP,            // L2 cache
  MCP,             // memory controllers
  NOCP,            // interconnect
  DRAMP,           // DRAM
  PIPEP,           // pipeline
  IDLE_COREP,      // SMs idle while others work
  CONST_DYNAMICP,  // constant dynamic power
  // FineReg and its comparisons (docs/finereg.md "Energy"; reported only
  // when a CTA-switching allocator is on, EnergyAccount::reports):
  FINEREGP,        // FineReg's structures: PCRF, vector cache, staging buffer
  SWITCHP,         // CTA switching: register and context movement
  CBP,             // communication buffers (spu platform; reported only where they exist)
  Count
};
constexpr std::size_t kComponents = static_cast<std::size_t>(Component::Count);
const char* component_name(Component c);         // "RFP"
const char* component_description(Component c);  // "register file"

// Energy per event (joules) and activity-independent powers (watts).
struct EnergyTable {
  double ibuffer_access = 0, icache_access = 0, icache_miss = 0;
  double l1d_read = 0, l1d_write = 0, l1d_fill = 0;
  double const_access = 0, const_miss = 0, smem_pass = 0;
  double reg_read = 0, reg_write = 0;
  double int_op = 0, fp_op = 0, dp_op = 0, sfu_op = 0;
  double schedule = 0, pipeline = 0;
  double l2_read = 0, l2_write = 0, l2_fill = 0;
  double noc_flit = 0, mc_request = 0;
  double dram_activate = 0, dram_read_burst = 0, dram_write_burst = 0;
  double pcrf_access = 0, vector_lookup = 0, staging_access = 0;  // FineReg
  double cb_access = 0;        // one CB transaction (spu platform): a shared-memory pass
  double const_dynamic_w = 0;  // while busy
  double idle_sm_w = 0;        // per idle SM while busy
  double dram_refresh_w = 0;   // per channel, all the time
};

// Events of one window, every instance summed (doubles: the statistics tree
// evaluates sums and windows as doubles; counts stay exact below 2^53).
struct Activity {
  double fetches = 0, issued = 0;  // I-buffer writes and reads; issued warp instructions
  double icache_accesses = 0, icache_misses = 0;
  double l1d_reads = 0, l1d_writes = 0, l1d_fills = 0;
  double const_accesses = 0, const_misses = 0, smem_passes = 0;
  double reg_reads = 0, reg_writes = 0;
  double int_ops = 0, fp_ops = 0, dp_ops = 0, sfu_ops = 0;
  double l2_reads = 0, l2_writes = 0, l2_fills = 0;
  double noc_flits = 0, mc_requests = 0;
  double cb_accesses = 0;  // CB_ACC (spu platform)
  double dram_activates = 0, dram_read_bursts = 0, dram_write_bursts = 0;
  // CTA switching (FineReg, VT, Reg+DRAM): PCRF accesses, vector-cache
  // lookups and staging-buffer passes of warp-registers; warp-registers
  // read from / written to the register file by the movement; shared-memory
  // passes of pipeline contexts (off-chip contexts and vector fetches are
  // memory traffic, in the L1D/L2/DRAM components).
  double pcrf_accesses = 0, vector_lookups = 0, staging_passes = 0;
  double switch_reg_reads = 0, switch_reg_writes = 0, context_smem_passes = 0;
  double dram_channels = 0;      // instances drawing refresh power
  double seconds = 0;            // simulated time of the window
  double busy_seconds = 0;       // time a kernel ran (constant dynamic power)
  double idle_sm_seconds = 0;    // sum over SMs of the busy time during which that SM had no CTA
};

// One leakage block instance (e.g. "regfile" of SM 3): its full leakage
// power, its component, and how much of its storage sat in reduced-leakage
// states during the window.
struct LeakageShare {
  std::string block;          // block kind, the key of the report ("regfile", "l2_slice", ...)
  double watts = 0;           // leakage with all storage at full leakage
  double reduced_seconds = 0; // integral over the window of the fraction of storage in reduced states
  double reduced_ratio = 0;   // leakage of reduced storage relative to full (0 = gated off)
};

struct EnergyBreakdown {
  std::array<double, kComponents> dynamic_j{};  // per component
  std::vector<std::pair<std::string, double>> leakage_j;  // per block kind, in first-seen order
  double seconds = 0;
  double dynamic_total_j() const;
  double leakage_total_j() const;
  double total_j() const { return dynamic_total_j() + leakage_total_j(); }
  double average_power_w() const;  // total / seconds (0 for an empty window)
};

// Leakage energy of one instance over `seconds`: watts x (seconds - (1 - ratio) x reduced_seconds).
double leakage_energy(const LeakageShare& s, double seconds);

EnergyBreakdown energy_of(const EnergyTable& table, const Activity& a, const std::vector<LeakageShare>& leakage);

}  // namespace simtlm::power
