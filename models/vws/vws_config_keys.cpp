// Configuration keys of the variable-warp-sizing SM (gpu.vws.*, seed 002
// Ch. 6, notes §10). They apply with sim.platform = vws only: with any other
// platform each must keep its default (Config::validate names the key).
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

const char* const kVws = "Rogers thesis Ch. 6, §6.2.1 and Table 6.1 (seed note 002 §2.2, §10.2)";
const char* const kVwsSweep = "Rogers thesis §6.1: fetch bandwidth scaled with issue bandwidth (seed note 002 §2.2)";

void vws_keys(std::vector<ConfigKey>& t) {
  t.push_back(E("gpu.vws.mode", "ganged", {"ganged", "slices"},
                "Mode of the VWS SM (sim.platform = vws): ganged = ganged-only, the slices run in lock-step as "
                "one warp of slices x slice_width threads (equivalent to WS32); slices = slice-only, every "
                "slice fetches and issues its own warps of slice_width threads (WS4). mixed (the warp ganging "
                "unit: I-VWS, E-VWS) is not built yet.",
                kVws, {"mixed"}));
  t.push_back(U("gpu.vws.slices", 8, "slices", 1, 32,
                "Slices of the VWS SM's datapath; thread t of a CTA runs on slice (t / slice_width) mod slices.",
                kVws));
  t.push_back(U("gpu.vws.slice_width", 4, "lanes", 1, 64,
                "Lanes per slice; with gpu.vws.mode = slices also the warp size (gpu.sm.warp_size must equal "
                "it), with ganged the warp size is slices x slice_width.",
                kVws));
  t.push_back(U("gpu.vws.fetches_per_cycle", 0, "fetches/cycle", 0, 32,
                "Instruction fetches per cycle of the VWS SM, at most one per slice; 0 = scaled with issue "
                "bandwidth (1 when ganged, gpu.vws.slices in slice mode). Ganged mode fetches once per cycle.",
                kVwsSweep));
  t.push_back(B("gpu.vws.coalesce_same_cycle", true,
                "Slice mode: global/local memory requests of all slices whose accesses start in the same cycle "
                "are coalesced as one access (one transaction per line); false = each slice's instruction is "
                "coalesced alone. Must stay true when ganged (one instruction per cycle: nothing to merge).",
                "Rogers thesis §6.2.1: the memory unit is unchanged (seed note 002 §10.2)"));
}

const Registration kVwsKeys(kRankVws, "vws", &vws_keys);

}  // namespace
}  // namespace simtlm::config_keys
