#include "apps/summary.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "apps/cli_common.h"
#include "frontend/ptx/demangle.h"
#include "runtime/backend.h"

namespace simtlm::cli {

Totals totals(const std::vector<LaunchStats>& launches) {
  Totals t;
  for (const LaunchStats& s : launches) {
    t.ctas += s.ctas;
    t.warp_instructions += s.warp_instructions;
    t.thread_instructions += s.thread_instructions;
    t.offchip_accesses += s.offchip_accesses;
    t.spu_passes += s.spu_passes;
    for (uint64_t n : s.viu_spills) t.viu_spills += n;
    for (uint64_t n : s.viu_restores) t.viu_restores += n;
    t.cycles += s.cycles;
    t.host_seconds += s.host_seconds;
  }
  return t;
}

std::string result_word(const RunReport& report) {
  if (!report.checked) return "DONE";
  return report.passed ? "PASS" : "FAIL";
}

nlohmann::ordered_json report_json(const RunReport& report) {
  Totals t = totals(report.launches);
  nlohmann::ordered_json j;
  j["simtlm_version"] = version();
  j["command"] = report.command;
  for (auto& [key, value] : report.identity.items()) j[key] = value;
  j["backend"] = report.backend;
  j["warp_size"] = report.warp_size;
  j["launches"] = report.launches.size();
  j["ctas"] = t.ctas;
  j["warp_instructions"] = t.warp_instructions;
  j["thread_instructions"] = t.thread_instructions;
  j["offchip_accesses"] = t.offchip_accesses;
  if (t.spu_passes != 0) {  // SPU launches only: other runs' files stay as they were
    j["spu_passes"] = t.spu_passes;
    j["viu_spills"] = t.viu_spills;
    j["viu_restores"] = t.viu_restores;
  }
  j["cycles"] = t.cycles;
  // No host (wall-clock) times here: identical runs give identical JSON; the
  // readable summary reports them.
  j["result"] = result_word(report);
  if (report.checked) j["check_detail"] = report.detail;
  nlohmann::ordered_json per_launch = nlohmann::ordered_json::array();
  for (size_t i = 0; i < report.launches.size(); ++i) {
    const LaunchStats& s = report.launches[i];
    nlohmann::ordered_json l;
    l["kernel"] = s.kernel;
    l["ctas"] = s.ctas;
    l["warp_instructions"] = s.warp_instructions;
    l["thread_instructions"] = s.thread_instructions;
    l["offchip_accesses"] = s.offchip_accesses;
    if (s.spu_passes != 0) {  // per physical interface unit k (the timing platform's iu[k])
      l["spu_passes"] = s.spu_passes;
      l["viu_spills"] = s.viu_spills;
      l["viu_restores"] = s.viu_restores;
    }
    l["cycles"] = s.cycles;
    l["registers_per_thread"] = s.regs_per_thread;
    l["register_count_source"] = s.register_count_source;
    // The launch's whole statistics tree is in "timing"."kernels" under this
    // index (the CLI's device keeps every launch, so launch i is window i);
    // copying it here too doubled the file (57 MB for gaussian's 358 launches).
    if (s.has_stats_json()) l["timing_kernel_index"] = i;
    if (s.printf_calls != 0) {  // only kernels that print: other runs' files stay as they were
      l["printf_calls"] = s.printf_calls;
      l["printf_dropped"] = s.printf_dropped;
    }
    per_launch.push_back(std::move(l));
  }
  j["per_launch"] = std::move(per_launch);
  return j;
}

namespace {

std::string rate_text(double rate) {
  if (rate <= 0) return "n/a";
  char buf[64];
  if (rate >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f M warp-instructions/s", rate / 1e6);
  else if (rate >= 1e3)
    std::snprintf(buf, sizeof buf, "%.2f k warp-instructions/s", rate / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f warp-instructions/s", rate);
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

void line(std::ostringstream& os, const std::string& label, const std::string& value) {
  os << "  " << label << std::string(label.size() < 20 ? 20 - label.size() : 1, ' ') << value
     << "\n";
}

// Registers per thread of each kernel launched and where the count came
// from, e.g. "conv_rows 56, conv_cols 46 (ptxas: recorded in ...)": kernels
// sharing a source and detail are listed together.
std::string registers_text(const std::vector<LaunchStats>& launches) {
  std::vector<std::pair<std::string, std::string>> groups;  // (source + detail, "k n, ...")
  std::vector<std::string> seen;
  for (const LaunchStats& s : launches) {
    if (std::find(seen.begin(), seen.end(), s.kernel) != seen.end()) continue;
    seen.push_back(s.kernel);
    std::string why = s.register_count_source;
    if (!s.register_count_detail.empty()) why += ": " + s.register_count_detail;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == why; });
    if (it == groups.end()) it = groups.insert(groups.end(), {why, ""});
    // The demangled name without parameters (the kernel table lists the signatures).
    it->second += (it->second.empty() ? "" : ", ") + frontend::ptx::short_kernel_name(s.kernel) + " " +
                  std::to_string(s.regs_per_thread);
  }
  std::string out;
  for (const auto& [why, kernels] : groups) out += (out.empty() ? "" : "; ") + kernels + " (" + why + ")";
  return out.empty() ? "none launched" : out;
}

}  // namespace

std::string report_text(const RunReport& report) {
  Totals t = totals(report.launches);
  std::ostringstream os;
  os << "simtlm " << report.command << "\n";
  for (auto& [key, value] : report.identity.items()) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_array()) {
      for (const auto& item : value)
        text += (text.empty() ? "" : ", ") + (item.is_string() ? item.get<std::string>() : item.dump());
      if (text.empty()) text = "none";
    } else {
      text = value.dump();
    }
    // A C++ kernel's mangled name (as in stats.json) with its signature.
    if (key == "kernel" && value.is_string()) {
      const std::string demangled = frontend::ptx::demangle(text);
      if (!demangled.empty()) text += " (" + demangled + ")";
    }
    line(os, key, text);
  }
  line(os, "backend", report.backend + " (warp size " + std::to_string(report.warp_size) + ")");
  line(os, "launches", std::to_string(report.launches.size()));
  line(os, "CTAs", std::to_string(t.ctas));
  line(os, "warp instructions", std::to_string(t.warp_instructions));
  line(os, "thread instructions", std::to_string(t.thread_instructions));
  line(os, "off-chip accesses", std::to_string(t.offchip_accesses) + " (global loads/stores/atomics, elements)");
  if (t.spu_passes != 0)
    line(os, "SPU passes", std::to_string(t.spu_passes) + "; virtual IUs spilled " + std::to_string(t.viu_spills) +
                               " and restored " + std::to_string(t.viu_restores) + " faces");
  if (t.cycles) line(os, "cycles", std::to_string(t.cycles));
  line(os, "registers", registers_text(report.launches));
  uint64_t printf_calls = 0, printf_dropped = 0;
  for (const LaunchStats& s : report.launches) printf_calls += s.printf_calls, printf_dropped += s.printf_dropped;
  if (printf_calls != 0)
    line(os, "printf", std::to_string(printf_calls) + " calls" +
                           (printf_dropped ? ", " + std::to_string(printf_dropped) + " dropped (buffer full)" : ""));
  line(os, "host time", seconds_text(t.host_seconds) + " simulating, " +
                            seconds_text(report.wall_seconds) + " total");
  line(os, "simulation rate", rate_text(t.rate()));
  std::string result = result_word(report);
  if (report.checked && !report.detail.empty()) result += " (" + report.detail + ")";
  line(os, "result", result);
  return os.str();
}

std::string timing_summary_text(const runtime::LaunchBackend& backend, size_t launches, bool per_launch) {
  const std::string total = backend.summary();
  if (total.empty()) return "";
  std::string text = "timing (all launches)\n" + total;
  // A single launch's line would only repeat the block above.
  if (launches > 1 || per_launch) {
    const std::string table = backend.kernel_table(per_launch);
    if (!table.empty()) text += (per_launch ? "timing per launch\n" : "timing per kernel\n") + table;
  }
  return text;
}

}  // namespace simtlm::cli
