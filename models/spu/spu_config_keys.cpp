// Configuration keys of the Stencil Processing Unit (spu.*; seed note 003,
// docs/spu.md). They apply only with sim.platform = spu: on another platform
// a value other than the default is rejected (Config::validate), so a preset
// names them at their defaults.
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void spu_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("spu.grid_size", 4, "SMs per side", 1, 32,
                "p: the SPU is a p x p grid of SMs (gpu.num_sms must be p * p) with 4p interface units on its "
                "edges; CTA (X, Y) runs on SM (X mod p, Y mod p), a grid larger than p x p in passes. Applies with sim.platform = spu.",
                "Rajasree Table 6.1 (4 x 4, the only size SPU-Sim supported; seed note 003 §1.2)"));
  t.push_back(U("spu.cb_bytes", 4096, "bytes", 8, 1u << 20,
                "Size of one communication buffer; every directed link between neighbours has two (ping-pong). "
                "A multiple of 8. Applies with sim.platform = spu.",
                "Rajasree §6.1.2, §6.3.4: 4 KB (one 32 x 32 face of 4-byte words); 16 KB also studied"));
  t.push_back(U("spu.sync_latency", 4, "core cycles", 1, 1000,
                "Timing backend: cycles from the completion of a bar.blocksync rendezvous (the last unit "
                "arrived: all warps of its CTA wait at it) to the release of the units' warps, the signal's "
                "trip through the fabric. Applies with sim.platform = spu.",
                "not stated by the thesis; seed note 003 §2.2 [I]: 'a small fixed latency (e.g. a few cycles)'"));
  t.push_back(E("spu.passes", "sequential", {"sequential", "overlapped"},
                "Timing backend: how a grid larger than p x p runs its passes. sequential: pass by pass, every "
                "unit of a pass exits before the next pass starts. overlapped: every SM and IU runs its own "
                "sequence of passes (per-unit pass registers), taking its unit of the next pass as soon as its own "
                "of the current one has left; restores wait for their spills (spu.spill_scoreboard). The "
                "functional backend has no time and runs every launch pass by pass. Applies with sim.platform = spu.",
                "Rajasree §4.2 (pass by pass) and §4.3 (overlapped, Table 4.1's local registers); seed note 003 §1.7"));
  t.push_back(B("spu.spill_scoreboard", true,
                "With spu.passes = overlapped: a restoring virtual IU's restore n of a boundary lane waits until "
                "spill n of that lane by the producer pass has completed (spill-progress scoreboard, invariant 12). "
                "false: restores do not wait, and one that would read a face not yet spilled ends the run with "
                "an error naming both VIUs (what a machine without the ordering would get wrong). Applies with "
                "sim.platform = spu and spu.passes = overlapped.",
                "not in the thesis; seed note 003 §1.7 [I] ('a spill-progress counter per (boundary lane, pass)') "
                "and invariant 12"));
  t.push_back(E("spu.iu.kind", "sm", {"sm", "dma"},
                "What the interface units are. sm: truncated SMs running the kernel's IU code (Table 5.2). "
                "dma: DMA engines, FSMs without instruction fetch that move the faces of the kernel's IU role "
                "by its documented contract (docs/spu.md, \"DMA interface units\"); timing backend only. "
                "IU roles taken by grid SMs (partial grids) run the IU code either way. Applies with "
                "sim.platform = spu.",
                "Rajasree Table 7.1 and Table 6.4 (DMA IUs: 66.8 W); seed note 003 §1.4"));
  // Leakage of the SPU's own blocks (docs/power.md, "The SPU's blocks"): calibrated so that
  // the SPU's total is the thesis's Table 6.4 with the caches off, as the thesis ran it.
  t.push_back(D("spu.power.iu_leakage_w", 2.2175, "W", 0.0, 1e3,
                "Leakage of one interface unit (a truncated SM: fetch, scheduler, register file, integer ALU "
                "and mul/div, constant cache, LD/ST; Table 5.2), with gpu.power.enabled. Applies with "
                "sim.platform = spu.",
                "calibrated (docs/power.md): Rajasree Table 6.4's 79.1 W for 16 SMs + 16 IUs + 80 CBs of 4 KB, "
                "caches off, less this model's 42.52 W for the SMs, crossbar and memory controllers and 1.1 W "
                "of CBs, over 16 IUs"));
  t.push_back(D("spu.power.dma_iu_leakage_w", 1.44875, "W", 0.0, 1e3,
                "Leakage of one DMA interface unit (spu.iu.kind = dma: an FSM with address counters and its "
                "crossbar port instead of a truncated SM), with gpu.power.enabled. Applies with sim.platform = spu.",
                "calibrated (docs/power.md): Rajasree Table 6.4's 66.8 W for 16 SMs + 16 DMA IUs + 80 CBs of "
                "4 KB, caches off, less this model's 42.52 W and 1.1 W of CBs, over 16 DMA IUs"));
  t.push_back(D("spu.power.cb_leakage_w_per_kb", 0.0034375, "W/KB", 0.0, 10.0,
                "Leakage of communication-buffer SRAM per KB (each link has two CBs of spu.cb_bytes), with "
                "gpu.power.enabled. Applies with sim.platform = spu.",
                "calibrated (docs/power.md): Table 6.4's 82.4 - 79.1 = 3.3 W for 80 CBs growing from 4 to "
                "16 KB (960 KB)"));
}

const Registration kSpu(kRankSpu, "spu", &spu_keys);

}  // namespace
}  // namespace simtlm::config_keys
