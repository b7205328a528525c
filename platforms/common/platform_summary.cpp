// The readable run summaries: the block of key figures over one window
// (a launch, several launches taken together, or the whole run) and the
// kernel table (one line per kernel name, or per launch). Every figure is
// scoped to the window it is computed from: counters are that window's
// differences, and the "max" occupancy is the most resident during the
// window's launches (run-wide levels for the whole run, the dispatcher's
// per-launch levels for launch windows and their combinations).
#include <algorithm>
#include <map>
#include <sstream>

#include "frontend/ptx/demangle.h"
#include "platforms/common/platform.h"
#include "platforms/common/summary_format.h"

namespace simtlm::platforms {

namespace {

// "12.345 µs" / "1.234 ms" / "1.234 s" of `cycles` at `mhz`.
std::string time_text(double cycles, double mhz) {
  const double us = cycles / mhz;
  if (us < 1000.0) return summary_number(us, 3) + " \u00b5s";
  if (us < 1e6) return summary_number(us / 1000.0, 3) + " ms";
  return summary_number(us / 1e6, 3) + " s";
}

std::string mhz_text(double mhz) {
  std::string t = summary_number(mhz, 3);
  while (t.back() == '0') t.pop_back();  // 700.000 -> 700
  if (t.back() == '.') t.pop_back();
  return t + " MHz";
}

// The SIMD-efficiency histogram in (up to) eight equal ranges of active
// lanes, as shares of the issued warp instructions: "1-4 2.0 %, ...".
std::string lanes_histogram_text(const std::vector<double>& lanes) {
  if (lanes.size() < 2) return "n/a";
  const size_t width = lanes.size() - 1;  // warp size
  const size_t step = (width + 7) / 8;
  double total = 0.0;
  for (double x : lanes) total += x;
  if (total == 0.0) return "n/a";
  std::string out;
  if (lanes[0] != 0.0) out = "0 " + summary_percent(lanes[0] / total);
  for (size_t lo = 1; lo <= width; lo += step) {
    const size_t hi = std::min(width, lo + step - 1);
    double n = 0.0;
    for (size_t k = lo; k <= hi; ++k) n += lanes[k];
    out += (out.empty() ? "" : ", ") + (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) +
           " " + summary_percent(n / total);
  }
  return out;
}

}  // namespace

std::string Platform::summary(const stats::Values& v, bool whole_run) const {
  const stats::Registry& r = *registry_;
  const std::string p = std::string(name()) + ".";
  auto val = [&](const std::string& n) { return r.value(p + n, v); };
  auto count = [&](const std::string& n) { return summary_number(val(n), 0); };
  auto pct = [](double x) { return summary_percent(x); };
  std::ostringstream os;
  const SummaryLine line = [&os](const std::string& label, const std::string& text) {
    os << "  " << label << std::string(label.size() < 24 ? 24 - label.size() : 1, ' ') << text << "\n";
  };
  const double mhz = cfg_.f64("gpu.clocks.core_mhz");
  line("cycles", count("cycles") + " (" + time_text(val("cycles"), mhz) + " at the " + mhz_text(mhz) +
                     " core clock)");
  std::string clocks = "core " + mhz_text(mhz);
  for (const auto& [domain, domain_mhz] : clock_domains()) clocks += ", " + domain + " " + mhz_text(domain_mhz);
  line("clocks", clocks);
  line("IPC", summary_number(val("ipc")) + " warp instr/cycle (" + summary_number(val("thread_ipc"), 1) +
                  " thread instr/cycle)");
  line("SIMD efficiency", pct(val("simd_efficiency")) + " of lanes active per warp instruction");
  line("active lanes", lanes_histogram_text(r.vector_sum(p + "sm[*].active_lanes", v)));
  line("SM active", pct(val("sm_active_fraction")) + " of SM cycles");
  const double slots = val("issue.slots");
  std::string issue;
  for (const char* k : {"issued", "idle", "scoreboard", "pipeline", "barrier", "memory", "fetch", "throttled"}) {
    issue += std::string(issue.empty() ? "" : ", ") + k + " " + pct(val(std::string("issue.") + k) / slots);
  }
  line("issue slots", issue);
  const char* max_ctas = whole_run ? "occupancy.run_max_ctas_per_sm" : "occupancy.max_ctas_per_sm";
  const char* max_warps = whole_run ? "occupancy.run_max_warps_per_sm" : "occupancy.max_warps_per_sm";
  line("occupancy", "avg " + summary_number(val("occupancy.avg_ctas_per_sm"), 2) + " CTAs, " +
                        summary_number(val("occupancy.avg_warps_per_sm"), 1) + " warps per SM (" +
                        pct(val("occupancy.achieved")) + "); max " + count(max_ctas) + " CTAs, " + count(max_warps) +
                        " warps on one SM");
  line("bank conflicts", "register " + count("regfile_bank_conflicts") + ", shared memory " +
                             count("smem_bank_conflicts"));
  summarize_cache_totals(r, v, p + "l1d_total.", "L1D", line);
  for (const char* kind : {"register", "scratchpad"}) {
    const std::string k = std::string(kind) + "_sharing.";
    if (!r.contains(p + k + "pairs")) continue;
    line(std::string(kind) + " sharing", count(k + "pairs") + " CTA pairs, " + count(k + "lock_acquisitions") +
                                             " lock acquisitions, " + count(k + "lock_stalls") +
                                             " lock stalls; tables " + count(k + "storage_bits") + " bits");
  }
  if (r.contains(p + "sm[0].scheduler.ccws.vta_hits")) {
    const double kinst = val("warp_instructions") / 1000.0;
    line("CCWS", summary_number(r.sum(p + "sm[*].scheduler.ccws.vta_hits", v), 0) + " VTA hits (" +
                     summary_number(kinst > 0 ? r.sum(p + "sm[*].scheduler.ccws.vta_hits", v) / kinst : 0.0, 3) +
                     " per kilo-instruction); storage " + count("sm[0].scheduler.ccws.storage_bits") + " bits per SM");
  }
  if (r.contains(p + "sm[0].scheduler.daws.loop_begins")) {
    line("DAWS", summary_number(r.sum(p + "sm[*].scheduler.daws.loop_begins", v), 0) + " loop begins, " +
                     summary_number(r.sum(p + "sm[*].scheduler.daws.sampled_loads", v), 0) + " sampled loads, " +
                     summary_number(r.sum(p + "sm[*].scheduler.daws.blocked_warp_cycles", v), 0) +
                     " load-throttled warp-cycles; storage " + count("sm[0].scheduler.daws.storage_bits") +
                     " bits per SM");
  }
  summarize_load_latency(v, line);
  summarize_topology(v, line);
  line("legend", "read hit rate = read hits / (hits + misses + sector misses + merges); a miss finds no line, a");
  line("", "sector miss finds the line without the sectors, a merge joins a miss in flight; atomics done in a");
  line("", "write-back cache count among its reads; reservation fails = cycles a lookup could not proceed");
  line("", "(MSHRs full, merge limit, no replaceable line, miss or response queue full), one per cycle retried;");
  line("", "load latency = average core cycles from a load transaction leaving the LD/ST unit to its data, by");
  line("", "the level that supplied the data (a load that joined a miss in flight counts where that miss was");
  line("", "served), then each level's loads in power-of-two latency ranges");
  return os.str();
}

void summarize_cache_totals(const stats::Registry& r, const stats::Values& v, const std::string& prefix,
                            const std::string& label, const SummaryLine& line) {
  if (!r.contains(prefix + "hits")) return;
  auto val = [&](const std::string& k) { return r.value(prefix + k, v); };
  auto count = [&](const std::string& k) { return summary_number(val(k), 0); };
  line(label, count("accesses") + " accesses: " + count("reads") + " reads, " + count("writes") + " writes, " +
                  count("atomics") + " atomics; " + count("reservation_fails") + " reservation fails");
  line("", "reads: " + count("hits") + " hits, " + count("misses") + " misses, " + count("sector_misses") +
               " sector misses, " + count("mshr_merges") + " merges (read hit rate " +
               summary_percent(val("hit_rate")) + ")");
  if (r.contains(prefix + "write_hits"))
    line("", "writes: " + count("write_hits") + " hits, " + count("write_misses") + " misses");
}

void Platform::summarize_load_latency(const stats::Values& v, const SummaryLine& line) const {
  const stats::Registry& r = *registry_;
  const std::string p = std::string(name()) + ".";
  static const char* const kLevels[][2] = {{"l1_hit", "L1D hit"}, {"l2_hit", "L2"}, {"dram", "DRAM"}};
  std::string averages;
  std::vector<std::string> distributions;
  for (const auto& level : kLevels) {
    const double n = r.value(p + "load_latency.count_" + std::string(level[0]), v);
    averages += (averages.empty() ? "" : ", ") + std::string(level[1]) + " " +
                summary_number(r.value(p + "load_latency.avg_" + std::string(level[0]), v), 1) + " cycles (" +
                summary_number(n, 0) + (averages.empty() ? " loads)" : ")");
    if (n == 0) continue;
    const std::vector<double> h = r.vector_sum(p + "sm[*].load_latency_histogram_" + std::string(level[0]), v);
    std::string text;
    for (size_t k = 0; k < h.size(); ++k) {
      if (h[k] == 0) continue;
      const uint64_t lo = k == 0 ? 0 : uint64_t{1} << k;
      const std::string range = k + 1 == h.size() ? std::to_string(lo) + "+"
                                                  : std::to_string(lo) + "-" + std::to_string((uint64_t{2} << k) - 1);
      text += (text.empty() ? "" : ", ") + range + " " + summary_percent(h[k] / n);
    }
    distributions.push_back(std::string(level[1]) + ": " + text);
  }
  line("load latency", averages);
  for (const std::string& d : distributions) line("", d);
}

std::string Platform::total_summary() const { return summary(recorder_->total(), true) + energy_summary(); }

// ---------------------------------------------------------------- kernel table

std::string Platform::kernel_table(bool per_launch) const {
  const stats::Registry& r = *registry_;
  const std::string p = std::string(name()) + ".";
  struct Row {
    std::string kernel;  // as launched (mangled)
    size_t launches = 0;
    stats::Values values;
  };
  std::vector<Row> rows;
  for (const stats::KernelRecorder::Record& rec : recorder_->kernels()) {
    if (!rec.finished) continue;
    auto it = per_launch ? rows.end()
                         : std::find_if(rows.begin(), rows.end(), [&](const Row& x) { return x.kernel == rec.kernel; });
    if (it == rows.end()) it = rows.insert(rows.end(), Row{rec.kernel, 0, {}});
    ++it->launches;
    r.accumulate(it->values, rec.values);
  }
  if (rows.empty()) return "";
  // Display names: the demangled name without its parameters, the whole
  // signature where two kernels would otherwise look alike.
  std::map<std::string, std::vector<std::string>> by_short;
  for (const Row& row : rows) {
    auto& kernels = by_short[frontend::ptx::short_kernel_name(row.kernel)];
    if (std::find(kernels.begin(), kernels.end(), row.kernel) == kernels.end()) kernels.push_back(row.kernel);
  }
  auto shown = [&](const std::string& kernel) {
    const std::string s = frontend::ptx::short_kernel_name(kernel);
    if (by_short[s].size() == 1) return s;
    const std::string full = frontend::ptx::demangle(kernel);
    return full.empty() ? kernel : full;
  };
  const double mhz = cfg_.f64("gpu.clocks.core_mhz");
  const bool has_l2 = r.contains(p + "l2_total.hit_rate");
  const bool has_dram = r.contains(p + "dram_total.bandwidth_gbps");
  const bool has_l1 = r.contains(p + "l1d_total.hit_rate");
  std::vector<std::vector<std::string>> cells;
  cells.push_back({per_launch ? "launch" : "launches", "kernel", "cycles", "time", "warp instr", "IPC", "occupancy",
                   "max warps", "SIMD eff", "L1D read hit", "L2 read hit", "DRAM GB/s"});
  size_t index = 0;
  const std::vector<stats::KernelRecorder::Record>& records = recorder_->kernels();
  for (const Row& row : rows) {
    while (per_launch && index < records.size() && !records[index].finished) ++index;
    auto val = [&](const std::string& n) { return r.value(p + n, row.values); };
    auto opt_pct = [&](bool has, const std::string& n) { return has ? summary_percent(val(n)) : std::string("-"); };
    cells.push_back({per_launch ? std::to_string(records[index++].index) : std::to_string(row.launches),
                     shown(row.kernel), summary_number(val("cycles"), 0), time_text(val("cycles"), mhz),
                     summary_number(val("warp_instructions"), 0), summary_number(val("ipc"), 3),
                     summary_percent(val("occupancy.achieved")), summary_number(val("occupancy.max_warps_per_sm"), 0),
                     summary_percent(val("simd_efficiency")), opt_pct(has_l1, "l1d_total.hit_rate"),
                     opt_pct(has_l2, "l2_total.hit_rate"),
                     has_dram ? summary_number(val("dram_total.bandwidth_gbps"), 2) : std::string("-")});
  }
  // Column widths from the cells (display width: "µ" is one column, two bytes).
  auto width = [](const std::string& s) {
    size_t w = 0;
    for (unsigned char c : s) w += (c & 0xC0) != 0x80;
    return w;
  };
  std::vector<size_t> widths(cells.front().size(), 0);
  for (const auto& row : cells)
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], width(row[c]));
  std::ostringstream os;
  for (const auto& row : cells) {
    os << " ";
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - width(row[c]), ' ');
      os << " " << (c == 1 ? row[c] + pad : pad + row[c]);  // names left, figures right
    }
    os << "\n";
  }
  // The mangled names behind the display names.
  std::vector<std::string> listed;
  for (const Row& row : rows) {
    const std::string full = frontend::ptx::demangle(row.kernel);
    if (full.empty() || std::find(listed.begin(), listed.end(), row.kernel) != listed.end()) continue;
    listed.push_back(row.kernel);
    os << "  " << shown(row.kernel) << " = " << full << " (" << row.kernel << ")\n";
  }
  return os.str();
}

}  // namespace simtlm::platforms
