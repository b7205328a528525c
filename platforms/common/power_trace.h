// The power trace (sim.trace.power_file, and a counter track in the timeline
// when sim.trace.timeline_file is set): the average power of every interval of
// gpu.power.trace_interval_cycles core cycles of a launch (GPUWattch samples
// its counters about every 500 cycles), from the energy account applied to
// the statistics window of the interval. The CSV has one row per interval:
//
//   kernel,begin_cycle,end_cycle,seconds,total_w,dynamic_w,leakage_w,IBP_w,...,CONST_DYNAMICP_w
//
// Cycles are core cycles since the start of the simulation, as in the
// timeline. The last interval of a launch ends at the launch's end (shorter).
// Reading the counters mid-launch changes nothing the model computes
// (tested: statistics with and without the trace are equal).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "models/power/energy_account.h"
#include "simtlm/stats.h"

namespace simtlm::platforms {

class TraceWriter;

class PowerTrace {
 public:
  PowerTrace(const power::EnergyAccount& account, const stats::Registry& registry, std::string csv_path,
             uint64_t interval_cycles, TraceWriter& traces);

  uint64_t interval() const { return interval_; }
  // A launch starts at `cycle` (the statistics are up to date).
  void begin(const std::string& kernel, uint64_t cycle);
  // The interval since the last sample ends at `cycle` (statistics up to date).
  void sample(uint64_t cycle);
  // The launch ended at `cycle`: the last (partial) interval, then the CSV is flushed.
  void end(uint64_t cycle);

 private:
  const power::EnergyAccount* account_;
  const stats::Registry* registry_;
  std::string csv_path_;
  uint64_t interval_;
  TraceWriter* traces_;
  std::ofstream csv_;
  std::string kernel_;
  uint64_t last_cycle_ = 0;
  stats::Values last_;
};

}  // namespace simtlm::platforms
