// GpuPlatform statistics: every module's counters in the statistics tree
// (gpu.sm[i].*, gpu.sm[i].l1d.*, gpu.noc.*, gpu.l2[s].*, gpu.dram[c].*), the
// GPU-wide derived figures (gpu.*) and the readable summary.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "platforms/gpu/gpu_platform.h"

namespace simtlm::platforms {

namespace {

const char* const kClassNames[models::SmStats::kExecClasses] = {
    "int", "fp", "sfu", "dp", "load", "store", "atomic", "reduction",
    "branch", "barrier", "exit", "collective", "nop", "extension"};

void register_cache(const stats::Group& g, models::CacheStats& s) {
  g.counter("accesses", &s.accesses, "requests", "requests that completed their tag lookup");
  g.counter("reads", &s.reads, "requests", "read requests");
  g.counter("writes", &s.writes, "requests", "write requests");
  g.counter("atomics", &s.atomics, "requests", "atomic requests");
  g.counter("hits", &s.hits, "requests", "read hits");
  g.counter("misses", &s.misses, "requests", "read misses (line absent)");
  g.counter("sector_misses", &s.sector_misses, "requests", "read misses on a present line (sectors missing)");
  g.counter("mshr_merges", &s.mshr_merges, "requests", "reads merged into an outstanding fill");
  g.counter("write_hits", &s.write_hits, "requests", "writes to a present line");
  g.counter("write_misses", &s.write_misses, "requests", "writes to an absent line");
  g.counter("reservation_fails", &s.reservation_fails, "cycles", "lookups that could not proceed");
  g.counter("fail_mshr_full", &s.fail_mshr_full, "cycles", "reservation fails: MSHRs full");
  g.counter("fail_merge_limit", &s.fail_merge_limit, "cycles", "reservation fails: MSHR merge limit");
  g.counter("fail_no_line", &s.fail_no_line, "cycles", "reservation fails: no replaceable line");
  g.counter("fail_miss_queue", &s.fail_miss_queue, "cycles", "reservation fails: miss queue full");
  g.counter("fail_response_queue", &s.fail_response_queue, "cycles", "reservation fails: response queue full");
  g.counter("requests_held", &s.requests_held, "requests", "END_REQ delayed: request queue full");
  g.counter("fill_requests", &s.fill_requests, "requests", "fills sent to the next level");
  g.counter("fills", &s.fills, "requests", "fills received");
  g.counter("fill_sectors", &s.fill_sectors, "sectors", "sectors filled");
  g.counter("evictions", &s.evictions, "lines", "lines evicted");
  g.counter("write_invalidations", &s.write_invalidations, "lines", "lines invalidated by writes");
  g.counter("writebacks", &s.writebacks, "requests", "writebacks sent");
  g.counter("writeback_sectors", &s.writeback_sectors, "sectors", "dirty sectors written back");
  g.counter("forwarded", &s.forwarded, "requests", "requests passed to the next level");
  g.counter("responses", &s.responses, "responses", "responses sent to the requester");
  g.counter("fill_stalls", &s.fill_stalls, "cycles", "allocate-on-fill fills waiting");
  g.counter("busy_cycles", &s.busy_cycles, "cycles", "cycles with work");
  g.counter("idle_cycles", &s.idle_cycles, "cycles", "cycles asleep");
  g.formula("hit_rate", "@hits / (@hits + @misses + @sector_misses + @mshr_merges)", "ratio",
            "read hits / reads that looked up");
}

void register_direction(const stats::Group& g, models::XbarDirectionStats& s) {
  g.counter("packets", &s.packets, "packets", "packets through the network");
  g.counter("flits", &s.flits, "flits", "flits through the network");
  g.counter("input_stalls", &s.input_stalls, "packets", "arrivals at a full input buffer");
  g.counter("arb_conflicts", &s.arb_conflicts, "cycles", "input heads that lost arbitration");
  g.counter("output_stalls", &s.output_stalls, "cycles", "input heads waiting for their output");
}

void register_dram(const stats::Group& g, models::DramStats& s) {
  g.counter("reads", &s.reads, "requests", "read requests completed");
  g.counter("writes", &s.writes, "requests", "write requests completed");
  g.counter("read_bursts", &s.read_bursts, "bursts", "read bursts");
  g.counter("write_bursts", &s.write_bursts, "bursts", "write bursts");
  g.counter("activates", &s.activates, "commands", "ACT commands");
  g.counter("precharges", &s.precharges, "commands", "PRE commands");
  g.counter("row_hits", &s.row_hits, "requests", "requests served from the open row");
  g.counter("row_misses", &s.row_misses, "requests", "requests that activated a closed bank");
  g.counter("row_conflicts", &s.row_conflicts, "requests", "requests that closed another row");
  g.counter("bus_busy_cycles", &s.bus_busy_cycles, "DRAM cycles", "data-bus cycles carrying data");
  g.counter("bytes_read", &s.bytes_read, "bytes", "bytes read");
  g.counter("bytes_written", &s.bytes_written, "bytes", "bytes written");
  g.counter("requests_held", &s.requests_held, "requests", "END_REQ delayed: queue full");
  g.counter("read_latency_cycles", &s.read_latency_cycles, "DRAM cycles", "sum of read latencies");
  g.counter("busy_cycles", &s.busy_cycles, "DRAM cycles", "cycles with work");
  g.counter("idle_cycles", &s.idle_cycles, "DRAM cycles", "cycles asleep");
  g.formula("row_hit_rate", "@row_hits / (@row_hits + @row_misses + @row_conflicts)", "ratio",
            "row-buffer hit rate");
}

std::string num(double v, int decimals = 3) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string pct(double v) { return std::isnan(v) ? "n/a" : num(100.0 * v, 1) + " %"; }

}  // namespace

void GpuPlatform::register_stats() {
  stats::Registry& r = *registry_;
  const std::string top = name();  // "gpu"
  stats::Group gpu(r, top);
  gpu.counter("cycles", &cycles_, "core cycles", "core cycles simulated during launches");
  gpu.counter("launches", &launches_, "launches", "kernel launches");
  gpu.counter("ctas", &ctas_, "CTAs", "CTAs completed");

  for (unsigned i = 0; i < num_sms(); ++i) {
    models::Sm& sm = *sms_[i];
    models::SmStats& s = sm.stats();
    const stats::Group g = gpu.child("sm", i);
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
    for (unsigned k = 0; k < models::SmStats::kExecClasses; ++k) {
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
              "register writes that found their bank's ports taken by earlier reads");
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
    g.level("launch_max_resident_ctas", &launch_max_ctas_[i], "CTAs", "most CTAs placed during the last launch");
    g.level("launch_max_resident_warps", &launch_max_warps_[i], "warps", "most warps placed during the last launch");
    g.formula("ipc", "@warp_instructions / @active_cycles", "instructions/cycle", "IPC while active");
    if (models::Cache* l1 = sm.l1d()) register_cache(g.child("l1d"), l1->stats());
  }

  const stats::Group noc = gpu.child("noc");
  models::CrossbarStats& xs = noc_->stats();
  register_direction(noc.child("request"), xs.request);
  register_direction(noc.child("reply"), xs.reply);
  noc.counter("busy_cycles", &xs.busy_cycles, "noc cycles", "cycles with work");
  noc.counter("idle_cycles", &xs.idle_cycles, "noc cycles", "cycles asleep");
  noc.formula("flits", "@request.flits + @reply.flits", "flits", "flits, both networks");
  noc.formula("stalls", "@request.input_stalls + @request.output_stalls + @reply.input_stalls + @reply.output_stalls",
              "events", "input-buffer and output stalls, both networks");

  for (unsigned s = 0; s < l2_.size(); ++s) register_cache(gpu.child("l2", s), l2_[s]->stats());
  for (unsigned c = 0; c < dram_.size(); ++c) register_dram(gpu.child("dram", c), dram_[c]->stats());

  // GPU-wide figures.
  const std::string p = top + ".";
  auto sum = [&](const std::string& pattern) { return "sum(" + p + pattern + ")"; };
  gpu.formula("warp_instructions", sum("sm[*].warp_instructions"), "instructions", "warp instructions, all SMs");
  gpu.formula("thread_instructions", sum("sm[*].thread_instructions"), "instructions", "thread instructions");
  gpu.formula("ipc", "@warp_instructions / @cycles", "instructions/cycle", "warp instructions per core cycle");
  gpu.formula("thread_ipc", "@thread_instructions / @cycles", "instructions/cycle", "thread instructions per cycle");
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
  gpu.formula("regfile_bank_conflicts", sum("sm[*].regfile_bank_conflicts"), "cycles", "register bank conflicts");
  gpu.formula("smem_bank_conflicts", sum("sm[*].smem_bank_conflicts"), "passes", "shared-memory bank conflicts");

  for (const char* level : {"l1d", "l2"}) {
    const bool l1 = std::string(level) == "l1d";
    if (l1 && sms_.front()->l1d() == nullptr) continue;
    if (!l1 && l2_.empty()) continue;
    const std::string src = l1 ? "sm[*].l1d." : "l2[*].";
    const stats::Group g = gpu.child(l1 ? "l1d_total" : "l2_total");
    for (const char* k : {"accesses", "reads", "writes", "atomics", "hits", "misses", "sector_misses", "mshr_merges",
                          "reservation_fails", "writebacks"}) {
      g.formula(k, sum(src + k), "requests", std::string(level) + " " + k + ", all instances");
    }
    g.formula("hit_rate", "@hits / (@hits + @misses + @sector_misses + @mshr_merges)", "ratio",
              std::string(level) + " read hit rate");
  }

  const stats::Group dram = gpu.child("dram_total");
  for (const char* k : {"reads", "writes", "activates", "precharges", "row_hits", "row_misses", "row_conflicts",
                        "bytes_read", "bytes_written"}) {
    dram.formula(k, sum(std::string("dram[*].") + k), "", std::string("DRAM ") + k + ", all channels");
  }
  dram.formula("row_hit_rate", "@row_hits / (@row_hits + @row_misses + @row_conflicts)", "ratio",
               "row-buffer hit rate");
  const double core_mhz = cfg_.f64("gpu.clocks.core_mhz");
  char mhz[64];
  std::snprintf(mhz, sizeof mhz, "%.6f", core_mhz);
  dram.formula("bandwidth_gbps", "(@bytes_read + @bytes_written) / " + p + "cycles * " + mhz + " / 1000", "GB/s",
               "achieved DRAM bandwidth (bytes moved / simulated time)");
  const double peak = static_cast<double>(cfg_.u32("gpu.dram.channels")) * cfg_.u32("gpu.dram.bus_width_bytes") *
                      cfg_.u32("gpu.dram.chips_per_channel") * cfg_.u32("gpu.dram.data_rate") *
                      cfg_.f64("gpu.clocks.dram_mhz") / 1000.0;
  char peak_text[64];
  std::snprintf(peak_text, sizeof peak_text, "%.6f", peak);
  dram.formula("peak_gbps", peak_text, "GB/s",
               "configured peak: channels x bus_width x chips x data_rate x dram_mhz");
  dram.formula("bandwidth_efficiency", "@bandwidth_gbps / @peak_gbps", "ratio", "achieved / peak DRAM bandwidth");
}

void GpuPlatform::refresh_stats() {
  for (auto& sm : sms_) {
    sm->stats();
    if (models::Cache* l1 = sm->l1d()) l1->stats();
  }
  noc_->stats();
  for (auto& l2 : l2_) l2->stats();
  for (auto& d : dram_) d->stats();
}

std::string GpuPlatform::stats_json() const { return recorder_->dump_json(true); }

std::string GpuPlatform::summary(const stats::Values& v) const {
  const stats::Registry& r = *registry_;
  const std::string p = std::string(name()) + ".";
  auto val = [&](const std::string& n) { return r.value(p + n, v); };
  auto count = [&](const std::string& n) { return num(val(n), 0); };
  std::ostringstream os;
  auto line = [&](const std::string& label, const std::string& text) {
    os << "  " << label << std::string(label.size() < 24 ? 24 - label.size() : 1, ' ') << text << "\n";
  };
  line("cycles", count("cycles"));
  line("IPC", num(val("ipc")) + " warp instr/cycle (" + num(val("thread_ipc"), 1) + " thread instr/cycle)");
  line("SM active", pct(val("sm_active_fraction")) + " of SM cycles");
  const double slots = val("issue.slots");
  std::string issue;
  for (const char* k : {"issued", "idle", "scoreboard", "pipeline", "barrier", "memory", "fetch", "throttled"}) {
    issue += std::string(issue.empty() ? "" : ", ") + k + " " + pct(val(std::string("issue.") + k) / slots);
  }
  line("issue slots", issue);
  line("occupancy", "avg " + num(val("occupancy.avg_ctas_per_sm"), 2) + " CTAs, " +
                        num(val("occupancy.avg_warps_per_sm"), 1) + " warps per SM (" +
                        pct(val("occupancy.achieved")) + "); max " + count("occupancy.max_ctas_per_sm") + " CTAs, " +
                        count("occupancy.max_warps_per_sm") + " warps");
  line("bank conflicts", "register " + count("regfile_bank_conflicts") + ", shared memory " +
                             count("smem_bank_conflicts"));
  for (const char* level : {"l1d_total", "l2_total"}) {
    if (!r.contains(p + level + ".hits")) continue;
    const std::string k = std::string(level) + ".";
    line(std::string(level) == "l1d_total" ? "L1D" : "L2",
         count(k + "accesses") + " accesses, " + count(k + "hits") + " hits, " + count(k + "misses") + " misses, " +
             count(k + "sector_misses") + " sector misses, " + count(k + "mshr_merges") + " merges, " +
             count(k + "reservation_fails") + " reservation fails (hit rate " + pct(val(k + "hit_rate")) + ")");
  }
  line("interconnect", count("noc.flits") + " flits, " + count("noc.stalls") + " stalls");
  line("DRAM", count("dram_total.reads") + " reads, " + count("dram_total.writes") + " writes, " +
                   count("dram_total.activates") + " activates, row hits " + pct(val("dram_total.row_hit_rate")));
  line("DRAM bandwidth", num(val("dram_total.bandwidth_gbps"), 2) + " GB/s of " +
                             num(val("dram_total.peak_gbps"), 1) + " GB/s peak (" +
                             pct(val("dram_total.bandwidth_efficiency")) + ")");
  return os.str();
}

std::string GpuPlatform::total_summary() const { return summary(recorder_->total()); }

}  // namespace simtlm::platforms
