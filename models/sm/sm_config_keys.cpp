// Configuration keys of the SM (gpu.sm.*: resources, front end, schedulers,
// register file, shared memory, execution units, per-opcode latencies) and of
// its constant cache (gpu.const_cache.*). The scheduler, register-file and
// shared-memory keys may move to their own folders with the same mechanism.
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

// Per-class execution units: count, latency, initiation interval.
void add_exec_unit(std::vector<ConfigKey>& t, const std::string& cls, std::uint64_t count, std::uint64_t count_min,
                   std::uint64_t latency, std::uint64_t interval, const std::string& what, const std::string& source) {
  const std::string base = "gpu.sm.exec." + cls;
  t.push_back(U(base + ".count", count, "units", count_min, 64,
                "Pipelines of the " + what + " class per SM" +
                    (count_min == 0 ? std::string(" (0 = this class executes on another pipeline: integer on "
                                                  "SP, double precision on SFU)")
                                    : std::string()) +
                    ".",
                source));
  t.push_back(U(base + ".latency", latency, "core cycles", 1, 4096,
                "Result latency of " + what + " instructions not covered by gpu.sm.op.* (issue to write-back).",
                source));
  t.push_back(U(base + ".initiation_interval", interval, "core cycles", 1, 4096,
                "Core cycles before a " + what + " pipeline accepts the next warp instruction.", source));
}

// Per-opcode latency/initiation-interval tables (GPGPU-Sim ADD,MAX,MUL,MAD,DIV).
void add_op_table(std::vector<ConfigKey>& t, const std::string& type, const std::string& what,
                  const std::uint64_t (&lat)[5], const std::uint64_t (&ii)[5], const std::string& lat_option,
                  const std::string& ii_option) {
  static const char* const ops[5] = {"add", "max", "mul", "mad", "div"};
  static const char* const op_text[5] = {"add/sub", "min/max", "mul", "mad/fma", "div/rem"};
  const std::string src = "GPGPU-Sim GTX480 and TeslaC2050 configs, ";
  for (int i = 0; i < 5; ++i) {
    const std::string base = "gpu.sm.op." + type + "." + ops[i];
    t.push_back(U(base + ".latency", lat[i], "core cycles", 1, 4096,
                  "Result latency of " + what + " " + op_text[i] + ".", src + lat_option));
    t.push_back(U(base + ".initiation_interval", ii[i], "core cycles", 1, 4096,
                  "Initiation interval of " + what + " " + op_text[i] + " on its pipeline.", src + ii_option));
  }
}

void sm_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("gpu.sm.warp_size", 32, "threads", 1, 64,
                "Threads per warp (SIMT width). Variable warp sizing sweeps it; 1..64.",
                "GPGPU-Sim -gpgpu_shader_core_pipeline 1536:32; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.max_threads", 1536, "threads", 1, 65536,
                "Maximum resident threads per SM (must be a multiple of the warp size; 1536 = 48 warps).",
                "GPGPU-Sim -gpgpu_shader_core_pipeline 1536:32; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.max_ctas", 8, "CTAs", 1, 1024, "Maximum resident CTAs per SM.",
                "GPGPU-Sim -gpgpu_shader_cta 8; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.registers", 32768, "32-bit registers", 1, 16 * MiB,
                "Registers in the SM's register file (32768 x 4 B = 128 KB on Fermi).",
                "GPGPU-Sim -gpgpu_shader_registers 32768; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.register_alloc_granularity", 4, "registers per thread", 1, 256,
                "A kernel's registers per thread are rounded up to a multiple of this before CTA admission "
                "(GPGPU-Sim: (regs+3)&~3; CUDA CC 2.0 hardware allocates 64 per warp = 2 per thread).",
                "GPGPU-Sim 3.x shader_core_config::max_cta; seed note 000 §2.2"));
  t.push_back(E("gpu.sm.register_count_source", "ptxas", {"ptxas", "allocator"},
                "Registers per thread that CTA admission uses: ptxas's count where one is known (recorded for "
                "the built-in workloads, from running ptxas on a user's PTX, or registers_per_thread of a "
                "launch spec), else our allocator's estimate (the summary says which); or always our "
                "allocator's estimate. A count above gpu.sm.max_registers_per_thread is handled as "
                "gpu.sm.register_limit_policy says.",
                "simtlm decision, as GPGPU-Sim (which takes ptxas's count); docs/register-allocation.md"));
  t.push_back(U("gpu.sm.max_registers_per_thread", 63, "registers", 1, 255,
                "Largest register count a kernel may use per thread (a count above it: "
                "gpu.sm.register_limit_policy).",
                "CUDA compute capability 2.0 limit (63); Hayes §5 (seed note 001 §2.1)"));
  t.push_back(E("gpu.sm.register_limit_policy", "cap", {"cap", "reject"},
                "A kernel whose register count (from any gpu.sm.register_count_source) exceeds "
                "gpu.sm.max_registers_per_thread: cap = admit it at the limit, as a compiler for this GPU "
                "would (it spills the rest; the spill instructions themselves are not simulated, the "
                "count's detail says 'capped'); reject = the launch is an error naming the kernel, its "
                "count and both keys.",
                "simtlm decision (docs/register-allocation.md, 'Counts above the limit')"));
  t.push_back(U("gpu.sm.shared_memory_bytes", 48 * KiB, "bytes", 0, 16 * MiB,
                "Shared memory (scratchpad) per SM. Jatala's scratchpad-sharing runs use 16384.",
                "GPGPU-Sim -gpgpu_shmem_size 49152; Jatala Table 2.3 (48 KB for register-sharing runs)"));
  t.push_back(U("gpu.sm.shared_memory_alloc_granularity", 1, "bytes", 1, 64 * KiB,
                "A CTA's shared memory is rounded up to a multiple of this before admission (1 = no "
                "rounding, as GPGPU-Sim 3.x; CUDA CC 2.0 hardware uses 128).",
                "GPGPU-Sim 3.x shader_core_config::max_cta (no rounding); seed note 000 §2.2"));
  t.push_back(U("gpu.sm.unified_l1_smem_bytes", 64 * KiB, "bytes", 0, 16 * MiB,
                "SRAM that shared memory and the L1D are carved from (Fermi: 64 KB as 48/16 or 16/48). "
                "shared_memory_bytes plus the L1D size (sets x ways x line_bytes, when enabled) must not "
                "exceed it. 0 = separate arrays, no check.",
                "GPGPU-Sim GTX480 config comment (16 KB:48 KB or 48 KB:16 KB); NVIDIA Fermi whitepaper"));
  t.push_back(U("gpu.sm.fetch_width", 2, "instructions per cycle", 1, 64,
                "Instructions fetched and decoded per core cycle (for one warp) into the I-buffers. VWS scales "
                "it with issue bandwidth.",
                "GPGPU-Sim 3.x fetch/decode (one warp per cycle, up to 2 instructions); Rogers §6.1"));
  t.push_back(U("gpu.sm.ibuffer_entries", 2, "instructions per warp", 1, 64,
                "Decoded-instruction buffer entries per warp.", "GPGPU-Sim 3.x I-buffer size (2)"));
  t.push_back(U("gpu.sm.schedulers", 2, "schedulers", 1, 64,
                "Warp issue schedulers per SM; warps are assigned to schedulers by warp id modulo this.",
                "GPGPU-Sim -gpgpu_num_sched_per_core 2"));
  t.push_back(E("gpu.sm.scheduler.policy", "gto", {"lrr", "gto", "two_level", "owf", "swl", "ccws", "daws"},
                "Warp issue policy: loose round-robin, greedy-then-oldest, two-level (Narasiman), owner-warp-first "
                "(Jatala), static warp limiting, cache-conscious (CCWS) or divergence-aware (DAWS).",
                "GTX480: GPGPU-Sim -gpgpu_scheduler gto; C2050: Jatala Table 2.3 (baseline Unshared-LRR)"));
  t.push_back(U("gpu.sm.scheduler.max_issue_per_warp", 1, "instructions", 1, 4,
                "Instructions one scheduler may issue from the same warp in one cycle.",
                "GPGPU-Sim -gpgpu_max_insn_issue_per_warp 1"));
  t.push_back(U("gpu.sm.scheduler.two_level.active_set_size", 8, "warps per scheduler", 1, 1024,
                "two_level: warps in the active (fetch) group of each scheduler. Rogers' best 2LVL-GTO uses 2.",
                "Narasiman et al. MICRO'11 fetch group of 8, as described in Rogers §3.4.1 (seed note 002 §3)"));
  t.push_back(E("gpu.sm.scheduler.two_level.inner_policy", "lrr", {"lrr", "gto"},
                "two_level: order of warps inside the active group.",
                "Narasiman et al. (RR inside groups), Rogers §3.4.1"));
  t.push_back(E("gpu.sm.scheduler.two_level.outer_policy", "lrr", {"lrr", "gto"},
                "two_level: order in which pending warps enter the active group.",
                "Narasiman et al. (RR across groups), Rogers §3.4.1"));
  t.push_back(U("gpu.sm.scheduler.swl.warp_limit", 0, "warps", 0, 1024,
                "swl: maximum warps actively scheduled per SM (the oldest; GTO among them); must be > 0 with policy swl and 0 "
                "with the others.",
                "Rogers §3.2.2 (seed note 002 §4)"));
  t.push_back(D("gpu.sm.scheduler.ccws.k_throttle", 8.0, "", 0.0, 1000.0,
                "ccws: K_THROTTLE in LLDS = (VTA hits / instructions) x K x cutoff.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.base_score", 100, "points", 1, 1000000,
                "ccws: base lost-locality score of every warp.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.vta_entries_per_warp", 16, "tags", 1, 4096,
                "ccws: victim tag array entries per warp.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.vta_ways", 8, "ways", 1, 4096,
                "ccws: victim tag array associativity (within a warp's partition).", kRogers));
  const std::string daws_src = "Rogers §4.2 and Table 4.4 (seed note 002 §7)";
  t.push_back(E("gpu.sm.scheduler.daws.mode", "detected", {"detected", "profiled"},
                "daws: where loop footprints come from: learned online by sampling warps (detected; uses the "
                "ccws.vta_* victim tags), or read from gpu.sm.scheduler.daws.profile (profiled).",
                daws_src));
  t.push_back(D("gpu.sm.scheduler.daws.assoc_factor", 0.6, "", 0.01, 1.0,
                "daws: kAssocFactor; EffCacheSize = assoc_factor x L1D lines bounds the summed footprints (Eq. 4.1).",
                daws_src));
  t.push_back(B("gpu.sm.scheduler.daws.lane_aware", true,
                "daws: scale a diverged load's footprint by the warp's active lanes (false: all lanes assumed "
                "active, the thesis' no-control-flow-awareness ablation).",
                daws_src));
  t.push_back(S("gpu.sm.scheduler.daws.profile", "",
                "daws, mode profiled: the profile file (written by a detected run with "
                "gpu.sm.scheduler.daws.profile_out); empty otherwise.",
                daws_src + "; format: models/sched/daws_profile.h"));
  t.push_back(S("gpu.sm.scheduler.daws.profile_out", "",
                "daws, mode detected: write the learned loop footprints of every kernel to this file after each "
                "launch (all SMs merged), for a later profiled run; empty = none.",
                daws_src + "; format: models/sched/daws_profile.h"));
  t.push_back(U("gpu.sm.scheduler.daws.ilrd_entries", 64, "entries", 1, 4096,
                "daws, detected: intra-loop repetition detector entries per SM.", daws_src));
  t.push_back(U("gpu.sm.scheduler.daws.ilrd_ways", 8, "ways", 1, 4096,
                "daws, detected: intra-loop repetition detector associativity (entries must be a multiple).",
                daws_src));

  // Instruction cache.
  t.push_back(B("gpu.sm.icache.perfect", false,
                "Perfect instruction cache: every fetch hits (the icache.* geometry is then unused).", kDecision));
  t.push_back(
      U("gpu.sm.icache.sets", 4, "sets", 1, 65536, "L1 instruction cache sets.", "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.ways", 4, "ways", 1, 256, "L1 instruction cache associativity.",
                "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.line_bytes", 128, "bytes", 4, 4096, "L1 instruction cache line size.",
                "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.mshrs", 2, "entries", 1, 1024, "L1 instruction cache miss status holding registers.",
                "GPGPU-Sim -gpgpu_cache:il1 ...,A:2:32"));
  t.push_back(U("gpu.sm.icache.hit_latency", 1, "core cycles", 1, 1024,
                "Cycles from fetch request to decoded instructions on an instruction-cache hit.", kDecision));
  t.push_back(U("gpu.sm.icache.miss_latency", 128, "core cycles", 1, 4096,
                "Cycles from fetch request to decoded instructions on an instruction-cache miss (fixed: the "
                "fill is not sent through the interconnect/L2 model).",
                "simtlm decision: an L2 hit plus the zero-load interconnect latency both ways on the presets, "
                "gpu.l2.hit_latency 120 + 2 x gpu.noc.latency 4 = 128 core cycles (all clocks equal; "
                "GPGPU-Sim 3.x also fetches instructions from the L2)"));

  // Register file and operand collectors.
  t.push_back(U("gpu.sm.regfile.banks", 16, "banks", 1, 1024,
                "Register file banks; operands of the same bank read in the same cycle conflict.",
                "GPGPU-Sim -gpgpu_num_reg_banks 16"));
  t.push_back(U("gpu.sm.regfile.ports_per_bank", 1, "reads per cycle", 1, 16,
                "Read ports of a register bank: 32-bit physical registers one bank reads per core cycle.",
                "GPGPU-Sim 3.x operand collector (single-ported banks)"));
  t.push_back(U("gpu.sm.regfile.write_ports_per_bank", 1, "writes per cycle", 1, 16,
                "Write ports of a register bank: 32-bit physical registers one bank writes per core cycle "
                "(separate from the read ports; docs/sm-model.md, Operand collection).",
                "simtlm decision (docs/sm-model.md): one write port per bank keeps ALU latencies exact"));
  t.push_back(U("gpu.sm.regfile.collector_units", 6, "units", 1, 1024,
                "Operand collector units for SP/INT/DP instructions.",
                "GPGPU-Sim -gpgpu_operand_collector_num_units_sp 6"));
  t.push_back(U("gpu.sm.regfile.collector_units_sfu", 8, "units", 1, 1024,
                "Operand collector units for SFU instructions.", "GPGPU-Sim -gpgpu_operand_collector_num_units_sfu 8"));
  t.push_back(U("gpu.sm.regfile.collector_units_mem", 2, "units", 1, 1024,
                "Operand collector units for load/store instructions.",
                "GPGPU-Sim 3.x default -gpgpu_operand_collector_num_units_mem 2"));
  t.push_back(E("gpu.sm.regfile.alloc_policy", "baseline", {"baseline", "sharing", "finereg", "vt", "regdram"},
                "Register allocation: baseline (a CTA gets all its registers), Jatala's register sharing "
                "between CTA pairs, FineReg (Oh et al.: active and pending register files, CTA switching; "
                "gpu.sm.regfile.finereg.*, docs/finereg.md), or FineReg's comparisons: vt (Virtual Thread: "
                "CTAs beyond the scheduling limit keep all their registers, contexts switched through shared "
                "memory; gpu.sm.regfile.vt.*) and regdram (Reg+DRAM: VT plus register contexts spilled off chip; "
                "gpu.sm.regfile.regdram.*).",
                "Jatala thesis §2.2.1 (seed note 000 §2.3); Oh et al. MICRO 2018 (seed note 004 §2.10)"));
  t.push_back(D("gpu.sm.regfile.sharing_threshold", 0.1, "fraction", 0.01, 1.0,
                "Register sharing threshold t: each warp of a shared pair keeps t of its registers private "
                "(t = 0.1 = 90% sharing).",
                kJatalaShare));
  t.push_back(B("gpu.sm.regfile.sharing_reorder", false,
                "Register sharing: number the registers by first use in the static program text (the front-end "
                "pass reorder_registers: unrolling and reordering of register declarations), so that more "
                "of the first-used registers are private. Needs alloc_policy = sharing.",
                "Jatala thesis §2.3.2, Fig. 2.10 (seed note 000 §2.6)"));
  t.push_back(B("gpu.sm.regfile.sharing_dyn.enabled", false,
                "Register sharing: Dynamic Warp Execution. SM 0 never issues a global/local memory instruction of "
                "a non-owner warp (its CTA's partner holds the shared registers, or neither does and it is the "
                "younger); every other SM issues them with a probability lowered by sharing_dyn.step after a "
                "window in which it stalled more than SM 0 and raised after one in which it stalled less. Needs "
                "alloc_policy = sharing, and scratchpad sharing off.",
                "Jatala thesis §2.3.3 (seed note 000 §2.7)"));
  t.push_back(U("gpu.sm.regfile.sharing_dyn.window", 1000, "core cycles", 1, 1u << 30,
                "Dynamic Warp Execution: cycles between two updates of the per-SM issue probabilities.",
                "Jatala thesis §2.3.3: 1000 cycles (seed note 000 §2.7)"));
  t.push_back(D("gpu.sm.regfile.sharing_dyn.step", 0.1, "probability", 0.001, 1.0,
                "Dynamic Warp Execution: change of an SM's issue probability per window.",
                "Jatala thesis §2.3.3: p = 0.1 (seed note 000 §2.7)"));
  t.push_back(E("gpu.sm.regfile.power.policy", "always_on", {"always_on", "sleep_reg", "greener"},
                "Register power states: always_on (the baseline: every register ON, nothing modelled), "
                "sleep_reg (allocated registers SLEEP after every access, unallocated OFF) or greener "
                "(compiler-annotated ON/SLEEP/OFF after each access, with the run-time correction; unallocated "
                "OFF). docs/greener.md.",
                "Jatala thesis Ch. 4 §4.2-§4.3 (seed note 000 §2.12); Sleep-Reg: Abdel-Majeed & Annavaram HPCA'13 "
                "as the thesis describes it"));
  t.push_back(U("gpu.sm.regfile.power.window", 3, "instructions", 1, 64,
                "GREENER threshold W: minimum instruction distance between accesses that pays for a wake-up "
                "(the power_states pass's window).",
                kJatalaCh4));
  t.push_back(U("gpu.sm.regfile.power.sleep_wakeup_cycles", 1, "core cycles", 0, 1024,
                "GREENER and Sleep-Reg: cycles to wake a register from SLEEP to ON.", kJatalaCh4));
  t.push_back(U("gpu.sm.regfile.power.off_wakeup_cycles", 2, "core cycles", 0, 1024,
                "GREENER and Sleep-Reg: cycles to wake a register from OFF to ON.", kJatalaCh4));
  t.push_back(B("gpu.sm.regfile.power.runtime_correction", true,
                "GREENER's run-time correction: keep a register ON when another decoded, not yet written-back "
                "instruction of the warp accesses it (false: the compiler's states alone, Comp-OPT).",
                "Jatala thesis §4.2.3, Fig. 4.4 (seed note 000 §2.12)"));
  t.push_back(D("gpu.sm.regfile.power.sleep_leakage_ratio", 0.25, "ratio", 0.0, 1.0,
                "Leakage of a SLEEP (drowsy, data-retaining) register relative to ON.",
                "estimate (docs/greener.md, Leakage): the thesis uses CACTI-P's SRAM_vccmin retention voltage for "
                "SLEEP and prints no ratio (seed note 000 §8); drowsy SRAM at a retention voltage cuts leakage by "
                "roughly 70-90 % (El-Dib et al. ICM 2010; Flautner et al. ISCA 2002)"));
  t.push_back(D("gpu.sm.regfile.power.off_leakage_ratio", 0.05, "ratio", 0.0, 0.99,
                "Leakage of an OFF (power-gated) register relative to ON: what the sleep transistor still leaks.",
                "estimate (docs/greener.md, Leakage): the thesis gates with SRAM_vccmin = 0 V in CACTI-P and prints "
                "no ratio (seed note 000 §8)"));

  // Kernel parameters.
  t.push_back(U("gpu.sm.param_latency", 35, "core cycles", 1, 4096,
                "Latency of a kernel-parameter load (ld.param) from the start of its LD/ST access to the "
                "result; parameters never miss.",
                "simtlm decision: kernel parameters live in a constant bank on Fermi, so a parameter load "
                "costs a constant-cache hit (gpu.const_cache.hit_latency 35)"));

  // Shared memory.
  t.push_back(U("gpu.sm.smem.banks", 32, "banks", 1, 1024,
                "Shared memory banks; distinct words of one bank accessed by a warp serialise.",
                "GPGPU-Sim -gpgpu_shmem_num_banks 32"));
  t.push_back(U("gpu.sm.smem.bank_width_bytes", 4, "bytes", 1, 64, "Width of one shared memory bank.",
                "NVIDIA Fermi (CC 2.0) 32-bit banks"));
  t.push_back(U("gpu.sm.smem.latency", 26, "core cycles", 1, 4096,
                "Shared memory access latency without bank conflicts.", kG4));
  t.push_back(E("gpu.sm.smem.alloc_policy", "baseline", {"baseline", "sharing"},
                "Scratchpad allocation: baseline, or Jatala's scratchpad sharing between CTA pairs.",
                "Jatala thesis §2.2.2 (seed note 000 §2.4)"));
  t.push_back(D("gpu.sm.smem.sharing_threshold", 0.1, "fraction", 0.01, 1.0,
                "Scratchpad sharing threshold t: the private fraction of each shared CTA's scratchpad.", kJatalaShare));

  // Execution units (Fermi: 2 x 16-lane SP pipelines, 4 SFUs, 16 LD/ST units).
  add_exec_unit(
      t, "sp", 2, 1, 1, 1, "single-precision/ALU",
      "GPGPU-Sim -gpgpu_num_sp_units 2; latency/interval 1 = GPGPU-Sim 3.x set_opcode_and_latency default for ops "
      "outside the tables");
  add_exec_unit(
      t, "sfu", 1, 1, 8, 8, "special-function (transcendental)",
      "count: GPGPU-Sim -gpgpu_num_sfu_units 1; latency/interval: GPGPU-Sim 3.x "
      "ptx_instruction::set_opcode_and_latency gives sqrt/sin/cos/ex2/lg2/rsqrt/rcp the dp mul values (8, 8)");
  add_exec_unit(t, "dp", 0, 0, 8, 8, "double-precision",
                "GPGPU-Sim 4.x SM2_GTX480 -gpgpu_num_dp_units 0 (DP executes on the SFU); latency/interval = dp add");
  add_exec_unit(t, "int", 0, 0, 1, 1, "integer",
                "simtlm decision: Fermi executes integer ops on the SP pipelines (count 0)");
  add_exec_unit(t, "ldst", 1, 1, 1, 1, "load/store (address generation and coalescing)",
                "GPGPU-Sim pipeline width ID_OC_MEM/OC_EX_MEM 1 (16 LD/ST lanes, Rajasree §2.1)");

  // Per-opcode latencies (issue to result) and initiation intervals.
  add_op_table(t, "int", "integer", {4, 13, 4, 5, 145}, {1, 2, 2, 1, 8}, "-ptx_opcode_latency_int 4,13,4,5,145",
               "-ptx_opcode_initiation_int 1,2,2,1,8");
  add_op_table(t, "fp", "single-precision", {4, 13, 4, 5, 39}, {1, 2, 1, 1, 4}, "-ptx_opcode_latency_fp 4,13,4,5,39",
               "-ptx_opcode_initiation_fp 1,2,1,1,4");
  add_op_table(t, "dp", "double-precision", {8, 19, 8, 8, 330}, {8, 16, 8, 8, 130},
               "-ptx_opcode_latency_dp 8,19,8,8,330", "-ptx_opcode_initiation_dp 8,16,8,8,130");
}

void const_cache_keys(std::vector<ConfigKey>& t) {
  const char* const cc = "GPGPU-Sim -gpgpu_const_cache:l1 64:64:2,L:R:f:N:L,A:2:32,4";
  t.push_back(U("gpu.const_cache.sets", 64, "sets", 1, 65536, "Constant cache sets.", cc));
  t.push_back(U("gpu.const_cache.ways", 2, "ways", 1, 256, "Constant cache associativity.", cc));
  t.push_back(U("gpu.const_cache.line_bytes", 64, "bytes", 4, 4096, "Constant cache line size.", cc));
  t.push_back(U("gpu.const_cache.mshrs", 2, "entries", 1, 1024, "Constant cache MSHRs.", cc));
  t.push_back(U("gpu.const_cache.hit_latency", 35, "core cycles", 1, 4096,
                "Constant cache hit latency (a warp reading distinct words serialises per word).", kDecision));
  t.push_back(U("gpu.const_cache.miss_latency", 128, "core cycles", 1, 4096,
                "Constant cache miss latency (fixed: the fill is not sent through the interconnect/L2 model; "
                "no MSHR limit).",
                "simtlm decision: same derivation as gpu.sm.icache.miss_latency, gpu.l2.hit_latency 120 + "
                "2 x gpu.noc.latency 4 = 128 core cycles on the presets"));
}

const Registration kSm(kRankSm, "sm", &sm_keys);
const Registration kConstCache(kRankConstCache, "const_cache", &const_cache_keys);

}  // namespace
}  // namespace simtlm::config_keys
