// The energy account of a platform: turns a statistics window (a launch, the
// run, a power-trace interval) into an EnergyBreakdown. It reads the events
// from the counters the models keep (no code in any block's hot path), finds
// the leakage block instances in the statistics tree (SMs, L1Ds, L2 slices,
// the interconnect, DRAM channels) and the blocks that report reduced-leakage
// residency (leakage_residency.h), and writes the report as JSON.
//
// Statistics read, under <top> (e.g. "gpu"), every instance summed:
//   sm[*].fetches warp_instructions icache_hits icache_misses const_hits
//   const_misses smem_passes regfile_reads regfile_writes class_int class_fp
//   class_dp class_sfu active_cycles; sm[*].l1d.reads writes fills;
//   l2[*].reads writes fills; noc.flits; dram[*].reads writes activates
//   read_bursts write_bursts; cycles; power.residency.<block>[i].*; on the
//   spu platform also spu.iu[*].* (the interface units' SM counters, into the
//   same components, as the thesis's §5.3) and spu.cb[*].writes reads (CBP).
// Leakage instances on the spu platform besides the grid's: one "iu" per
// interface unit (spu.power.iu_leakage_w) and one "cb" per communication
// buffer, two per link (spu.power.cb_leakage_w_per_kb x spu.cb_bytes / 1024).
// A missing SM statistic is Error(Internal) at construction (a renamed
// counter must not silently read as zero); the memory side's may be absent
// (a platform without L2 has no L2 energy).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/power/energy_model.h"
#include "simtlm/config.h"
#include "simtlm/stats.h"

namespace simtlm::power {

// gpu.power.* as energies in joules and powers in watts.
EnergyTable energy_table_from_config(const Config& cfg);

class EnergyAccount {
 public:
  // `num_sms` SMs on a core clock of `core_mhz`; the tree's other instances
  // are counted from the statistics registered so far (call after every
  // module registered its statistics).
  EnergyAccount(const Config& cfg, const stats::Registry& registry, const std::string& top, unsigned num_sms,
                double core_mhz);

  // The events of a window of `cycles` core cycles.
  Activity activity(const stats::Values& window, uint64_t cycles) const;
  // Leakage instances with their residency over the window.
  std::vector<LeakageShare> leakage(const stats::Values& window) const;
  EnergyBreakdown energy(const stats::Values& window, uint64_t cycles) const;

  // One window's report: seconds, cycles, per-component dynamic energy,
  // per-block leakage, totals, average powers, energy per warp instruction.
  nlohmann::ordered_json window_json(const stats::Values& window) const;
  // {"format", "kernels": [{"index", "kernel", ...window_json}], "total": {...}}.
  nlohmann::ordered_json report_json(const stats::KernelRecorder& recorder) const;

  const EnergyTable& table() const { return table_; }
  // Whether a component is in this platform's reports: FINEREGP and SWITCHP
  // only when a CTA-switching allocator registered its statistics (FineReg,
  // vt, regdram), CBP only where CBs exist (spu platform), so that runs
  // without them report exactly what they did.
  bool reports(Component c) const;
  // Sum of every instance's full leakage power (W).
  double leakage_power_w() const;
  double seconds_of(uint64_t cycles) const { return static_cast<double>(cycles) / (core_mhz_ * 1e6); }

 private:
  struct Instance {
    std::string block;
    double watts;
    std::string residency;  // "<top>.power.residency.<block>[i]." or empty
  };
  // The statistics summed into one Activity field, resolved once (parsing a
  // sum() formula per window made a 72-launch run's report 20 % slower).
  struct Source {
    double Activity::*field;
    std::vector<std::string> names;
  };
  std::vector<std::string> names_of(const std::string& pattern) const;  // "sm[*].x", "noc.flits"
  void add_source(double Activity::*field, const std::vector<std::string>& patterns);
  double sum(const std::vector<std::string>& names, const stats::Values& v) const;
  void add_instances(const std::string& block, double watts, unsigned count);

  const stats::Registry* registry_;
  std::string top_;  // "gpu."
  unsigned num_sms_;
  double core_mhz_;
  EnergyTable table_;
  std::vector<Instance> instances_;
  std::vector<Source> sources_;
  std::vector<std::string> active_cycles_;  // sm[*].active_cycles
  bool switching_ = false;  // FineReg / VT / Reg+DRAM statistics exist
  unsigned l2_slices_ = 0;
  unsigned dram_channels_ = 0;
  unsigned ius_ = 0;       // spu.iu[*]
  unsigned cb_links_ = 0;  // spu.cb[*]
};

}  // namespace simtlm::power
