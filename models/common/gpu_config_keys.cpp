// Configuration keys of the device as a whole: its name, SM count and memory
// size (gpu.*), and the clock domains (gpu.clocks.*, models/common/clock_domain).
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void gpu_keys(std::vector<ConfigKey>& t) {
  t.push_back(S("gpu.name", "GTX480", "Human-readable name of the modelled GPU, reported beside results.", kG3));
  t.push_back(U("gpu.num_sms", 15, "SMs", 1, 1024,
                "Number of streaming multiprocessors (GPGPU-Sim clusters x cores per cluster).",
                "GTX480: GPGPU-Sim GTX480 config (-gpgpu_n_clusters 15), Rajasree Table 6.1; C2050: GPGPU-Sim "
                "TeslaC2050 config (-gpgpu_n_clusters 14), Jatala Table 2.3"));
  t.push_back(U("gpu.global_memory_bytes", 1536 * MiB, "bytes", 1 * MiB, 1024 * GiB,
                "Device global memory capacity: an allocation that would take the live allocations (module .global data included) beyond it fails, naming this key.",
                "NVIDIA product specifications: GTX 480 1536 MB GDDR5, Tesla C2050 3 GB GDDR5"));
  // The values are the CtaPlacement policies registered in platforms/common
  // (cta_placement.h); a test checks that each one is registered.
  t.push_back(E("gpu.cta_placement", "round_robin", {"round_robin"},
                "How the CTA dispatcher places a launch's CTAs on SMs: round_robin = one CTA per SM that can "
                "admit one, SM by SM, starting after the SM that received the last, repeated while any SM takes "
                "one (at the launch and after every CTA completion).",
                kDecision));
}

void clock_keys(std::vector<ConfigKey>& t) {
  const char* const clk =
      "GTX480: GPGPU-Sim -gpgpu_clock_domains 700:700:700:924; C2050: GPGPU-Sim 3.x TeslaC2050 "
      "575:575:575:750 (seed note 000 §3.1)";
  t.push_back(D("gpu.clocks.core_mhz", 700.0, "MHz", 0.001, 100000.0,
                "SM clock (GPGPU-Sim's core clock = half the Fermi shader clock; one warp instruction per "
                "SP pipeline per cycle).",
                clk));
  t.push_back(D("gpu.clocks.noc_mhz", 700.0, "MHz", 0.001, 100000.0, "Interconnect clock.", clk));
  t.push_back(D("gpu.clocks.l2_mhz", 700.0, "MHz", 0.001, 100000.0, "L2 / memory sub-partition clock.", clk));
  t.push_back(D("gpu.clocks.dram_mhz", 924.0, "MHz", 0.001, 100000.0,
                "DRAM command clock (data moves at data_rate x this).", clk));
}

const Registration kGpu(kRankGpu, "gpu", &gpu_keys);
const Registration kClocks(kRankClocks, "clocks", &clock_keys);

}  // namespace
}  // namespace simtlm::config_keys
