// Parameters of one streaming multiprocessor (plain struct, DRAMSys style).
// sm_params_from_config() fills it from the gpu.sm.* / gpu.l1d.* /
// gpu.const_cache.* keys; tests fill it directly. validate() names the first
// bad field. Defaults are the gtx480 preset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "models/cache/cache_params.h"
#include "models/finereg/finereg_params.h"
#include "models/sched/policy.h"

namespace simtlm {
class Config;
}

namespace simtlm::models {

// One class of execution pipelines: `count` identical pipelines, each
// accepting a new warp instruction every `initiation_interval` cycles and
// producing its result `latency` cycles after it starts executing.
struct ExecUnitParams {
  uint32_t count = 1;
  uint32_t latency = 1;
  uint32_t initiation_interval = 1;
};

struct OpTiming {
  uint32_t latency = 1;
  uint32_t initiation_interval = 1;
};

// Per-opcode timing of one data type class (gpu.sm.op.<int|fp|dp>.*).
struct OpTable {
  OpTiming add;  // add, sub, addc, subc
  OpTiming max;  // min, max
  OpTiming mul;  // mul, mul24
  OpTiming mad;  // mad, mad24, madc, fma, sad, dp4a, dp2a
  OpTiming div;  // div, rem
};

struct SmParams {
  uint32_t id = 0;
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  // Occupancy limits.
  uint32_t warp_size = 32;
  uint32_t max_threads = 1536;
  uint32_t max_ctas = 8;
  uint32_t registers = 32768;
  uint32_t register_alloc_granularity = 4;
  uint32_t max_registers_per_thread = 63;
  std::string register_alloc_policy = "baseline";
  double register_sharing_threshold = 0.1;
  uint64_t shared_memory_bytes = 49152;
  uint32_t shared_memory_alloc_granularity = 1;
  std::string shared_alloc_policy = "baseline";
  double shared_sharing_threshold = 0.1;
  // Register power states (gpu.sm.regfile.power.*, models/regfile/power_states.h):
  // always_on (nothing modelled), sleep_reg or greener.
  std::string register_power_policy = "always_on";
  uint32_t register_sleep_wakeup = 1;
  uint32_t register_off_wakeup = 2;
  double register_sleep_leakage = 0.25;
  double register_off_leakage = 0.05;
  bool register_power_runtime_correction = true;
  // FineReg (register_alloc_policy == "finereg"): ACRF/PCRF split, resident
  // limits beyond the active ones, switching costs (models/finereg/).
  finereg::FineRegParams finereg;
  // Virtual Thread / Reg+DRAM (policies vt, regdram; models/finereg/vt_allocator.h).
  finereg::VtParams vt;
  // Register sharing's deadlock-avoidance rule; not a configuration key: only
  // the test that shows the deadlock it prevents turns it off.
  bool sharing_deadlock_rule = true;

  // Front end.
  uint32_t fetch_width = 2;         // instructions per fetch (one warp per cycle)
  uint32_t ibuffer_entries = 2;     // per warp
  uint32_t instruction_bytes = 8;   // instruction address = pc * instruction_bytes
  bool icache_perfect = false;
  uint32_t icache_sets = 4;
  uint32_t icache_ways = 4;
  uint32_t icache_line_bytes = 128;
  uint32_t icache_mshrs = 2;
  uint32_t icache_hit_latency = 1;
  uint32_t icache_miss_latency = 128;  // gpu.sm.icache.miss_latency (fixed: stands for an L2 round trip)

  // Issue.
  uint32_t schedulers = 2;
  uint32_t max_issue_per_warp = 1;  // instructions one scheduler may issue from its warp per cycle
  sched::PolicyParams policy;       // name/active set; schedulers/max_warps are filled in by the Sm

  // Operand collection.
  uint32_t regfile_banks = 16;
  uint32_t regfile_ports_per_bank = 1;        // read ports
  uint32_t regfile_write_ports_per_bank = 1;
  uint32_t collector_units = 6;      // SP/INT/DP instructions
  uint32_t collector_units_sfu = 8;
  uint32_t collector_units_mem = 2;

  // Execution units. count 0 for int/dp = that class runs on SP/SFU.
  ExecUnitParams sp{2, 1, 1};
  ExecUnitParams sfu{1, 8, 8};
  ExecUnitParams dp{0, 8, 8};
  ExecUnitParams int_unit{0, 1, 1};
  ExecUnitParams ldst{1, 1, 1};
  OpTable op_int{{4, 1}, {13, 2}, {4, 2}, {5, 1}, {145, 8}};
  OpTable op_fp{{4, 1}, {13, 2}, {4, 1}, {5, 1}, {39, 4}};
  OpTable op_dp{{8, 8}, {19, 16}, {8, 8}, {8, 8}, {330, 130}};

  // Shared memory.
  uint32_t smem_banks = 32;
  uint32_t smem_bank_width_bytes = 4;
  uint32_t smem_latency = 26;

  // Constant cache (misses cost a fixed latency) and kernel parameters.
  uint32_t const_sets = 64;
  uint32_t const_ways = 2;
  uint32_t const_line_bytes = 64;
  uint32_t const_hit_latency = 35;
  uint32_t const_miss_latency = 128;  // gpu.const_cache.miss_latency
  uint32_t param_latency = 35;      // gpu.sm.param_latency: ld.param (kernel parameters live in a constant bank)

  // Global/local memory.
  uint32_t coalesce_line_bytes = 128;
  uint32_t coalesce_sector_bytes = 32;
  bool l1d_enabled = true;
  bool l1d_cache_global = true;     // false: global loads bypass the L1D
  bool cache_operators = true;      // honour ld.cg/.cv (L1D bypass) and .cs/.lu (evict-first)
  CacheParams l1d;                  // clock_period is overwritten with the SM's
  bool l1d_locality_stats = false;  // gpu.l1d.locality_stats (models/sm/l1d_locality.h)
  // Extra memory spaces of the LD/ST unit, each with its own TLM port
  // (Sm::memory_space_socket). Set by a platform builder (e.g. communication
  // buffers), not by configuration keys.
  std::vector<std::string> memory_spaces;

  // Set by a platform builder (the vws platform's slice-only mode,
  // models/vws/vws_params.h), not by gpu.sm.* keys; the defaults are the
  // baseline SM's behaviour.
  // Fetches the front end sends per cycle; above 1, at most one per
  // scheduler (each scheduler stands for a slice with its own fetch unit).
  uint32_t fetches_per_cycle = 1;
  // Warp slots are taken in aligned groups of this many: warp i of a CTA
  // sits in a group's slot i % group, so that it belongs to scheduler
  // i % schedulers when the group is a multiple of the schedulers (the
  // static thread -> slice mapping); a CTA reserves whole groups.
  uint32_t warp_slot_group = 1;
  // Global/local transactions of memory instructions whose accesses start
  // in the same cycle go to the same line are one transaction (the slices'
  // requests of a cycle are coalesced as one access), and shared-memory
  // loads (stores) of the same cycle see the banks as one access
  // (models/sm/same_cycle_smem.h).
  bool coalesce_same_cycle = false;
  // The register banks are this many independent groups of regfile_banks
  // banks; warp slot s uses group s % groups (with groups = schedulers: each
  // slice's own register file).
  uint32_t regfile_bank_groups = 1;

  uint32_t max_warps() const { return (max_threads + warp_size - 1) / warp_size; }
  // Resident limits: CTA slots, warp slots and threads the SM holds at once.
  // They are the active ones (max_ctas, max_warps(), max_threads) except with
  // FineReg and its comparisons VT and Reg+DRAM, whose pending CTAs stay
  // resident beyond them (the allocator then keeps active CTAs within the
  // active limits; all three take finereg.max_resident_*).
  bool finereg_enabled() const {
    return register_alloc_policy == "finereg" || register_alloc_policy == "vt" || register_alloc_policy == "regdram";
  }
  uint32_t resident_ctas() const { return finereg_enabled() ? finereg.max_resident_ctas : max_ctas; }
  uint32_t resident_warps() const { return finereg_enabled() ? finereg.max_resident_warps : max_warps(); }
  uint32_t resident_threads() const { return finereg_enabled() ? resident_warps() * warp_size : max_threads; }
  // Warp slots a CTA of `warps` warps reserves (whole slot groups).
  uint32_t reserved_slots(uint32_t warps) const {
    return (warps + warp_slot_group - 1) / warp_slot_group * warp_slot_group;
  }
  // Throws Error(Config) naming the SM and the field.
  void validate() const;
};

// SM `sm_id` of the GPU described by `cfg` (gpu.sm.*, gpu.l1d.*,
// gpu.const_cache.*, gpu.clocks.core_mhz).
SmParams sm_params_from_config(const Config& cfg, uint32_t sm_id);

}  // namespace simtlm::models
