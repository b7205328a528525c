// ptxas's register counts for a user's PTX, when ptxas is installed: what
// `simtlm ptx FILE --launch SPEC` gives CTA admission under
// gpu.sm.register_count_source = ptxas (DeviceOptions::known_register_counts).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace simtlm::cli {

struct PtxasCounts {
  std::string ptxas;    // the executable used ("" when none was found)
  std::string arch;     // -arch value, from the module's .target
  std::string failure;  // why there are no counts ("" when ptxas ran)
  std::map<std::string, uint32_t> registers;  // kernel -> "Used N registers"
};

// ptxas on PATH, else /usr/local/cuda/bin/ptxas (override: SIMTLM_PTXAS); "" if none.
std::string find_ptxas();

// Runs `ptxas -arch=ARCH -v FILE -o /dev/null`, ARCH being the first sm_NN of
// `target` (the module's .target text). Never throws: a missing ptxas, an
// unknown target or a failing run leave `registers` empty and say why.
PtxasCounts run_ptxas(const std::string& file, const std::string& target);

// Kernel -> registers from ptxas -v output ("Compiling entry function 'k'"
// followed by "Used N registers").
std::map<std::string, uint32_t> parse_ptxas_registers(const std::string& log);

}  // namespace simtlm::cli
