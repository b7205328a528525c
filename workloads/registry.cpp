// Name -> factory table for the workloads; drivers add themselves with
// SIMTLM_REGISTER_WORKLOAD.
#include <algorithm>

#include "workloads/workload.h"

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

}  // namespace simtlm::workloads
