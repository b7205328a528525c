// GpuPlatform statistics: the memory side's modules register their own
// (gpu.noc, gpu.l2[s], gpu.dram[c]); here only the platform-level figures over
// them (gpu.l2_total.*, gpu.dram_total.* with bandwidth against the configured
// peak) and the summary's memory-side lines. The SMs' and SM-wide figures are
// the shared platform's (platforms/common/platform_stats.cpp).
#include <cstdio>
#include <string>

#include "platforms/common/summary_format.h"
#include "platforms/gpu/gpu_platform.h"

namespace simtlm::platforms {

void GpuPlatform::register_topology_stats(const stats::Group& gpu) {
  noc_->register_stats(gpu.child("noc"));
  for (unsigned s = 0; s < l2_.size(); ++s) l2_[s]->register_stats(gpu.child("l2", s));
  for (unsigned c = 0; c < dram_.size(); ++c) dram_[c]->register_stats(gpu.child("dram", c));

  const std::string p = gpu.prefix() + ".";
  if (!l2_.empty()) register_cache_totals(gpu.child("l2_total"), "l2", p + "l2[*].");

  const Config& cfg = config();
  const stats::Group dram = gpu.child("dram_total");
  for (const char* k : {"reads", "writes", "activates", "precharges", "row_hits", "row_misses", "row_conflicts",
                        "bytes_read", "bytes_written"}) {
    dram.formula(k, "sum(" + p + "dram[*]." + k + ")", "", std::string("DRAM ") + k + ", all channels");
  }
  dram.formula("row_hit_rate", "@row_hits / (@row_hits + @row_misses + @row_conflicts)", "ratio",
               "row-buffer hit rate");
  char mhz[64];
  std::snprintf(mhz, sizeof mhz, "%.6f", cfg.f64("gpu.clocks.core_mhz"));
  dram.formula("bandwidth_gbps", "(@bytes_read + @bytes_written) / " + p + "cycles * " + mhz + " / 1000", "GB/s",
               "achieved DRAM bandwidth (bytes moved / simulated time)");
  const double peak = static_cast<double>(cfg.u32("gpu.dram.channels")) * cfg.u32("gpu.dram.bus_width_bytes") *
                      cfg.u32("gpu.dram.chips_per_channel") * cfg.u32("gpu.dram.data_rate") *
                      cfg.f64("gpu.clocks.dram_mhz") / 1000.0;
  char peak_text[64];
  std::snprintf(peak_text, sizeof peak_text, "%.6f", peak);
  dram.formula("peak_gbps", peak_text, "GB/s",
               "configured peak: channels x bus_width x chips x data_rate x dram_mhz");
  dram.formula("bandwidth_efficiency", "@bandwidth_gbps / @peak_gbps", "ratio", "achieved / peak DRAM bandwidth");
}

void GpuPlatform::refresh_topology_stats() {
  noc_->stats();
  for (auto& l2 : l2_) l2->stats();
  for (auto& d : dram_) d->stats();
}

void GpuPlatform::summarize_topology(const stats::Values& v, const SummaryLine& line) const {
  const stats::Registry& r = registry();
  const std::string p = std::string(name()) + ".";
  auto val = [&](const std::string& n) { return r.value(p + n, v); };
  auto count = [&](const std::string& n) { return summary_number(val(n), 0); };
  summarize_cache_totals(r, v, p + "l2_total.", "L2", line);
  line("interconnect", count("noc.flits") + " flits, " + count("noc.stalls") + " stalls");
  line("DRAM", count("dram_total.reads") + " reads, " + count("dram_total.writes") + " writes, " +
                   count("dram_total.activates") + " activates, row hits " +
                   summary_percent(val("dram_total.row_hit_rate")));
  line("DRAM bandwidth", summary_number(val("dram_total.bandwidth_gbps"), 2) + " GB/s of " +
                             summary_number(val("dram_total.peak_gbps"), 1) + " GB/s peak (" +
                             summary_percent(val("dram_total.bandwidth_efficiency")) + ")");
}

std::vector<std::pair<std::string, double>> GpuPlatform::clock_domains() const {
  const Config& cfg = config();
  return {{"interconnect", cfg.f64("gpu.clocks.noc_mhz")},
          {"L2", cfg.f64("gpu.clocks.l2_mhz")},
          {"DRAM", cfg.f64("gpu.clocks.dram_mhz")}};
}

}  // namespace simtlm::platforms
