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
  t.push_back(E("gpu.vws.mode", "ganged", {"ganged", "slices", "mixed"},
                "Mode of the VWS SM (sim.platform = vws): ganged = ganged-only, the slices run in lock-step as "
                "one warp of slices x slice_width threads (equivalent to WS32); slices = slice-only, every "
                "slice fetches and issues its own warps of slice_width threads (WS4); mixed = warps of "
                "slice_width threads with the warp ganging unit: gangs of one warp per slice formed at CTA "
                "activation, fetched once and issued in lock-step, split on divergence (I-VWS, E-VWS).",
                kVws));
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
                "Slice and mixed mode: global/local memory requests of all slices whose accesses start in the same "
                "cycle are coalesced as one access (one transaction per line), and their shared-memory loads "
                "(stores) are timed as one access (bank conflicts over the union of their lanes); false = each "
                "slice's instruction is coalesced and timed alone. Must stay true when ganged (one instruction "
                "per cycle: nothing to merge).",
                "Rogers thesis §6.2.1: the memory unit is unchanged (seed note 002 §10.2)"));
  t.push_back(U("gpu.vws.gangs_per_cycle", 2, "gangs/cycle", 1, 16,
                "Mixed mode: gangs the gang issue scheduler issues per cycle (their slice masks disjoint); at most "
                "gpu.vws.slices / 2.",
                "Rogers thesis §6.4.1, Fig 6.12: 2 chosen (seed note 002 §10.7)"));
  t.push_back(E("gpu.vws.gang_order", "bgto", {"bgto", "gto", "lgto", "lpc", "lrr"},
                "Mixed mode: the gang issue scheduler's order: bgto (biggest gang first, then greedy-then-oldest), "
                "gto, lgto (littlest first), lpc (lowest pc first), lrr (round-robin). The slices' own order is "
                "gpu.sm.scheduler.policy.",
                "Rogers thesis §6.4.3, Fig 6.10 (seed note 002 §10.7)"));
  t.push_back(E("gpu.vws.split_memory", "none", {"none", "impatient", "group"},
                "Mixed mode: splitting on memory-latency divergence (members of a gang whose loads complete in "
                "different cycles): none; impatient = the whole gang splits into independent warps; group = the "
                "members ready in the same cycle leave together. Control-flow divergence always splits.",
                "Rogers thesis §6.2.4 (seed note 002 §10.4)"));
  t.push_back(E("gpu.vws.reform", "none", {"none", "opportunistic", "sync10", "sync50", "sync100"},
                "Mixed mode: gang reformation: none (I-VWS), opportunistic (E-VWS: each cycle one original gang, "
                "round-robin, merges two of its gangs or independent warps at the same pc) or syncN (E-VWS-SyncN: "
                "opportunistic, and a warp of a split original gang that is ready to issue the first instruction "
                "of a branch's reconvergence point waits up to N cycles there, until its original gang is one "
                "gang again, so that the other parts can arrive and merge).",
                "Rogers thesis §6.2.5, §6.4.1, Fig 6.13 (seed note 002 §10.5, §10.8, ambiguity 11)"));
  t.push_back(U("gpu.vws.l0_bytes", 256, "bytes", 0, 4096,
                "Mixed mode: per-slice L0 instruction cache, probed first by independent warps' fetches (a hit "
                "needs no L1 I-cache port); 0 = none. Fully associative, LRU, one instruction (8 bytes) per "
                "entry, filled by the slice's L1 fetches; a multiple of 8.",
                "Rogers thesis §6.2.6: 256 B chosen, 32-128 B evaluated (seed note 002 §10.6, Fig 6.9)"));
}

const Registration kVwsKeys(kRankVws, "vws", &vws_keys);

}  // namespace
}  // namespace simtlm::config_keys
