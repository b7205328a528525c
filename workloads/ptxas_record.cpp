#include "workloads/ptxas_record.h"

#include <sstream>

#include "simtlm/error.h"
#include "workloads/workload.h"

namespace simtlm::workloads {

std::map<std::string, PtxasKernel> parse_ptxas_record(const std::string& text) {
  std::map<std::string, PtxasKernel> out;
  std::istringstream in(text);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    PtxasKernel k;
    std::string extra;
    if (!(fields >> name >> k.registers >> k.smem_bytes >> k.spill_store_bytes >> k.spill_load_bytes) ||
        (fields >> extra)) {
      throw Error(ErrorKind::Internal,
                  "ptxas record line " + std::to_string(number) + ": expected 'kernel registers smem "
                  "spill_stores spill_loads', got '" + line + "'");
    }
    out[name] = k;
  }
  return out;
}

std::map<std::string, PtxasKernel> ptxas_record(const std::string& ptx_name) {
  return parse_ptxas_record(embedded_ptxas(ptx_name));
}

RegisterCountLookup recorded_register_counts() {
  return [](const std::string& module_name, const std::string& kernel) -> std::optional<KnownRegisterCount> {
    const std::string suffix = ".ptx";
    if (module_name.size() <= suffix.size() ||
        module_name.compare(module_name.size() - suffix.size(), suffix.size(), suffix) != 0)
      return std::nullopt;
    const std::string ptx_name = module_name.substr(0, module_name.size() - suffix.size());
    const auto record = ptxas_record(ptx_name);
    const auto it = record.find(kernel);
    if (it == record.end()) return std::nullopt;
    KnownRegisterCount count;
    count.registers = it->second.registers;
    count.detail = "recorded in workloads/" + ptx_name + "/ptxas.txt (ptxas -arch=sm_75)";
    return count;
  };
}

}  // namespace simtlm::workloads
