// The configuration schema: every key of the model, in module order, with its
// type, the gtx480 value (= built-in default), the tesla_c2050 value, unit,
// range, meaning and the source of the preset values. docs/config-reference.md
// and configs/*.json are generated from this table.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "simtlm/config.h"

namespace simtlm {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t GiB = 1024 * MiB;

// Sources. "G3" = GPGPU-Sim 3.x shipped configs read from gpgpu-sim_distribution;
// the seeds' simulators (Jatala, Rajasree, Rogers) are GPGPU-Sim 3.x.
const char* const kG3 =
    "GTX480: GPGPU-Sim 3.x configs/GTX480/gpgpusim.config; C2050: GPGPU-Sim 3.x "
    "configs/3.x-cfgs/TeslaC2050/gpgpusim.config (seed notes 000 §3.1, 003 §2.2)";
const char* const kDecision = "simtlm decision (docs/config-reference.md, Decisions)";
const char* const kIcnt = "GPGPU-Sim configs/GTX480/config_fermi_islip.icnt (same file for TeslaC2050)";
const char* const kG4 = "GPGPU-Sim 4.x configs/4.x-cfgs/SM2_GTX480/gpgpusim.config (calibrated Fermi latencies); same for C2050";
const char* const kRogers = "Rogers thesis Table 3.3 / 4.3 (seed note 002 §5.6)";
const char* const kJatalaCh4 = "Jatala thesis Ch. 4, Table 4.2 (seed note 000 §2.12, §3.3)";
const char* const kJatalaShare = "Jatala thesis §2.2, Table 2.3: t = 0.1 (seed note 000 §2.2, §3.1)";
const char* const kDramTiming =
    "GPGPU-Sim GTX480/TeslaC2050 -gpgpu_dram_timing_opt (Hynix H5GQ1H24AFR GDDR5); C2050 also Jatala Table 2.3";

ConfigKey make(const std::string& path, ConfigType type, ConfigValue gtx, ConfigValue c2050, const std::string& unit,
               ConfigValue lo, ConfigValue hi, std::vector<std::string> allowed, const std::string& desc,
               const std::string& source) {
  ConfigKey k;
  k.path = path;
  k.type = type;
  k.default_value = std::move(gtx);
  k.c2050_value = std::move(c2050);
  k.unit = unit;
  k.min = std::move(lo);
  k.max = std::move(hi);
  k.allowed = std::move(allowed);
  k.description = desc;
  k.source = source;
  return k;
}

ConfigKey U(const std::string& path, std::uint64_t gtx, std::uint64_t c2050, const std::string& unit,
            std::uint64_t lo, std::uint64_t hi, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::UInt, gtx, c2050, unit, lo, hi, {}, desc, source);
}
ConfigKey I(const std::string& path, std::int64_t gtx, std::int64_t c2050, const std::string& unit,
            std::int64_t lo, std::int64_t hi, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Int, gtx, c2050, unit, lo, hi, {}, desc, source);
}
ConfigKey D(const std::string& path, double gtx, double c2050, const std::string& unit, double lo, double hi,
            const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Double, gtx, c2050, unit, lo, hi, {}, desc, source);
}
ConfigKey B(const std::string& path, bool gtx, bool c2050, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Bool, gtx, c2050, "", false, true, {}, desc, source);
}
ConfigKey S(const std::string& path, const char* gtx, const char* c2050, const std::string& desc,
            const std::string& source) {
  return make(path, ConfigType::String, std::string(gtx), std::string(c2050), "", std::string(), std::string(), {},
              desc, source);
}
ConfigKey E(const std::string& path, const char* gtx, const char* c2050, std::vector<std::string> allowed,
            const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Enum, std::string(gtx), std::string(c2050), "", std::string(), std::string(),
              std::move(allowed), desc, source);
}

// Per-class execution units: count, latency, initiation interval.
void add_exec_unit(std::vector<ConfigKey>& t, const std::string& cls, std::uint64_t count, std::uint64_t count_min,
                   std::uint64_t latency, std::uint64_t interval, const std::string& what,
                   const std::string& source) {
  const std::string base = "gpu.sm.exec." + cls;
  t.push_back(U(base + ".count", count, count, "units", count_min, 64,
                "Pipelines of the " + what + " class per SM" +
                    (count_min == 0 ? std::string(" (0 = this class executes on another pipeline: integer on "
                                                  "SP, double precision on SFU)")
                                    : std::string()) +
                    ".",
                source));
  t.push_back(U(base + ".latency", latency, latency, "core cycles", 1, 4096,
                "Result latency of " + what + " instructions not covered by gpu.sm.op.* (issue to write-back).",
                source));
  t.push_back(U(base + ".initiation_interval", interval, interval, "core cycles", 1, 4096,
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
    t.push_back(U(base + ".latency", lat[i], lat[i], "core cycles", 1, 4096,
                  "Result latency of " + what + " " + op_text[i] + ".", src + lat_option));
    t.push_back(U(base + ".initiation_interval", ii[i], ii[i], "core cycles", 1, 4096,
                  "Initiation interval of " + what + " " + op_text[i] + " on its pipeline.", src + ii_option));
  }
}

std::vector<ConfigKey> build_schema() {
  std::vector<ConfigKey> t;
  t.reserve(256);

  // ---------------------------------------------------------------- simulation
  t.push_back(U("sim.seed", 1, 1, "", 0, kU64Max,
                "Seed of every pseudo-random choice in the model (random replacement, tie breaks); the same "
                "seed, inputs and configuration give bit-identical results.",
                kDecision));
  t.push_back(U("sim.watchdog_cycles", 1000000, 1000000, "core cycles", 0, 1000000000000ULL,
                "Deadlock watchdog: a launch during which no warp instruction retires for this many core "
                "cycles ends with a deadlock error naming the stuck warps. 0 disables the watchdog.",
                kDecision));
  t.push_back(U("sim.max_cycles", 0, 0, "core cycles", 0, kU64Max,
                "Stop the simulation after this many core cycles (0 = run to completion).", kDecision));
  t.push_back(U("sim.max_instructions", 0, 0, "warp instructions", 0, kU64Max,
                "Stop the simulation after this many warp instructions (0 = unlimited).", kDecision));
  t.push_back(E("sim.platform", "gpu", "gpu", {"gpu", "spu", "vws"},
                "Top level built from this configuration: the baseline GPU, the Stencil Processing Unit "
                "(seed 003) or the variable-warp-sizing GPU (seed 002 Ch. 6).",
                kDecision));
  t.push_back(S("sim.trace.vcd_file", "", "",
                "Write a VCD (GTKWave) of per-SM occupancy and active warps to this file; empty = off.",
                kDecision));
  t.push_back(S("sim.trace.timeline_file", "", "",
                "Write a Chrome/Perfetto trace-event JSON timeline of kernels and CTAs to this file; "
                "empty = off.",
                kDecision));
  t.push_back(I("sim.trace.sm", -1, -1, "SM index", -1, 1023,
                "SM traced in the VCD; -1 traces every SM.", kDecision));
  t.push_back(S("frontend.passes", "", "",
                "Options of the front-end pass pipeline: 'pass.key=value' items separated by ';' "
                "(e.g. 'name.enabled=true; name.limit=4'). 'enabled' switches a pass on or off; other keys are "
                "the pass's own. Unknown passes and keys are errors. Built-in passes: inline_calls, "
                "layout_memory, analyze (required, no options).",
                kDecision));

  // ---------------------------------------------------------------- GPU top
  t.push_back(S("gpu.name", "GTX480", "Tesla C2050",
                "Human-readable name of the modelled GPU, reported beside results.", kG3));
  t.push_back(U("gpu.num_sms", 15, 14, "SMs", 1, 1024,
                "Number of streaming multiprocessors (GPGPU-Sim clusters x cores per cluster).",
                "GTX480: GPGPU-Sim GTX480 config (-gpgpu_n_clusters 15), Rajasree Table 6.1; C2050: GPGPU-Sim "
                "TeslaC2050 config (-gpgpu_n_clusters 14), Jatala Table 2.3"));
  t.push_back(U("gpu.global_memory_bytes", 1536 * MiB, 3 * GiB, "bytes", 1 * MiB, 1024 * GiB,
                "Device global memory capacity; device allocations beyond it fail.",
                "NVIDIA product specifications: GTX 480 1536 MB GDDR5, Tesla C2050 3 GB GDDR5"));

  // ---------------------------------------------------------------- SM
  t.push_back(U("gpu.sm.warp_size", 32, 32, "threads", 1, 64,
                "Threads per warp (SIMT width). Variable warp sizing sweeps it; 1..64.",
                "GPGPU-Sim -gpgpu_shader_core_pipeline 1536:32; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.max_threads", 1536, 1536, "threads", 1, 65536,
                "Maximum resident threads per SM (must be a multiple of the warp size; 1536 = 48 warps).",
                "GPGPU-Sim -gpgpu_shader_core_pipeline 1536:32; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.max_ctas", 8, 8, "CTAs", 1, 1024, "Maximum resident CTAs per SM.",
                "GPGPU-Sim -gpgpu_shader_cta 8; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.registers", 32768, 32768, "32-bit registers", 1, 16 * MiB,
                "Registers in the SM's register file (32768 x 4 B = 128 KB on Fermi).",
                "GPGPU-Sim -gpgpu_shader_registers 32768; Jatala Table 2.3"));
  t.push_back(U("gpu.sm.register_alloc_granularity", 4, 4, "registers per thread", 1, 256,
                "A kernel's registers per thread are rounded up to a multiple of this before CTA admission "
                "(GPGPU-Sim: (regs+3)&~3; CUDA CC 2.0 hardware allocates 64 per warp = 2 per thread).",
                "GPGPU-Sim 3.x shader_core_config::max_cta; seed note 000 §2.2"));
  t.push_back(E("gpu.sm.register_count_source", "ptxas", "ptxas", {"ptxas", "allocator"},
                "Registers per thread that CTA admission uses: ptxas's count where one is known (recorded for "
                "the built-in workloads, from running ptxas on a user's PTX, or registers_per_thread of a "
                "launch spec), else our allocator's estimate (the summary says which); or always our "
                "allocator's estimate. A ptxas count above gpu.sm.max_registers_per_thread is capped at it.",
                "simtlm decision, as GPGPU-Sim (which takes ptxas's count); docs/register-allocation.md"));
  t.push_back(U("gpu.sm.max_registers_per_thread", 63, 63, "registers", 1, 255,
                "Largest register count a kernel may use per thread; launches above it are rejected.",
                "CUDA compute capability 2.0 limit (63); Hayes §5 (seed note 001 §2.1)"));
  t.push_back(U("gpu.sm.shared_memory_bytes", 48 * KiB, 48 * KiB, "bytes", 0, 16 * MiB,
                "Shared memory (scratchpad) per SM. Jatala's scratchpad-sharing runs use 16384.",
                "GPGPU-Sim -gpgpu_shmem_size 49152; Jatala Table 2.3 (48 KB for register-sharing runs)"));
  t.push_back(U("gpu.sm.shared_memory_alloc_granularity", 1, 1, "bytes", 1, 64 * KiB,
                "A CTA's shared memory is rounded up to a multiple of this before admission (1 = no "
                "rounding, as GPGPU-Sim 3.x; CUDA CC 2.0 hardware uses 128).",
                "GPGPU-Sim 3.x shader_core_config::max_cta (no rounding); seed note 000 §2.2"));
  t.push_back(U("gpu.sm.unified_l1_smem_bytes", 64 * KiB, 64 * KiB, "bytes", 0, 16 * MiB,
                "SRAM that shared memory and the L1D are carved from (Fermi: 64 KB as 48/16 or 16/48). "
                "shared_memory_bytes plus the L1D size (sets x ways x line_bytes, when enabled) must not "
                "exceed it. 0 = separate arrays, no check.",
                "GPGPU-Sim GTX480 config comment (16 KB:48 KB or 48 KB:16 KB); NVIDIA Fermi whitepaper"));
  t.push_back(U("gpu.sm.fetch_width", 2, 2, "instructions per cycle", 1, 64,
                "Instructions fetched and decoded per core cycle (for one warp) into the I-buffers. VWS scales "
                "it with issue bandwidth.",
                "GPGPU-Sim 3.x fetch/decode (one warp per cycle, up to 2 instructions); Rogers §6.1"));
  t.push_back(U("gpu.sm.ibuffer_entries", 2, 2, "instructions per warp", 1, 64,
                "Decoded-instruction buffer entries per warp.", "GPGPU-Sim 3.x I-buffer size (2)"));
  t.push_back(U("gpu.sm.schedulers", 2, 2, "schedulers", 1, 64,
                "Warp issue schedulers per SM; warps are assigned to schedulers by warp id modulo this.",
                "GPGPU-Sim -gpgpu_num_sched_per_core 2"));
  t.push_back(E("gpu.sm.scheduler.policy", "gto", "lrr", {"lrr", "gto", "two_level", "owf", "swl", "ccws", "daws"},
                "Warp issue policy: loose round-robin, greedy-then-oldest, two-level (Narasiman), owner-warp-first "
                "(Jatala), static warp limiting, cache-conscious (CCWS) or divergence-aware (DAWS).",
                "GTX480: GPGPU-Sim -gpgpu_scheduler gto; C2050: Jatala Table 2.3 (baseline Unshared-LRR)"));
  t.push_back(U("gpu.sm.scheduler.max_issue_per_warp", 1, 1, "instructions", 1, 4,
                "Instructions one scheduler may issue from the same warp in one cycle.",
                "GPGPU-Sim -gpgpu_max_insn_issue_per_warp 1"));
  t.push_back(U("gpu.sm.scheduler.two_level.active_set_size", 8, 8, "warps per scheduler", 1, 1024,
                "two_level: warps in the active (fetch) group of each scheduler. Rogers' best 2LVL-GTO uses 2.",
                "Narasiman et al. MICRO'11 fetch group of 8, as described in Rogers §3.4.1 (seed note 002 §3)"));
  t.push_back(E("gpu.sm.scheduler.two_level.inner_policy", "lrr", "lrr", {"lrr", "gto"},
                "two_level: order of warps inside the active group.",
                "Narasiman et al. (RR inside groups), Rogers §3.4.1"));
  t.push_back(E("gpu.sm.scheduler.two_level.outer_policy", "lrr", "lrr", {"lrr", "gto"},
                "two_level: order in which pending warps enter the active group.",
                "Narasiman et al. (RR across groups), Rogers §3.4.1"));
  t.push_back(U("gpu.sm.scheduler.swl.warp_limit", 0, 0, "warps", 0, 1024,
                "swl (and ccws/daws base): maximum warps actively scheduled per SM; 0 = no limit.",
                "Rogers §3.2.2 (seed note 002 §4)"));
  t.push_back(D("gpu.sm.scheduler.ccws.k_throttle", 8.0, 8.0, "", 0.0, 1000.0,
                "ccws: K_THROTTLE in LLDS = (VTA hits / instructions) x K x cutoff.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.base_score", 100, 100, "points", 1, 1000000,
                "ccws: base lost-locality score of every warp.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.vta_entries_per_warp", 16, 16, "tags", 1, 4096,
                "ccws: victim tag array entries per warp.", kRogers));
  t.push_back(U("gpu.sm.scheduler.ccws.vta_ways", 8, 8, "ways", 1, 4096,
                "ccws: victim tag array associativity (within a warp's partition).", kRogers));

  // Instruction cache.
  t.push_back(B("gpu.sm.icache.perfect", false, false,
                "Perfect instruction cache: every fetch hits (the icache.* geometry is then unused).", kDecision));
  t.push_back(U("gpu.sm.icache.sets", 4, 4, "sets", 1, 65536, "L1 instruction cache sets.",
                "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.ways", 4, 4, "ways", 1, 256, "L1 instruction cache associativity.",
                "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.line_bytes", 128, 128, "bytes", 4, 4096, "L1 instruction cache line size.",
                "GPGPU-Sim -gpgpu_cache:il1 4:128:4"));
  t.push_back(U("gpu.sm.icache.mshrs", 2, 2, "entries", 1, 1024, "L1 instruction cache miss status holding registers.",
                "GPGPU-Sim -gpgpu_cache:il1 ...,A:2:32"));
  t.push_back(U("gpu.sm.icache.hit_latency", 1, 1, "core cycles", 1, 1024,
                "Cycles from fetch request to decoded instructions on an instruction-cache hit.", kDecision));
  t.push_back(U("gpu.sm.icache.miss_latency", 128, 128, "core cycles", 1, 4096,
                "Cycles from fetch request to decoded instructions on an instruction-cache miss (fixed: the "
                "fill is not sent through the interconnect/L2 model).",
                "simtlm decision: an L2 hit plus the zero-load interconnect latency both ways on the presets, "
                "gpu.l2.hit_latency 120 + 2 x gpu.noc.latency 4 = 128 core cycles (all clocks equal; "
                "GPGPU-Sim 3.x also fetches instructions from the L2)"));

  // Register file and operand collectors.
  t.push_back(U("gpu.sm.regfile.banks", 16, 16, "banks", 1, 1024,
                "Register file banks; operands of the same bank read in the same cycle conflict.",
                "GPGPU-Sim -gpgpu_num_reg_banks 16"));
  t.push_back(U("gpu.sm.regfile.ports_per_bank", 1, 1, "accesses per cycle", 1, 16,
                "Reads or writes one bank serves per core cycle.", "GPGPU-Sim 3.x operand collector (single-ported banks)"));
  t.push_back(U("gpu.sm.regfile.collector_units", 6, 6, "units", 1, 1024,
                "Operand collector units for SP/INT/DP instructions.",
                "GPGPU-Sim -gpgpu_operand_collector_num_units_sp 6"));
  t.push_back(U("gpu.sm.regfile.collector_units_sfu", 8, 8, "units", 1, 1024,
                "Operand collector units for SFU instructions.",
                "GPGPU-Sim -gpgpu_operand_collector_num_units_sfu 8"));
  t.push_back(U("gpu.sm.regfile.collector_units_mem", 2, 2, "units", 1, 1024,
                "Operand collector units for load/store instructions.",
                "GPGPU-Sim 3.x default -gpgpu_operand_collector_num_units_mem 2"));
  t.push_back(E("gpu.sm.regfile.alloc_policy", "baseline", "baseline", {"baseline", "sharing"},
                "Register allocation: baseline (a CTA gets all its registers) or Jatala's register sharing "
                "between CTA pairs.",
                "Jatala thesis §2.2.1 (seed note 000 §2.3)"));
  t.push_back(D("gpu.sm.regfile.sharing_threshold", 0.1, 0.1, "fraction", 0.01, 1.0,
                "Register sharing threshold t: each warp of a shared pair keeps t of its registers private "
                "(t = 0.1 = 90% sharing).",
                kJatalaShare));
  t.push_back(E("gpu.sm.regfile.power.policy", "always_on", "always_on", {"always_on", "greener"},
                "Register power states: always on, or GREENER's compiler-annotated ON/SLEEP/OFF states.",
                kJatalaCh4));
  t.push_back(U("gpu.sm.regfile.power.window", 3, 3, "instructions", 1, 1024,
                "GREENER threshold W: minimum instruction distance between accesses that pays for a wake-up.",
                kJatalaCh4));
  t.push_back(U("gpu.sm.regfile.power.sleep_wakeup_cycles", 1, 1, "core cycles", 0, 1024,
                "GREENER: cycles to wake a register from SLEEP to ON.", kJatalaCh4));
  t.push_back(U("gpu.sm.regfile.power.off_wakeup_cycles", 2, 2, "core cycles", 0, 1024,
                "GREENER: cycles to wake a register from OFF to ON.", kJatalaCh4));

  // Kernel parameters.
  t.push_back(U("gpu.sm.param_latency", 35, 35, "core cycles", 1, 4096,
                "Latency of a kernel-parameter load (ld.param) from the start of its LD/ST access to the "
                "result; parameters never miss.",
                "simtlm decision: kernel parameters live in a constant bank on Fermi, so a parameter load "
                "costs a constant-cache hit (gpu.const_cache.hit_latency 35)"));

  // Shared memory.
  t.push_back(U("gpu.sm.smem.banks", 32, 32, "banks", 1, 1024,
                "Shared memory banks; distinct words of one bank accessed by a warp serialise.",
                "GPGPU-Sim -gpgpu_shmem_num_banks 32"));
  t.push_back(U("gpu.sm.smem.bank_width_bytes", 4, 4, "bytes", 1, 64, "Width of one shared memory bank.",
                "NVIDIA Fermi (CC 2.0) 32-bit banks"));
  t.push_back(U("gpu.sm.smem.latency", 26, 26, "core cycles", 1, 4096,
                "Shared memory access latency without bank conflicts.", kG4));
  t.push_back(E("gpu.sm.smem.alloc_policy", "baseline", "baseline", {"baseline", "sharing"},
                "Scratchpad allocation: baseline, or Jatala's scratchpad sharing between CTA pairs.",
                "Jatala thesis §2.2.2 (seed note 000 §2.4)"));
  t.push_back(D("gpu.sm.smem.sharing_threshold", 0.1, 0.1, "fraction", 0.01, 1.0,
                "Scratchpad sharing threshold t: the private fraction of each shared CTA's scratchpad.",
                kJatalaShare));

  // Execution units (Fermi: 2 x 16-lane SP pipelines, 4 SFUs, 16 LD/ST units).
  add_exec_unit(t, "sp", 2, 1, 1, 1, "single-precision/ALU",
                "GPGPU-Sim -gpgpu_num_sp_units 2; latency/interval 1 = GPGPU-Sim 3.x set_opcode_and_latency default for ops "
                "outside the tables");
  add_exec_unit(t, "sfu", 1, 1, 8, 8, "special-function (transcendental)",
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

  // ---------------------------------------------------------------- L1 data cache (per SM)
  const char* const dl1 = "GPGPU-Sim -gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8 (GTX480 and TeslaC2050 3.x)";
  t.push_back(B("gpu.l1d.enabled", true, true,
                "L1 data cache present. false: global and local accesses go to the L2 (the SPU study runs "
                "with caches off).",
                "GPGPU-Sim GTX480/TeslaC2050 configs; Rajasree Table 6.1 (L1 on, 16 KB)"));
  t.push_back(B("gpu.l1d.cache_global", true, true,
                "Global loads are cached in the L1D (false = nvcc -dlcm=cg: only local memory is cached).",
                "GPGPU-Sim 4.x -gmem_skip_L1D 0"));
  t.push_back(B("gpu.l1d.cache_operators", true, true,
                "Honour the PTX cache operators of global accesses: ld.cg and ld.cv bypass the L1D; ld.cs, "
                "ld.lu and st.cs lines are inserted first in eviction order (L1D and L2) and hits do not "
                "promote them. false: every operator behaves as .ca/.wb.",
                "PTX ISA, Cache Operators; GPGPU-Sim bypasses the L1D for ld.cg"));
  t.push_back(U("gpu.l1d.sets", 32, 32, "sets", 1, 65536, "L1D sets (power of two).", dl1));
  t.push_back(U("gpu.l1d.ways", 4, 4, "ways", 1, 256, "L1D associativity.", dl1));
  t.push_back(U("gpu.l1d.line_bytes", 128, 128, "bytes", 4, 4096, "L1D line size (power of two).", dl1));
  t.push_back(U("gpu.l1d.sector_bytes", 32, 32, "bytes", 4, 4096,
                "L1D sector: unit of valid bits and of requests to the L2; equal to line_bytes for a "
                "non-sectored cache.",
                "simtlm issue text (GTX480: 32-byte sectors); Fermi 32-byte memory transactions"));
  t.push_back(U("gpu.l1d.size_bytes", 0, 0, "bytes", 0, 16 * MiB,
                "Optional check: when non-zero it must equal sets x ways x line_bytes. 0 = derived, not checked.",
                kDecision));
  t.push_back(E("gpu.l1d.replacement", "lru", "lru", {"lru", "fifo"}, "L1D replacement policy.", dl1));
  t.push_back(E("gpu.l1d.set_index", "xor", "xor", {"linear", "xor"},
                "L1D set index function: address bits, or an XOR hash of higher bits (GPGPU-Sim 'H', the "
                "Fermi hash).",
                dl1));
  // gtx480's memory-side queue depths come from GPGPU-Sim 4.x's calibrated
  // GTX480 configuration, like its L1D latency, whose deeper queues sustain
  // the 100-cycle DRAM latency; tesla_c2050 keeps the 3.x TeslaC2050 depths
  // of the seeds' baseline (docs/config-reference.md, Decisions).
  const char* const sm2 = "gtx480: GPGPU-Sim 4.x configs/tested-cfgs/SM2_GTX480";
  t.push_back(U("gpu.l1d.mshrs", 64, 32, "entries", 1, 4096, "L1D miss status holding registers.",
                std::string(sm2) + " -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8; tesla_c2050: 3.x A:32:8"));
  t.push_back(U("gpu.l1d.mshr_merge", 8, 8, "requests", 1, 1024,
                "Requests to the same line merged into one MSHR entry.", dl1));
  t.push_back(U("gpu.l1d.miss_queue_entries", 8, 8, "requests", 1, 4096,
                "Misses waiting to enter the interconnect.", dl1));
  t.push_back(U("gpu.l1d.hit_latency", 35, 35, "core cycles", 1, 4096, "L1D hit latency.", kG4));
  t.push_back(E("gpu.l1d.write_policy", "write_evict", "write_evict", {"write_evict", "write_through"},
                "Global stores: write_evict invalidates the L1 copy and writes to the L2 (Fermi; local stores "
                "are written back), write_through updates a present line and writes to the L2.",
                "GPGPU-Sim dl1 'L' (local write-back, global write-evict); Rogers §2.3"));
  t.push_back(B("gpu.l1d.write_allocate", false, false, "Store misses allocate a line in the L1D.",
                "GPGPU-Sim dl1 write-allocate 'N'"));
  t.push_back(E("gpu.l1d.allocate_on", "miss", "miss", {"miss", "fill"},
                "When a line is reserved: at the miss (GPGPU-Sim 'm') or when the data returns ('f').", dl1));

  // ---------------------------------------------------------------- constant cache (per SM)
  const char* const cc = "GPGPU-Sim -gpgpu_const_cache:l1 64:64:2,L:R:f:N:L,A:2:32,4";
  t.push_back(U("gpu.const_cache.sets", 64, 64, "sets", 1, 65536, "Constant cache sets.", cc));
  t.push_back(U("gpu.const_cache.ways", 2, 2, "ways", 1, 256, "Constant cache associativity.", cc));
  t.push_back(U("gpu.const_cache.line_bytes", 64, 64, "bytes", 4, 4096, "Constant cache line size.", cc));
  t.push_back(U("gpu.const_cache.mshrs", 2, 2, "entries", 1, 1024, "Constant cache MSHRs.", cc));
  t.push_back(U("gpu.const_cache.hit_latency", 35, 35, "core cycles", 1, 4096,
                "Constant cache hit latency (a warp reading distinct words serialises per word).", kDecision));
  t.push_back(U("gpu.const_cache.miss_latency", 128, 128, "core cycles", 1, 4096,
                "Constant cache miss latency (fixed: the fill is not sent through the interconnect/L2 model; "
                "no MSHR limit).",
                "simtlm decision: same derivation as gpu.sm.icache.miss_latency, gpu.l2.hit_latency 120 + "
                "2 x gpu.noc.latency 4 = 128 core cycles on the presets"));

  // ---------------------------------------------------------------- interconnect
  t.push_back(E("gpu.noc.topology", "crossbar", "crossbar", {"crossbar", "ideal"},
                "SM <-> L2 interconnect: a crossbar with per-port flit bandwidth and buffers, or an ideal "
                "network (fixed latency, unlimited bandwidth).",
                "GPGPU-Sim config_fermi_islip.icnt: topology fly, k = 27, n = 1 (one 27x27 switch)"));
  t.push_back(U("gpu.noc.latency", 4, 4, "noc cycles", 1, 4096,
                "Zero-load traversal latency of a single-flit packet.", kDecision));
  t.push_back(U("gpu.noc.flit_bytes", 32, 32, "bytes", 1, 4096, "Flit size.", kIcnt));
  t.push_back(U("gpu.noc.port_bandwidth_flits", 1, 1, "flits per noc cycle", 1, 64,
                "Flits each input and output port moves per interconnect cycle.", kDecision));
  t.push_back(U("gpu.noc.buffer_flits", 8, 8, "flits", 1, 65536, "Buffer per port (and virtual channel).",
                "GPGPU-Sim config_fermi_islip.icnt vc_buf_size = 8"));
  t.push_back(U("gpu.noc.header_bytes", 8, 8, "bytes", 0, 4096,
                "Packet header bytes (a read request is a header only; replies and writes add the data).",
                "GPGPU-Sim mem_fetch READ_PACKET_SIZE = 8"));

  // ---------------------------------------------------------------- L2 (per memory sub-partition)
  const char* const dl2 = "GPGPU-Sim -gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4:0,32 (per sub-partition)";
  t.push_back(B("gpu.l2.enabled", true, true,
                "L2 cache present; false: every access goes to the DRAM channel (SPU study).",
                "GPGPU-Sim GTX480/TeslaC2050 configs; Rajasree Table 6.1"));
  t.push_back(U("gpu.l2.sub_partitions_per_channel", 2, 2, "sub-partitions", 1, 64,
                "L2 slices (memory sub-partitions) per DRAM channel; slices = channels x this.",
                "GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel 2"));
  t.push_back(U("gpu.l2.sets", 64, 64, "sets", 1, 1048576, "L2 sets per slice (power of two).", dl2));
  t.push_back(U("gpu.l2.ways", 8, 8, "ways", 1, 256, "L2 associativity.", dl2));
  t.push_back(U("gpu.l2.line_bytes", 128, 128, "bytes", 4, 4096, "L2 line size (must equal gpu.l1d.line_bytes).",
                dl2));
  t.push_back(U("gpu.l2.sector_bytes", 32, 32, "bytes", 4, 4096,
                "L2 sector: unit of valid bits and DRAM requests (must equal gpu.l1d.sector_bytes).",
                "simtlm issue text (32-byte sectors); Fermi 32-byte memory transactions"));
  t.push_back(U("gpu.l2.size_bytes", 0, 0, "bytes", 0, 1024 * MiB,
                "Optional check, per slice: when non-zero it must equal sets x ways x line_bytes (64 KB on "
                "GTX480; 768 KB in total). 0 = derived, not checked.",
                kDecision));
  t.push_back(E("gpu.l2.replacement", "lru", "lru", {"lru", "fifo"}, "L2 replacement policy.", dl2));
  t.push_back(E("gpu.l2.write_policy", "write_back", "write_back", {"write_back", "write_through"},
                "L2 write policy.", dl2));
  t.push_back(B("gpu.l2.write_allocate", true, true, "Store misses allocate a line in the L2.", dl2));
  t.push_back(E("gpu.l2.allocate_on", "miss", "miss", {"miss", "fill"}, "When an L2 line is reserved.", dl2));
  t.push_back(U("gpu.l2.mshrs", 256, 32, "entries", 1, 4096, "L2 MSHRs per slice.",
                std::string(sm2) + " -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32; tesla_c2050: 3.x "
                "A:32:4"));
  t.push_back(U("gpu.l2.mshr_merge", 4, 4, "requests", 1, 1024, "Requests merged into one L2 MSHR entry.", dl2));
  t.push_back(U("gpu.l2.miss_queue_entries", 4, 4, "requests", 1, 4096, "L2 misses waiting for the DRAM channel.",
                dl2));
  t.push_back(U("gpu.l2.hit_latency", 120, 120, "L2 cycles", 1, 4096,
                "Fixed pipeline latency of an L2 slice access (GPGPU-Sim's ROP queue; core = L2 clock in both "
                "presets).",
                "GPGPU-Sim -rop_latency 120"));
  t.push_back(U("gpu.l2.data_port_bytes", 32, 32, "bytes per L2 cycle", 1, 4096,
                "Data an L2 slice returns per cycle.", dl2));
  t.push_back(U("gpu.l2.request_queue_entries", 64, 8, "requests", 1, 65536,
                "Queue from the interconnect into each slice.",
                std::string(sm2) + " -gpgpu_dram_partition_queues 64:64:64:64 (icnt->L2); tesla_c2050: 3.x "
                "default 8:8:8:8"));
  t.push_back(U("gpu.l2.response_queue_entries", 64, 8, "requests", 1, 65536,
                "Queue from each slice back to the interconnect (responses that have left the hit_latency pipeline).",
                std::string(sm2) + " -gpgpu_dram_partition_queues 64:64:64:64 (L2->icnt); tesla_c2050: 3.x "
                "default 8:8:8:8"));
  t.push_back(E("gpu.l2.slice_hash", "linear", "linear", {"linear", "xor"},
                "Address -> slice: linear (chunk index modulo slices) or an XOR fold of higher address bits.",
                "GPGPU-Sim 4.x -memory_partition_indexing 0 (linear); 3.x has no hash"));
  t.push_back(U("gpu.l2.interleave_bytes", 256, 256, "bytes", 4, 1 * MiB,
                "Consecutive chunks of this many bytes map to consecutive slices.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping dramid@8 (256-byte interleaving)"));

  // ---------------------------------------------------------------- DRAM
  t.push_back(U("gpu.dram.channels", 6, 6, "channels", 1, 1024,
                "DRAM channels (memory controllers); 6 x 64-bit = 384-bit on Fermi.", "GPGPU-Sim -gpgpu_n_mem 6"));
  t.push_back(U("gpu.dram.banks", 16, 16, "banks", 1, 1024, "Banks per DRAM chip.", kDramTiming));
  t.push_back(U("gpu.dram.bank_groups", 4, 4, "bank groups", 1, 64,
                "GDDR5 bank groups (banks must be a multiple); 1 disables bank groups.", kDramTiming));
  t.push_back(U("gpu.dram.bus_width_bytes", 4, 4, "bytes", 1, 64, "Data bus width of one DRAM chip.",
                "GPGPU-Sim -gpgpu_dram_buswidth 4"));
  t.push_back(U("gpu.dram.chips_per_channel", 2, 2, "chips", 1, 64, "DRAM chips per channel (side by side).",
                "GPGPU-Sim -gpgpu_n_mem_per_ctrlr 2"));
  t.push_back(U("gpu.dram.burst_length", 8, 8, "transfers", 1, 64,
                "Burst length; one burst moves bus_width x chips x burst_length bytes (64 B).",
                "GPGPU-Sim -gpgpu_dram_burst_length 8"));
  t.push_back(U("gpu.dram.data_rate", 4, 4, "transfers per command cycle", 1, 16,
                "Data transfers per DRAM command-clock cycle (GDDR5 = 4, QDR).",
                "GPGPU-Sim -dram_data_command_freq_ratio 4"));
  t.push_back(U("gpu.dram.row_bytes", 4096, 4096, "bytes", 64, 1 * MiB,
                "Row (page) of one bank across the channel's whole data bus (2 KB per chip x 2 chips).",
                "GPGPU-Sim -gpgpu_mem_addr_mapping (6 column bits x 64-byte bursts)"));
  t.push_back(U("gpu.dram.queue_size", 64, 16, "requests", 1, 65536,
                "Request queue the channel scheduler chooses from.",
                std::string(sm2) + " -gpgpu_frfcfs_dram_sched_queue_size 64; tesla_c2050: 3.x 16 (seed note "
                "000 §3.1)"));
  t.push_back(U("gpu.dram.return_queue_size", 116, 114, "requests", 1, 65536,
                "Returned data waiting for the L2 slice.",
                "GPGPU-Sim -gpgpu_dram_return_queue_size (GTX480 116, TeslaC2050 3.x 114)"));
  t.push_back(E("gpu.dram.scheduler", "frfcfs", "frfcfs", {"frfcfs", "fcfs"},
                "Channel scheduler: first-ready first-come-first-served (row hits first) or in order.",
                "GPGPU-Sim -gpgpu_dram_scheduler 1 (FR-FCFS); Jatala Table 2.3"));
  t.push_back(E("gpu.dram.page_policy", "open", "open", {"open", "close"},
                "Row buffer policy: keep the row open after an access, or precharge when no queued request hits it.",
                "GPGPU-Sim 3.x DRAM model (open row)"));
  t.push_back(U("gpu.dram.bank_interleave_bytes", 512, 512, "bytes", 32, 1 * MiB,
                "Low column bytes of a channel's local address (channel bits removed) below the first bank "
                "bit: |row|high bank bits|high column|low bank bits|this many bytes|. Here one channel "
                "interleave chunk (l2.interleave_bytes x sub_partitions_per_channel), so a chunk stays in one row.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping ...BBBCCCCB.CCSSSSSS (column below the first bank bit; "
                "GPGPU-Sim's channel chunk is 256 B, ours holds both sub-partitions)"));
  t.push_back(U("gpu.dram.low_bank_bits", 1, 1, "bits", 0, 16,
                "Bank bits between the low and the high column bits (the rest sit above the high column "
                "bits): 2^bits banks take turns every bank_interleave_bytes and each fills a whole row first.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping ...BBBCCCCB.CCSSSSSS (one bank bit below the high "
                "column bits, three above)"));
  t.push_back(B("gpu.dram.bank_xor", false, false,
                "XOR the bank index with low row bits to spread power-of-two strides over the banks.",
                "GPGPU-Sim 3.x GTX480/TeslaC2050 configs (no bank hashing)"));
  t.push_back(U("gpu.dram.fixed_latency", 100, 100, "L2 cycles", 0, 4096,
                "Fixed pipeline latency between an L2 slice and its DRAM channel (GPGPU-Sim's DRAM latency "
                "queue; core = L2 clock in both presets).",
                "GPGPU-Sim -dram_latency 100"));
  struct Timing {
    const char* name;
    std::uint64_t value;
    const char* desc;
    const char* source;
  };
  const Timing timings[] = {
      {"tCL", 12, "CAS (read) latency: read command to first data.", kDramTiming},
      {"tWL", 4, "Write latency: write command to first data.", kDramTiming},
      {"tRCD", 12, "Activate to read/write command (same bank).", kDramTiming},
      {"tRP", 12, "Precharge to activate (same bank).", kDramTiming},
      {"tRAS", 28, "Activate to precharge (same bank).", kDramTiming},
      {"tRC", 40, "Activate to activate (same bank); at least tRAS + tRP.", kDramTiming},
      {"tRRD", 6, "Activate to activate (different banks).", kDramTiming},
      {"tCCD", 2, "Column command to column command (different bank groups).", kDramTiming},
      {"tCCDL", 3, "Column command to column command (same bank group); 0 without bank groups.", kDramTiming},
      {"tWR", 12, "Write recovery: end of write data to precharge.", kDramTiming},
      {"tWTR", 5,
       "Write to read turnaround in the same bank group: end of write data to read command (a read follows a "
       "write command after tWL + burst_length / data_rate + tWTR).",
       "simtlm decision: = tCDLR; GPGPU-Sim has no tWTR option and derives write-to-read as WL + BL/ratio + CDLR"},
      {"tCDLR", 5, "Last write data in to read command, other bank groups (GDDR5 tCDLR).", kDramTiming},
      {"tRTP", 2, "Read to precharge, same bank.",
       "simtlm decision: burst_length / data_rate = 2 (GPGPU-Sim's string gives only tRTPL)"},
      {"tRTPL", 2, "Read to precharge, any bank of the same bank group; 0 without bank groups.", kDramTiming},
      {"tRTW", 2, "Read to write bus turnaround: end of read data to start of write data.",
       "simtlm decision: GPGPU-Sim spaces a write CL + BL/ratio + 2 - WL after a read, i.e. 2 idle bus cycles"},
  };
  for (const Timing& tm : timings) {
    t.push_back(U(std::string("gpu.dram.timing.") + tm.name, tm.value, tm.value, "DRAM cycles", 0, 1024, tm.desc,
                  tm.source));
  }

  // ---------------------------------------------------------------- clocks
  const char* const clk =
      "GTX480: GPGPU-Sim -gpgpu_clock_domains 700:700:700:924; C2050: GPGPU-Sim 3.x TeslaC2050 "
      "575:575:575:750 (seed note 000 §3.1)";
  t.push_back(D("gpu.clocks.core_mhz", 700.0, 575.0, "MHz", 0.001, 100000.0,
                "SM clock (GPGPU-Sim's core clock = half the Fermi shader clock; one warp instruction per "
                "SP pipeline per cycle).",
                clk));
  t.push_back(D("gpu.clocks.noc_mhz", 700.0, 575.0, "MHz", 0.001, 100000.0, "Interconnect clock.", clk));
  t.push_back(D("gpu.clocks.l2_mhz", 700.0, 575.0, "MHz", 0.001, 100000.0, "L2 / memory sub-partition clock.", clk));
  t.push_back(D("gpu.clocks.dram_mhz", 924.0, 750.0, "MHz", 0.001, 100000.0,
                "DRAM command clock (data moves at data_rate x this).", clk));
  return t;
}

}  // namespace

const std::vector<ConfigKey>& config_schema() {
  static const std::vector<ConfigKey> schema = build_schema();
  return schema;
}

}  // namespace simtlm
