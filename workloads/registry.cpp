// Name -> factory table for the workloads; drivers add themselves with
// SIMTLM_REGISTER_WORKLOAD.
#include <algorithm>
#include <map>

#include "workloads/workload.h"

#include "simtlm/error.h"

namespace simtlm::workloads {

std::vector<std::pair<std::string, WorkloadFactory>>& WorkloadRegistry::entries() {
  static std::vector<std::pair<std::string, WorkloadFactory>> table;
  return table;
}

std::unique_ptr<Workload> WorkloadRegistry::create(const std::string& name) {
  for (auto& [n, factory] : entries())
    if (n == name) return factory();
  return nullptr;
}

std::vector<std::string> WorkloadRegistry::names() {
  std::vector<std::string> out;
  for (auto& entry : entries()) out.push_back(entry.first);
  std::sort(out.begin(), out.end());
  return out;
}

void check_warp_size(const Workload& workload, unsigned warp_size) {
  if (!workload.assumes_32_lane_warps() || warp_size % 32 == 0) return;
  throw Error(ErrorKind::Config,
              "workload '" + workload.info().name + "' is written for CUDA's 32-lane warps (warp-synchronous "
              "shuffles, lane = thread index % 32) and cannot run at warp size " + std::to_string(warp_size) +
              "; it runs at warp sizes 32 and 64 (where warp collectives act on 32-lane halves)");
}

void apply_run_args(Workload& workload, const std::vector<std::string>& items) {
  const std::string name = workload.info().name;
  std::map<std::string, std::string> args;
  std::string known;
  for (const RunArg& a : workload.run_args()) known += (known.empty() ? "" : ", ") + a.name;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::Usage, "--arg '" + item + "': expected key=value");
    const std::string key = item.substr(0, eq);
    bool taken = false;
    for (const RunArg& a : workload.run_args()) taken |= a.name == key;
    if (!taken) {
      throw Error(ErrorKind::Usage, "--arg " + key + ": workload '" + name + "' takes no run argument '" + key +
                                        "' (" + (known.empty() ? "it takes none" : "it takes: " + known) + ")");
    }
    if (!args.emplace(key, item.substr(eq + 1)).second)
      throw Error(ErrorKind::Usage, "--arg " + key + " is given twice");
  }
  if (!args.empty()) workload.set_run_args(args);
}

}  // namespace simtlm::workloads
