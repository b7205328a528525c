// Platform statistics: the launch counters (<top>.cycles/launches/ctas), every
// SM's own statistics (Sm::register_stats) with the dispatcher's per-launch
// occupancy levels and the SM-wide figures (IPC, issue slots, occupancy, L1D
// totals). The builder's memory side adds its own (register_topology_stats);
// the readable summaries are in platform_summary.cpp.
#include <nlohmann/json.hpp>

#include "models/power/energy_account.h"
#include "models/sm/sharing_occupancy.h"
#include "platforms/common/platform.h"
#include "platforms/common/platform_dyn.h"

namespace simtlm::platforms {

void register_cache_totals(const stats::Group& g, const std::string& level, const std::string& source) {
  auto sum = [&](const std::string& k) { return "sum(" + source + k + ")"; };
  for (const char* k : {"accesses", "reads", "writes", "atomics", "hits", "misses", "sector_misses", "mshr_merges",
                        "write_hits", "write_misses", "reservation_fails", "writebacks"}) {
    g.formula(k, sum(k), "requests", level + " " + k + ", all instances");
  }
  g.formula("hit_rate", "@hits / (@hits + @misses + @sector_misses + @mshr_merges)", "ratio",
            level + " read hit rate");
}

void Platform::register_stats() {
  stats::Registry& r = *registry_;
  const std::string top = name();  // "gpu"
  stats::Group gpu(r, top);
  gpu.counter("cycles", &totals_.cycles, "core cycles", "core cycles simulated during launches");
  gpu.counter("launches", &totals_.launches, "launches", "kernel launches");
  gpu.counter("ctas", &totals_.ctas, "CTAs", "CTAs completed");

  for (unsigned i = 0; i < num_sms(); ++i) {
    const stats::Group g = gpu.child("sm", i);
    sms_[i]->register_stats(g);
    if (dyn_) dyn_->gates[i]->register_stats(g.child("regfile"));
    g.level("launch_max_resident_ctas", &launch_max_ctas_[i], "CTAs", "most CTAs placed during the last launch");
    g.level("launch_max_resident_warps", &launch_max_warps_[i], "warps", "most warps placed during the last launch");
  }
  register_topology_stats(gpu);

  // SM-wide figures.
  const std::string p = top + ".";
  auto sum = [&](const std::string& pattern) { return "sum(" + p + pattern + ")"; };
  gpu.formula("warp_instructions", sum("sm[*].warp_instructions"), "instructions", "warp instructions, all SMs");
  gpu.formula("thread_instructions", sum("sm[*].thread_instructions"), "instructions", "thread instructions");
  gpu.formula("ipc", "@warp_instructions / @cycles", "instructions/cycle", "warp instructions per core cycle");
  gpu.formula("thread_ipc", "@thread_instructions / @cycles", "instructions/cycle", "thread instructions per cycle");
  gpu.formula("simd_efficiency",
              "@thread_instructions / (@warp_instructions * " + std::to_string(sms_.front()->params().warp_size) + ")",
              "ratio", "SIMD efficiency: active lanes per issued warp instruction / warp size");
  gpu.formula("sm_active_cycles", sum("sm[*].active_cycles"), "core cycles", "active cycles summed over SMs");
  gpu.formula("sm_active_fraction", "@sm_active_cycles / (@cycles * " + std::to_string(num_sms()) + ")", "ratio",
              "fraction of SM cycles with a resident CTA");
  const stats::Group issue = gpu.child("issue");
  for (const char* k : {"issued", "idle", "scoreboard", "pipeline", "barrier", "memory", "fetch", "throttled"}) {
    issue.formula(k, sum(std::string("sm[*].slot_") + k), "slots", std::string("issue slots: ") + k);
  }
  issue.formula("slots", "@issued + @idle + @scoreboard + @pipeline + @barrier + @memory + @fetch + @throttled",
                "slots", "issue slots (schedulers x active cycles)");
  const stats::Group occ = gpu.child("occupancy");
  occ.formula("avg_ctas_per_sm", sum("sm[*].resident_cta_cycles") + " / " + sum("sm[*].active_cycles"), "CTAs",
              "resident CTAs per SM, averaged over active cycles");
  occ.formula("avg_warps_per_sm", sum("sm[*].resident_warp_cycles") + " / " + sum("sm[*].active_cycles"), "warps",
              "resident warps per SM, averaged over active cycles");
  const uint32_t max_warps = sms_.front()->params().max_warps();
  occ.formula("achieved", "@avg_warps_per_sm / " + std::to_string(max_warps), "ratio",
              "achieved occupancy: average resident warps / warp slots");
  occ.formula("max_ctas_per_sm", "max(" + p + "sm[*].launch_max_resident_ctas)", "CTAs",
              "most CTAs resident on one SM during the last launch");
  occ.formula("max_warps_per_sm", "max(" + p + "sm[*].launch_max_resident_warps)", "warps",
              "most warps resident on one SM during the last launch");
  occ.formula("run_max_ctas_per_sm", "max(" + p + "sm[*].max_resident_ctas)", "CTAs",
              "most CTAs resident on one SM since the start (every launch)");
  occ.formula("run_max_warps_per_sm", "max(" + p + "sm[*].max_resident_warps)", "warps",
              "most warps resident on one SM since the start (every launch)");
  const stats::Group latency = gpu.child("load_latency");
  for (const char* level : {"l1_hit", "l2_hit", "dram"}) {
    const std::string l = level;
    latency.formula("count_" + l, sum("sm[*].load_latency_count_" + l), "transactions",
                    "load transactions, all SMs, supplied by: " + l);
    latency.formula("avg_" + l, sum("sm[*].load_latency_sum_" + l) + " / @count_" + l, "core cycles",
                    "average load latency (sent to response), supplied by: " + l);
  }
  gpu.formula("regfile_bank_conflicts", sum("sm[*].regfile_bank_conflicts"), "cycles", "register bank conflicts");
  gpu.formula("smem_bank_conflicts", sum("sm[*].smem_bank_conflicts"), "passes", "shared-memory bank conflicts");
  if (sms_.front()->l1d() != nullptr) register_cache_totals(gpu.child("l1d_total"), "l1d", p + "sm[*].l1d.");
  register_sharing_totals(gpu);
  register_locality_totals(gpu);
}

// CCWS (models/sched/ccws.h), DAWS (models/sched/daws.h) and the L1D locality classes
// (models/sm/l1d_locality.h), GPU-wide, only when configured.
void Platform::register_locality_totals(const stats::Group& gpu) {
  const models::SmParams& sp = sms_.front()->params();
  const std::string p = gpu.prefix() + ".";
  auto sum = [&](const std::string& pattern) { return "sum(" + p + pattern + ")"; };
  const std::string kinst = "(" + p + "warp_instructions / 1000)";
  if (sp.policy.name == "ccws") {
    const stats::Group g = gpu.child("ccws");
    g.formula("vta_hits", sum("sm[*].scheduler.ccws.vta_hits"), "hits", "victim tag hits, all SMs");
    g.formula("vta_hits_pki", "@vta_hits / " + kinst, "hits/kinst", "victim tag hits per thousand warp instructions");
  }
  if (sp.policy.name == "daws") {
    const stats::Group g = gpu.child("daws");
    g.formula("vta_hits", sum("sm[*].scheduler.daws.vta_hits"), "hits", "victim tag hits, all SMs");
    g.formula("vta_hits_pki", "@vta_hits / " + kinst, "hits/kinst", "victim tag hits per thousand warp instructions");
    g.formula("blocked_warp_cycles", sum("sm[*].scheduler.daws.blocked_warp_cycles"), "warp-cycles",
              "warp-cycles with loads throttled by DAWS, all SMs");
  }
  if (sms_.front()->l1d() != nullptr && sp.l1d_locality_stats) {
    const stats::Group g = gpu.child("l1d_locality");
    for (const char* k : {"hits_intra_warp", "hits_intra_thread", "hits_inter_warp", "misses_compulsory",
                          "misses_intra_warp", "misses_inter_warp"}) {
      g.formula(k, sum(std::string("sm[*].l1d_locality.") + k), "lookups", std::string("L1D loads, all SMs: ") + k);
    }
    g.formula("mpki", "(@misses_compulsory + @misses_intra_warp + @misses_inter_warp) / " + kinst, "misses/kinst",
              "L1D load misses per thousand warp instructions");
    for (const char* k : {"hits_intra_warp", "hits_intra_thread", "hits_inter_warp", "misses_intra_warp",
                          "misses_inter_warp"}) {
      g.formula(std::string(k) + "_pki", "@" + std::string(k) + " / " + kinst, "lookups/kinst",
                std::string(k) + " per thousand warp instructions");
    }
  }
}

// Jatala's resource sharing (models/regfile, models/smem sharing_allocator.h):
// GPU-wide pairs, locks and stalls, and the storage its tables add (§2.4),
// only when a sharing allocator is configured (off means off: no new names).
void Platform::register_sharing_totals(const stats::Group& gpu) {
  const models::SmParams& sp = sms_.front()->params();
  const std::string p = gpu.prefix() + ".";
  auto sum = [&](const std::string& pattern) { return "sum(" + p + pattern + ")"; };
  const std::string n = std::to_string(num_sms());
  if (sp.register_alloc_policy == "sharing" || sp.shared_alloc_policy == "sharing") {
    const stats::Group g = gpu.child("sharing");
    for (const char* k : {"issued_owner", "issued_unshared", "issued_non_owner"})
      g.formula(k, sum(std::string("sm[*].sharing.") + k), "warp instructions",
                std::string("warp instructions by sharing class (") + k + "), all SMs");
  }
  if (sp.register_alloc_policy == "sharing") {
    const stats::Group g = gpu.child("register_sharing");
    g.formula("pairs", sum("sm[*].regfile.sharing.pairs"), "pairs", "CTA pairs formed, all SMs");
    g.formula("lock_acquisitions", sum("sm[*].regfile.sharing.lock_acquisitions"), "locks", "warp-pair locks taken");
    g.formula("lock_stalls", sum("sm[*].regfile.sharing.lock_stalls") + " + " +
                                 sum("sm[*].regfile.sharing.deadlock_rule_stalls"),
              "checks", "issue checks refused by a held lock or the deadlock rule");
    if (dyn_) {
      g.formula("dyn_gated_memory_instructions", sum("sm[*].regfile.sharing.dyn.gated_memory_instructions"), "checks",
                "issue checks refused by Dynamic Warp Execution, all SMs");
      g.formula("dyn_passed_memory_instructions", sum("sm[*].regfile.sharing.dyn.passed_memory_instructions"),
                "instructions", "non-owner global/local memory instructions let through, all SMs");
    }
    g.formula("storage_bits", std::to_string(models::register_sharing_storage_bits(sp.max_ctas, sp.max_warps())) +
                                  " * " + n,
              "bits", "storage of the sharing tables (Jatala §2.4), all SMs");
  }
  if (sp.shared_alloc_policy == "sharing") {
    const stats::Group g = gpu.child("scratchpad_sharing");
    g.formula("pairs", sum("sm[*].smem.sharing.pairs"), "pairs", "CTA pairs formed, all SMs");
    g.formula("lock_acquisitions", sum("sm[*].smem.sharing.lock_acquisitions"), "locks", "CTA-pair locks taken");
    g.formula("lock_stalls", sum("sm[*].smem.sharing.lock_stalls"), "checks", "issue checks refused by a held lock");
    g.formula("lock_early_releases", sum("sm[*].smem.sharing.lock_early_releases"), "locks",
              "locks given back by relssp before the holding CTA completed, all SMs");
    g.formula("relssp_completions", sum("sm[*].smem.sharing.relssp_completions"), "CTAs",
              "times every active thread of a CTA had executed relssp, all SMs");
    g.formula("storage_bits", std::to_string(models::scratchpad_sharing_storage_bits(sp.max_ctas, sp.max_warps())) +
                                  " * " + n,
              "bits", "storage of the sharing tables (Jatala §2.4), all SMs");
  }
}

void Platform::refresh_stats() {
  for (auto& sm : sms_) {
    sm->stats();
    if (models::Cache* l1 = sm->l1d()) l1->stats();
  }
  refresh_topology_stats();
}

nlohmann::ordered_json Platform::stats_tree() const {
  nlohmann::ordered_json tree = recorder_->to_json(true);
  if (!energy_) return tree;
  // A new member could reallocate the object's members, whose const keys make
  // the vector copy (not move) every window: move them into room for one more.
  using Members = nlohmann::ordered_json::object_t;
  Members& old_members = tree.get_ref<Members&>();
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  Members& members = out.get_ref<Members&>();
  members.reserve(old_members.size() + 1);
  for (auto& [key, value] : old_members) members.emplace_back(key, std::move(value));
  members.emplace_back("energy", energy_->report_json(*recorder_));
  return out;
}

std::string Platform::stats_json() const {
  if (!energy_) return recorder_->dump_json(true);
  return stats_tree().dump(2) + "\n";
}

}  // namespace simtlm::platforms
