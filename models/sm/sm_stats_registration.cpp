// The SM's statistics: issue-slot accounting, instruction mix, front end,
// register file, shared/constant memory, LD/ST, CTA residency, IPC and the
// L1D's counters, registered under the SM's group (gpu.sm[i]); the policy and
// the allocators add theirs under gpu.sm[i].scheduler / .regfile / .smem.
#include <string>

#include "models/sm/l1d_locality.h"
#include "models/regfile/power_states.h"
#include "models/sm/sharing_issue_counter.h"
#include "models/sm/sm.h"

namespace simtlm::models {

namespace {

const char* const kClassNames[SmStats::kExecClasses] = {
    "int", "fp", "sfu", "dp", "load", "store", "atomic", "reduction",
    "branch", "barrier", "exit", "collective", "nop", "extension"};

}  // namespace

void Sm::register_stats(const stats::Group& g) {
  SmStats& s = stats();
  g.counter("active_cycles", &s.active_cycles, "core cycles", "cycles with at least one resident CTA");
  g.counter("busy_cycles", &s.busy_cycles, "core cycles", "cycles evaluated or skipped while busy");
  g.counter("idle_cycles", &s.idle_cycles, "core cycles", "cycles asleep");
  g.counter("slot_issued", &s.slot_issued, "slots", "issue slots: instruction issued");
  g.counter("slot_idle", &s.slot_idle, "slots", "issue slots: no warp to offer");
  g.counter("slot_scoreboard", &s.slot_scoreboard, "slots", "issue slots: waiting for a register");
  g.counter("slot_pipeline", &s.slot_pipeline, "slots", "issue slots: execution unit or collector busy");
  g.counter("slot_barrier", &s.slot_barrier, "slots", "issue slots: waiting at a barrier");
  g.counter("slot_memory", &s.slot_memory, "slots", "issue slots: LD/ST unit busy or back-pressured");
  g.counter("slot_fetch", &s.slot_fetch, "slots", "issue slots: instruction buffer empty");
  g.counter("slot_throttled", &s.slot_throttled, "slots", "issue slots: vetoed by policy or allocator");
  g.counter("warp_instructions", &s.warp_instructions, "instructions", "warp instructions issued");
  g.counter("thread_instructions", &s.thread_instructions, "instructions", "thread instructions (active lanes)");
  for (unsigned k = 0; k < SmStats::kExecClasses; ++k) {
    g.counter(std::string("class_") + kClassNames[k], &s.class_instructions[k], "instructions",
              std::string("warp instructions of class ") + kClassNames[k]);
  }
  g.counter("fetches", &s.fetches, "fetches", "instruction fetches");
  g.counter("icache_hits", &s.icache_hits, "accesses", "instruction cache hits");
  g.counter("icache_misses", &s.icache_misses, "accesses", "instruction cache misses");
  g.counter("ibuffer_flushes", &s.ibuffer_flushes, "flushes", "instruction buffer flushes");
  g.counter("regfile_reads", &s.regfile_reads, "accesses", "register bank reads (32-bit physical registers)");
  g.counter("regfile_bank_conflicts", &s.regfile_bank_conflicts, "cycles", "register bank conflicts");
  g.counter("regfile_writes", &s.regfile_writes, "accesses", "register bank writes (32-bit physical registers)");
  g.counter("regfile_write_conflicts", &s.regfile_write_conflicts, "accesses",
            "register writes delayed by a busy write port");
  g.counter("smem_instructions", &s.smem_instructions, "instructions", "shared-memory instructions");
  g.counter("smem_passes", &s.smem_passes, "passes", "shared-memory bank passes");
  g.counter("smem_bank_conflicts", &s.smem_bank_conflicts, "passes", "extra shared-memory passes (conflicts)");
  g.counter("const_instructions", &s.const_instructions, "instructions", "constant-memory instructions");
  g.counter("const_passes", &s.const_passes, "passes", "constant-cache passes");
  g.counter("const_hits", &s.const_hits, "accesses", "constant-cache hits");
  g.counter("const_misses", &s.const_misses, "accesses", "constant-cache misses");
  g.counter("param_instructions", &s.param_instructions, "instructions", "parameter loads");
  g.counter("global_load_instructions", &s.global_load_instructions, "instructions", "global loads");
  g.counter("global_store_instructions", &s.global_store_instructions, "instructions", "global stores");
  g.counter("local_load_instructions", &s.local_load_instructions, "instructions", "local loads");
  g.counter("local_store_instructions", &s.local_store_instructions, "instructions", "local stores");
  g.counter("atomic_instructions", &s.atomic_instructions, "instructions", "global atomics and reductions");
  g.counter("load_transactions", &s.load_transactions, "transactions", "load transactions");
  g.counter("store_transactions", &s.store_transactions, "transactions", "store transactions");
  g.counter("atomic_transactions", &s.atomic_transactions, "transactions", "atomic transactions");
  g.counter("local_transactions", &s.local_transactions, "transactions", "transactions to local memory");
  g.counter("transaction_sectors", &s.transaction_sectors, "sectors", "sectors requested");
  g.counter("responses", &s.responses, "responses", "memory responses received");
  g.counter("ldst_blocked_cycles", &s.ldst_blocked_cycles, "cycles", "cycles the LD/ST head could not be sent");
  g.counter("ctas_launched", &s.ctas_launched, "CTAs", "CTAs started");
  g.counter("ctas_completed", &s.ctas_completed, "CTAs", "CTAs completed");
  g.counter("warps_launched", &s.warps_launched, "warps", "warps started");
  g.counter("resident_cta_cycles", &s.resident_cta_cycles, "CTA cycles", "integral of resident CTAs");
  g.counter("resident_warp_cycles", &s.resident_warp_cycles, "warp cycles", "integral of resident warps");
  g.level("max_resident_ctas", &s.max_resident_ctas, "CTAs", "most resident CTAs since the start");
  g.level("max_resident_warps", &s.max_resident_warps, "warps", "most resident warps since the start");
  g.vector("active_lanes", &s.active_lanes, "instructions",
           "warp instructions by active lanes (element i: i lanes active), the SIMD-efficiency histogram");
  static const char* const kLevels[SmStats::kLatencyLevels][2] = {
      {"dram", "served by DRAM (missed every cache)"}, {"l1_hit", "L1D hits"}, {"l2_hit", "served by the L2 (L1D miss or bypass)"}};
  for (unsigned k = 0; k < SmStats::kLatencyLevels; ++k) {
    const std::string level = kLevels[k][0], what = kLevels[k][1];
    g.counter("load_latency_sum_" + level, &s.load_latency_sum[k], "core cycles",
              "summed latency (sent to response) of load transactions " + what);
    g.counter("load_latency_count_" + level, &s.load_latency_count[k], "transactions", "load transactions " + what);
    g.vector("load_latency_histogram_" + level, &s.load_latency_histogram[k], "transactions",
             "load transactions " + what + " by latency: element k counts [2^k, 2^(k+1)) cycles");
  }
  g.formula("ipc", "@warp_instructions / @active_cycles", "instructions/cycle", "IPC while active");
  if (Cache* l1 = l1d()) l1->register_stats(g.child("l1d"));
  // The swappable parts add their own counters (none for the baselines).
  policy_->register_stats(g.child("scheduler"));
  register_allocator().register_stats(g.child("regfile"));
  if (power_) power_->register_stats(g.child("regfile"));
  shared_allocator().register_stats(g.child("smem"));
  if (sharing_issues_) sharing_issues_->register_stats(g.child("sharing"));
  if (locality_) locality_->register_stats(g.child("l1d_locality"), g.path("warp_instructions"));
  if (group_unit_) group_unit_->register_stats(g);
}

}  // namespace simtlm::models
