// Counters of one SM (a plain struct with stable addresses: the platform
// registers the fields in the statistics tree). Sm::stats() brings the
// time-dependent ones up to date.
//
// Issue slots: every scheduler has one slot per active cycle (a cycle with at
// least one resident CTA), and every slot gets exactly one reason:
//   issued      an instruction issued
//   idle        no warp to offer (none resident on this scheduler, all finished,
//               or the policy offered none)
//   scoreboard  best candidate waited for a register (RAW/WAW)
//   pipeline    best candidate's execution unit or collector units were busy
//   barrier     best candidate waited at a barrier
//   memory      best candidate was a memory instruction and the LD/ST unit was
//               busy or back-pressured by the L1D/interconnect
//   fetch       best candidate's instruction buffer was empty
//   throttled   best candidate was vetoed by the policy or an allocator
// "Best candidate" = the most advanced stall among the warps examined, in the
// order memory/pipeline/throttled > scoreboard > barrier > fetch > idle.
// Hence the slot counters sum to schedulers x active_cycles.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models {

struct SmStats {
  static constexpr unsigned kExecClasses = 14;  // functional::ExecClass values

  // Time.
  uint64_t active_cycles = 0;     // cycles with >= 1 resident CTA
  uint64_t busy_cycles = 0;       // ClockedModule: cycles evaluated or skipped while busy
  uint64_t idle_cycles = 0;       // ClockedModule: cycles slept

  // Issue slots (see above).
  uint64_t slot_issued = 0;
  uint64_t slot_idle = 0;
  uint64_t slot_scoreboard = 0;
  uint64_t slot_pipeline = 0;
  uint64_t slot_barrier = 0;
  uint64_t slot_memory = 0;
  uint64_t slot_fetch = 0;
  uint64_t slot_throttled = 0;

  // Instructions.
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  // Global accesses at element granularity (functional::Warp::offchip_accesses):
  // summed into LaunchStats::offchip_accesses; not a node of the statistics tree.
  uint64_t offchip_accesses = 0;
  uint64_t class_instructions[kExecClasses] = {};  // indexed by functional::ExecClass
  // Warp instructions by active lanes (index 0..warp_size; sized by the SM):
  // the SIMD-efficiency histogram. Active = in the warp's active mask when
  // issued (after divergence, before the guard predicate), as thread_instructions.
  std::vector<uint64_t> active_lanes;

  // Front end.
  uint64_t fetches = 0;           // fetch requests (one warp, up to fetch_width instructions)
  // Fetches by scheduler, counted by FrontEnd::fetch only when several
  // fetches per cycle are allowed (SmParams::fetches_per_cycle > 1: the vws
  // platform's slices, which registers it); empty otherwise.
  std::vector<uint64_t> scheduler_fetches;
  uint64_t icache_hits = 0;
  uint64_t icache_misses = 0;
  uint64_t ibuffer_flushes = 0;   // redirects after taken/divergent branches and reconvergence

  // Operand collection.
  uint64_t regfile_reads = 0;            // 32-bit physical registers read
  uint64_t regfile_bank_conflicts = 0;
  uint64_t regfile_writes = 0;           // 32-bit physical registers written
  uint64_t regfile_write_conflicts = 0;  // writes that found their bank's ports taken

  // Shared memory.
  uint64_t smem_instructions = 0;
  uint64_t smem_passes = 0;
  uint64_t smem_bank_conflicts = 0;  // extra passes (degree - 1 per instruction)

  // Constant cache and parameters.
  uint64_t const_instructions = 0;
  uint64_t const_passes = 0;
  uint64_t const_hits = 0;
  uint64_t const_misses = 0;
  uint64_t param_instructions = 0;

  // Global/local memory through the L1D / bypass.
  uint64_t global_load_instructions = 0;
  uint64_t global_store_instructions = 0;
  uint64_t local_load_instructions = 0;
  uint64_t local_store_instructions = 0;
  uint64_t atomic_instructions = 0;    // atom + red on global memory
  uint64_t load_transactions = 0;
  uint64_t store_transactions = 0;
  uint64_t atomic_transactions = 0;
  uint64_t local_transactions = 0;     // subset of the above to local memory
  uint64_t transaction_sectors = 0;
  uint64_t responses = 0;
  uint64_t ldst_blocked_cycles = 0;    // cycles the next transaction could not be sent
  // Load latency (global and local load transactions, sent to response
  // arrival, core cycles) by the level that supplied the data
  // (MemExtension::served_level: 0 = DRAM, 1 = L1D hit, 2 = L2 hit): sums,
  // counts and log2 histograms (element k: latencies in [2^k, 2^(k+1)), 0 in element 0).
  static constexpr unsigned kLatencyLevels = 3;
  static constexpr unsigned kLatencyBuckets = 16;
  uint64_t load_latency_sum[kLatencyLevels] = {};
  uint64_t load_latency_count[kLatencyLevels] = {};
  std::vector<uint64_t> load_latency_histogram[kLatencyLevels];

  // CTAs and occupancy.
  uint64_t ctas_launched = 0;
  uint64_t ctas_completed = 0;
  uint64_t warps_launched = 0;
  uint64_t resident_cta_cycles = 0;    // integral of resident CTAs over cycles
  uint64_t resident_warp_cycles = 0;   // integral of resident (unfinished) warps
  uint64_t max_resident_ctas = 0;
  uint64_t max_resident_warps = 0;
};

}  // namespace simtlm::models
