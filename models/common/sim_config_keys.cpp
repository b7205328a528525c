// Configuration keys of the simulation as a whole (sim.*): seed, watchdog and
// limits, the platform builder, traces. Here, not in platforms/, because every
// binary with a Config needs the whole table (Config::validate checks sim.trace.sm).
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void sim_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("sim.seed", 1, "", 0, kU64Max,
                "Seed of every pseudo-random choice in the model (random replacement, tie breaks); the same "
                "seed, inputs and configuration give bit-identical results.",
                kDecision));
  t.push_back(U("sim.watchdog_cycles", 1000000, "core cycles", 0, 1000000000000ULL,
                "Deadlock watchdog: a launch during which no warp instruction retires for this many core "
                "cycles ends with a deadlock error naming the stuck warps. 0 disables the watchdog.",
                kDecision));
  t.push_back(U("sim.max_cycles", 0, "core cycles", 0, kU64Max,
                "Stop a timing launch that reaches this many core cycles, exactly at that cycle, with a launch error (exit 2) naming the key (0 = run to completion).", kDecision));
  t.push_back(U("sim.max_instructions", 0, "warp instructions", 0, kU64Max,
                "Stop a launch that has run this many warp instructions, with a launch error (exit 2) naming the key: the timing backend overshoots by at most one instruction per scheduler, the functional backend stops exactly (0 = unlimited).", kDecision));
  t.push_back(U("sim.livelock_hint_cycles", 1000000, "core cycles", 0, kU64Max,
                "Timing backend: when warps keep issuing but no global store, atomic or CTA completion has "
                "happened for this many core cycles, the progress line and a sim.max_cycles/max_instructions "
                "stop say a livelock is suspected (a hint only: the launch goes on; 0 = never).", kDecision));
  t.push_back(U("sim.printf_buffer_bytes", 1u << 20, "bytes", 1, 1ULL << 40,
                "Capacity of one launch's printf output (CUDA's cudaLimitPrintfFifoSize, 1 MB by default). "
                "The formatted text of the calls that fit, taken in the output order (CTA, thread, program "
                "order), is written after the launch; the other calls are dropped and counted, with a warning.",
                kDecision));
  t.push_back(E("sim.platform", "gpu", {"gpu", "spu", "vws"},
                "Top level built from this configuration: the baseline GPU, the Stencil Processing Unit "
                "(seed 003, docs/spu.md; any grid, in passes, on both backends) or the "
                "variable-warp-sizing GPU (seed 002 Ch. 6: the gpu topology with SMs of slices, shaped by "
                "gpu.vws.*; docs/vws.md).",
                kDecision));
  t.push_back(S("sim.trace.vcd_file", "",
                "Write a VCD (GTKWave) of per-SM occupancy and active warps to this file; empty = off.", kDecision));
  t.push_back(S("sim.trace.timeline_file", "",
                "Write a Chrome/Perfetto trace-event JSON timeline of kernels and CTAs to this file; "
                "empty = off.",
                kDecision));
  t.push_back(S("sim.trace.power_file", "",
                "Write the power trace (average power per gpu.power.trace_interval_cycles, per GPUWattch "
                "component) as CSV to this file; empty = off. Needs gpu.power.enabled.",
                kDecision));
  t.push_back(S("sim.trace.l1d_file", "",
                "Write every L1D tag lookup (SM, cycle, warp, load/store, hit/miss/sector miss/merge, line) as text "
                "to this file for offline replay (`simtlm l1d-replay`); empty = off. Needs gpu.l1d.enabled.",
                "Rogers' SAGCS trace-driven L1D simulator (seed note 002 §2.1)"));
  t.push_back(I("sim.trace.sm", -1, "SM index", -1, 1023, "SM traced in the VCD; -1 traces every SM.", kDecision));
}

const Registration kSim(kRankSim, "sim", &sim_keys);

}  // namespace
}  // namespace simtlm::config_keys
