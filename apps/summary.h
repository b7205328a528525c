// The result of a `run` or `ptx --launch` command, as a readable summary and
// as machine-readable JSON carrying the same fields (stats.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "simtlm/device.h"

namespace simtlm::runtime {
class LaunchBackend;
}

namespace simtlm::cli {

struct RunReport {
  std::string command;             // "run" or "ptx"
  nlohmann::ordered_json identity; // what ran: {"workload": ..., "size": ...} in print order
  std::string backend;
  unsigned warp_size = 32;
  std::vector<LaunchStats> launches;
  double wall_seconds = 0.0;       // whole command, including setup and check
  bool checked = false;            // a result check ran (workloads)
  bool passed = false;
  std::string detail;              // the check's detail
};

struct Totals {
  uint64_t ctas = 0, warp_instructions = 0, thread_instructions = 0, cycles = 0;
  uint64_t offchip_accesses = 0;
  // SPU launches: passes, faces the virtual IUs spilled and restored (0 otherwise).
  uint64_t spu_passes = 0, viu_spills = 0, viu_restores = 0;
  double host_seconds = 0.0;
  double rate() const { return host_seconds > 0 ? warp_instructions / host_seconds : 0.0; }
};
Totals totals(const std::vector<LaunchStats>& launches);

// "PASS", "FAIL" or "DONE" (no check).
std::string result_word(const RunReport& report);

nlohmann::ordered_json report_json(const RunReport& report);
std::string report_text(const RunReport& report);
// The backend's part of the readable summary ("" for the functional
// backend): "timing (all launches)" and, after more than one of the run's
// `launches` or with
// `per_launch`, the kernel table ("timing per kernel" / "timing per launch").
std::string timing_summary_text(const runtime::LaunchBackend& backend, size_t launches, bool per_launch);

}  // namespace simtlm::cli
