// Text generated from the configuration schema and the embedded presets:
// `simtlm config describe` and docs/config-reference.md.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/config_detail.h"
#include "simtlm/config.h"

namespace simtlm {
namespace {

using config_detail::join;

// Section of a key: its path without the last segment, at most three segments
// deep (gpu.sm.op.int.add.latency -> gpu.sm.op).
std::string section_of(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    if (dot == std::string::npos) break;
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  if (parts.size() > 3) parts.resize(3);
  return join(parts, ".");
}

std::string range_or_values(const ConfigKey& k) {
  switch (k.type) {
    case ConfigType::Enum: return join(k.allowed, " | ");
    case ConfigType::Bool: return "true | false";
    case ConfigType::String: return "text";
    default: return config_detail::range_text(k);
  }
}

std::string shown(const ConfigValue& v) {
  std::string s = format_config_value(v);
  if (std::holds_alternative<std::string>(v)) s = "\"" + s + "\"";
  return s;
}

std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

const char* const kValidationRules[] = {
    "`gpu.sm.max_threads` is a multiple of `gpu.sm.warp_size`; `gpu.sm.schedulers`, "
    "`gpu.sm.scheduler.two_level.active_set_size` and `gpu.sm.scheduler.swl.warp_limit` do not exceed the SM's "
    "warps (max_threads / warp_size).",
    "`gpu.sm.registers` is a multiple of `gpu.sm.regfile.banks`; one warp at `gpu.sm.max_registers_per_thread` "
    "fits in the register file.",
    "`gpu.sm.shared_memory_bytes` is a multiple of `gpu.sm.smem.banks` x `gpu.sm.smem.bank_width_bytes`.",
    "When `gpu.sm.unified_l1_smem_bytes` is non-zero: shared memory + L1D size (if enabled) <= it.",
    "Policy `swl` needs `gpu.sm.scheduler.swl.warp_limit` > 0 and the other policies need it 0; `ccws` needs `gpu.l1d.enabled`; `owf` needs register "
    "or scratchpad sharing; `ccws.vta_entries_per_warp` is a multiple of `ccws.vta_ways`.",
    "Every cache (icache, const_cache, l1d, l2): sets and line_bytes are powers of two; sector_bytes (l1d, l2) is a "
    "power of two, at most line_bytes, and a line has at most 32 sectors; a non-zero size_bytes equals "
    "sets x ways x line_bytes.",
    "With both L1D and L2 enabled their line sizes are equal and their sector sizes are equal.",
    "`gpu.l2.interleave_bytes` is a power of two and at least one L2 line.",
    "Crossbar interconnect: `gpu.noc.buffer_flits` holds the largest packet (header_bytes + line, in flits).",
    "DRAM: banks is a multiple of bank_groups; tRC >= tRAS + tRP; tRAS >= tRCD; with bank groups tCCDL >= tCCD; "
    "row_bytes is a power of two and a multiple of one burst (bus_width_bytes x chips_per_channel x burst_length); "
    "bank_interleave_bytes is a power of two between one burst and row_bytes.",
    "`sim.trace.sm` is -1 or an existing SM.",
    "`sim.trace.power_file` is empty unless `gpu.power.enabled` is true; `sim.trace.l1d_file` is empty unless "
    "`gpu.l1d.enabled` is true.",
    "`gpu.vws.*` keep their defaults unless `sim.platform` is `vws`. On vws: `gpu.sm.schedulers` is 1; "
    "`gpu.sm.warp_size` is `gpu.vws.slices` x `gpu.vws.slice_width` (at most 64) when ganged and "
    "`gpu.vws.slice_width` in slice and mixed mode; `gpu.sm.max_threads` is a multiple of slices x slice_width; "
    "`gpu.vws.fetches_per_cycle` is at most 1 when ganged and at most `gpu.vws.slices` in slice and mixed mode; "
    "`gpu.vws.coalesce_same_cycle` is true when ganged; `gpu.vws.gangs_per_cycle`, `gpu.vws.gang_order`, "
    "`gpu.vws.split_memory`, `gpu.vws.reform` and `gpu.vws.l0_bytes` keep their defaults unless `gpu.vws.mode` is "
    "mixed; in mixed mode `gpu.vws.slices` is at least 2, `gpu.vws.gangs_per_cycle` at most slices / 2, "
    "`gpu.vws.l0_bytes` a multiple of 8, and "
    "`gpu.sm.regfile.alloc_policy` is not finereg (docs/vws.md).",
};

const char* const kDecisions[] = {
    "**Built-in defaults are the gtx480 preset.** A file or `-p` changes only what it names. "
    "`configs/gtx480.json` and `configs/tesla_c2050.json` are the source of the presets' values: hand-written, "
    "embedded in the binary at build time (`Config::preset`), and each names every key (a test checks it, and "
    "that `configs/gtx480.json` equals the built-in defaults the module fragments declare).",
    "**tesla_c2050 follows GPGPU-Sim 3.x `configs/3.x-cfgs/TeslaC2050`** as quoted by seed note 000 §3.1: 14 SMs, "
    "clocks 575:575:575:750 MHz, 6 channels x 2 sub-partitions, L2 64 sets x 8 ways x 128 B per sub-partition "
    "(768 KB). The older `configs/TeslaC2050` file (575:1150:575:750, L2 64:128:16 per channel, no sub-partitions) "
    "is not used. Its scheduler is **LRR**, the baseline of Jatala's Ch. 2 (\"Unshared-LRR\", Table 2.3), although "
    "the GPGPU-Sim file selects GTO; gtx480 keeps GTO. Shared memory is 48 KB (Jatala's register-sharing runs); "
    "scratchpad-sharing studies set `gpu.sm.shared_memory_bytes=16384` and keep the 16 KB L1D, as the thesis did.",
    "**Clock domains.** `gpu.clocks.core_mhz` is GPGPU-Sim's core clock (700 MHz = half of the GTX 480's 1401 MHz "
    "shader clock): an SP pipeline accepts one 32-thread warp instruction per core cycle. Every latency whose unit "
    "is \"core cycles\" counts this clock; \"noc\", \"L2\" and \"DRAM cycles\" count their own domains.",
    "**Cache geometry keys.** sets, ways and line_bytes are canonical (as in GPGPU-Sim's `sets:line:ways`). "
    "`size_bytes` exists for l1d and l2 only as an optional assertion: 0 (the default) derives the size, a non-zero "
    "value must equal sets x ways x line_bytes. A sweep can change `sets` alone; a study file can still pin the size "
    "it intends. GTX480: L1D 32 x 4 x 128 = 16 KB; L2 64 x 8 x 128 = 64 KB per sub-partition, 12 sub-partitions = "
    "768 KB (GPGPU-Sim's comment says \"786KB\").",
    "**Sectors.** L1D and L2 use 128-byte lines with 32-byte sectors (valid bits and memory requests per sector; a "
    "miss fetches only the sectors the access touches). GPGPU-Sim 3.x fetches whole lines; set `sector_bytes` equal "
    "to `line_bytes` to model that. L1D and L2 must agree on line and sector size (checked): the memory system "
    "moves lines and sectors between the levels unchanged.",
    "**Unified L1/shared SRAM.** Fermi carves 48 KB + 16 KB (or 16 + 48) from 64 KB. The rule is shared + L1D <= "
    "`gpu.sm.unified_l1_smem_bytes` rather than equality, so Jatala's 16 KB-scratchpad runs with a 16 KB L1D stay "
    "valid; 0 disables the rule for designs with separate arrays.",
    "**L1D, shared memory and constant-cache latencies.** GPGPU-Sim 3.x (the seeds' simulator) has no explicit "
    "L1D or shared-memory latency; we take GPGPU-Sim 4.x's GTX480 values calibrated against hardware "
    "(`-l1_latency 35`, `-smem_latency 26`) for both presets. The constant cache uses the L1D hit latency (no "
    "source gives it). An instruction-cache hit delivers instructions in 1 cycle (fetch overlaps issue, as in "
    "GPGPU-Sim).",
    "**L2 and DRAM fixed latencies.** `gpu.l2.hit_latency` = GPGPU-Sim `rop_latency` 120 and "
    "`gpu.dram.fixed_latency` = `dram_latency` 100. GPGPU-Sim counts both in core cycles; we count them in L2 "
    "cycles because the L2 slice applies them. Core and L2 clocks are equal in both presets, so the values carry "
    "over unchanged.",
    "**Execution units.** GPGPU-Sim's Fermi model: 2 SP pipelines, 1 SFU pipeline, 1 LD/ST pipeline. Integer "
    "instructions run on the SP pipelines (`gpu.sm.exec.int.count` = 0) and double precision on the SFU "
    "(`gpu.sm.exec.dp.count` = 0, as GPGPU-Sim 4.x's GTX480 config states). Instructions outside the "
    "ADD/MAX/MUL/MAD/DIV tables take latency 1 and interval 1, and transcendental SFU instructions (sqrt, sin, cos, "
    "ex2, lg2, rsqrt, rcp) the dp MUL values 8 and 8, as GPGPU-Sim 3.x's `set_opcode_and_latency` does. (GPGPU-Sim "
    "3.x also sends integer MUL/MAD and every DIV to the SFU pipeline; which class an opcode belongs to is the SM "
    "model's decision, these keys only give each class its timing.)",
    "**Occupancy granularity.** Registers per thread round up to a multiple of 4 and shared memory is not "
    "rounded: GPGPU-Sim 3.x's rules, which reproduce the seeds' occupancy tables (seed note 000 §2.2). "
    "Hardware-faithful CC 2.0 values are 2 (= 64 per warp) and 128 bytes.",
    "**Interconnect.** A crossbar (GPGPU-Sim's `fly` with k = 27, n = 1 is one switch) with 32-byte flits (3.x icnt "
    "file; 4.x uses 40), 8-flit buffers and separate request and reply networks. The zero-load latency (4 noc "
    "cycles) and port bandwidth (1 flit per cycle) are our choices: Booksim's router pipeline is not a documented "
    "latency.",
    "**DRAM.** Timing in DRAM command-clock cycles from the GPGPU-Sim GDDR5 string (both presets; Jatala's "
    "\"GDDR3\" label is a misnomer for the same numbers). tWTR follows the JEDEC/DRAMSys meaning (end of write "
    "data to read command, here within a bank group) and tCDLR is GDDR5's name for the same turnaround across "
    "bank groups: both are 5, so a read follows a write command after tWL + burst_length / data_rate + 5 = 11 "
    "cycles, exactly GPGPU-Sim's derived write-to-read delay. Read-to-write bus turnaround tRTW = 2 (GPGPU-Sim: "
    "CL + BL/ratio + 2 - WL between the commands). tRTP = burst_length / data_rate "
    "= 2. Row size 4 KB per channel follows from the address mapping (6 column "
    "bits of 64-byte bursts). Open-page FR-FCFS with a 64-entry queue on gtx480 (4.x) and 16 entries on tesla_c2050 (3.x; item 13). Slices and channels "
    "interleave every 256 bytes (`dramid@8`); inside a channel consecutive 256-byte chunks change bank "
    "(`gpu.dram.bank_interleave_bytes`), approximating GPGPU-Sim's bit mapping.",
    "**Memory-side queue depths.** gtx480 (since 2026-11-22) takes GPGPU-Sim 4.x's calibrated "
    "`configs/tested-cfgs/SM2_GTX480`, the file its L1D and shared-memory latencies already came from (item 7): "
    "64 L1D MSHRs, 256 L2 MSHRs per slice, 64-entry interconnect->L2 and L2->interconnect queues "
    "(`-gpgpu_dram_partition_queues 64:64:64:64`) and a 64-entry DRAM scheduler queue. That file's comment says "
    "the buffers must cover the 100-cycle DRAM latency for full DRAM utilisation; with GPGPU-Sim 3.x's depths "
    "(32, 32, 8, 8 and 16), which gtx480 had before, a streaming kernel reached 59 % of the DRAM peak "
    "(docs/validation.md). tesla_c2050 keeps the 3.x TeslaC2050 depths: it reproduces the seeds' baseline "
    "(seed note 000 §3.1 lists its 16-entry FR-FCFS queue). Either set is a `-p` away (`gpu.l1d.mshrs`, "
    "`gpu.l2.mshrs`, `gpu.l2.request_queue_entries`, `gpu.l2.response_queue_entries`, `gpu.dram.queue_size`). "
    "A cache's hit latency (`hit_latency`; 120 cycles for the L2, GPGPU-Sim's "
    "ROP delay queue) is a pipeline in front of its response queue, as in GPGPU-Sim, where the ROP queue has no "
    "bound: an 8-entry response queue holding responses for their whole 120-cycle latency would cap a slice at 8 "
    "hits per 120 cycles (until 2026-11-22 simtlm did that; memory-bound workloads ran 30-65 % more cycles).",
    "**Two-level scheduler defaults** are Narasiman's original (fetch group 8, round-robin inside and across "
    "groups). Rogers' best two-level configuration is active_set_size 2 with gto/gto; set it per study.",
    "**Simulation controls.** `sim.watchdog_cycles` = 1,000,000 core cycles without a retired instruction ends the "
    "run with a deadlock error; `sim.seed` = 1. `sim.printf_buffer_bytes` = 1 MB, CUDA's default printf FIFO "
    "(cudaLimitPrintfFifoSize); it counts the formatted text, and a launch that prints more keeps the calls that "
    "fit in the output order (CTA, thread, program order) and drops the rest, so the kept output does not depend "
    "on the backend or the warp size.",
    "**Mechanism keys** (register/scratchpad sharing, OWF, SWL, CCWS, GREENER, FineReg) default to the baseline; "
    "FineReg's keys (`gpu.sm.regfile.finereg.*`) are rejected at non-default values unless "
    "`gpu.sm.regfile.alloc_policy` = finereg (the resident limits and `check` also with its comparisons vt and "
    "regdram), `gpu.sm.regfile.vt.*` unless it is finereg, vt or regdram, `gpu.sm.regfile.regdram.*` unless it is "
    "regdram (docs/finereg.md). Keys of "
    "mechanisms not listed here (SPU communication buffers, VWS gangs) are added to the schema by the "
    "engineer who implements them, in their module's fragment (`models/<module>/*_config_keys.cpp`) with a source, "
    "and with a value in every `configs/*.json` preset.",
    "**gtx285_ccws** (Rogers' CCWS/DAWS machine, thesis Table 3.1, GPGPU-Sim 3.1.0; seed note 002 §2.1). From "
    "the table: 30 SMs, 1024 threads, 16384 registers, 16 KB shared memory, 32 KB 8-way L1D with 128 B lines (32 "
    "sets, LRU), 8 channels with a 128 KB 8-way L2 each (one slice per channel, 128 sets), FR-FCFS with a 32-entry "
    "queue, GDDR3 tCL 10, tRP 10, tRC 35, tRAS 25, tRCD 12, tRRD 8, one warp scheduler. Clocks: the table's 1300 MHz "
    "is the shader clock of an 8-wide SIMD pipeline, which needs 4 shader cycles per 32-thread warp instruction; "
    "GPGPU-Sim 3.x models this as a 325 MHz core clock issuing one warp instruction per cycle (its GT200 "
    "configuration), so `gpu.clocks.core_mhz` = 325 with one SP pipeline, and noc/L2 650, DRAM 800 MHz. Not in "
    "the table, chosen from GPGPU-Sim 3.x defaults: 32 L1D MSHRs and 32 L2 MSHRs, 8-entry L2 queues, non-sectored "
    "lines (sector = line, as in 3.1.0), linear set indexing, GDDR3 as double data rate with burst length 4 on a "
    "2 x 32-bit channel (8 bytes per transfer, the table's 8 B/cycle channel), 16 banks without bank groups (one group: tCCDL = tCCD = 2, tRTPL 0), tWL 7, "
    "tWR 11, tCDLR = tWTR 6 (GPGPU-Sim's GT200 timing string as we recall it; only the six table values are "
    "exact). Kept from gtx480 for lack of a source: latencies of the L1D (35 core cycles), shared memory, "
    "L2 (120 L2 cycles) and DRAM pipeline (100 L2 cycles), the interconnect, the execution units and "
    "the per-opcode timings (in 325 MHz core cycles). The instruction- and constant-cache miss latencies are "
    "the L2 hit plus the interconnect both ways in core cycles: 120/2 + 4 = 64. The texture cache of the table "
    "is not modelled (texture loads are global loads). Power is off (`gpu.power.enabled` = false): the energy "
    "constants are Fermi's and no GT200 calibration exists.",
    "**gtx980_finereg** (the GTX 980-like machine of Oh et al.'s FineReg study, MICRO 2018, Table I; seed note "
    "004 §3). From the table: 16 SMs at 1126 MHz, 2048 threads, 32 CTAs, 4 GTO schedulers, 65536 registers "
    "(256 KB), 96 KB shared memory (separate from the L1D, as on Maxwell: `unified_l1_smem_bytes` 0), a 48 KB "
    "L1D, a 2 MB 8-way L2 and 352.5 GB/s of DRAM "
    "bandwidth. Not in the table, chosen by us (assumptions): the L1D as 64 sets of 6 ways of 128 B lines (the table's 48 KB; "
    "8 ways would need 48 sets and the model indexes a power-of-two number of sets), 4 channels (GM204's four 64-bit controllers) with "
    "2 sub-partitions, so 8 slices of 256 sets; the bandwidth needs 4 x 8 B x 4 transfers x 2753.90625 MHz "
    "(the paper's figure is above a retail GTX 980's 224 GB/s; the note says to use the paper's), and the "
    "GDDR5 timings of gtx480 scaled by 3 to keep their length in nanoseconds at that clock; noc and L2 clocks "
    "equal to the core clock; a register allocation unit of 8 registers per thread (Maxwell allocates 256 per "
    "warp); 4 SP pipelines and 4 SFU pipelines of interval 4 (one per scheduler partition of a Maxwell SM, "
    "32 cores and 8 SFUs each); 63 registers per thread at most (FineReg's 6-bit register index). Kept from "
    "gtx480 for lack of a source: register banks and collector units, L1D/L2 latencies, MSHRs and queues, the "
    "interconnect, DRAM queue and banks, per-opcode timings. Power is off: the energy constants are Fermi's "
    "and no Maxwell calibration exists.",
};

}  // namespace

namespace {

// The built-in presets other than the defaults' own (gtx480), loaded.
std::vector<std::pair<std::string, Config>> other_presets() {
  std::vector<std::pair<std::string, Config>> out;
  for (const std::string& name : config_preset_names()) {
    if (name != "gtx480") out.emplace_back(name, Config::preset(name));
  }
  return out;
}

}  // namespace

std::string Config::describe() {
  std::ostringstream out;
  const auto& schema = config_schema();
  const auto presets = other_presets();
  out << "simtlm configuration keys (" << schema.size() << "); defaults are the gtx480 preset.\n"
      << "Set them in a JSON file ({\"gpu\": {\"l1d\": {\"sets\": 32}}}) or with -p key=value.\n";
  std::string section;
  for (const ConfigKey& k : schema) {
    const std::string s = section_of(k.path);
    if (s != section) {
      section = s;
      out << "\n[" << section << "]\n";
    }
    out << "  " << k.path << "  (" << to_string(k.type) << ") default " << shown(k.default_value);
    if (!k.unit.empty()) out << " " << k.unit;
    out << "  " << range_or_values(k);
    if (!k.planned.empty()) out << "  (not built yet: " << join(k.planned, ", ") << ")";
    for (const auto& [name, cfg] : presets) {
      const ConfigValue& v = cfg.value(k.path);
      if (v != k.default_value) out << "  " << name << ": " << shown(v);
    }
    out << "\n      " << k.description << "\n";
  }
  return out.str();
}

std::string Config::reference_markdown() {
  std::ostringstream out;
  const auto& schema = config_schema();
  std::vector<std::pair<std::string, Config>> presets;
  for (const std::string& name : config_preset_names()) presets.emplace_back(name, Config::preset(name));
  out << "# Configuration reference\n\n"
      << "<!-- Generated by scripts/gen_config_reference.sh (Config::reference_markdown) from the keys the "
         "module folders declare (models/*/*_config_keys.cpp) and the presets configs/*.json. Do not edit by "
         "hand. -->\n\n"
      << "Every key of the model, with its type, built-in default, unit, valid range, meaning, its value in each "
         "shipped preset (`configs/<preset>.json`) and where the values come from. "
      << schema.size() << " keys.\n\n"
      << "## Using it\n\n"
      << "- Defaults (no file) are the **gtx480** preset.\n"
      << "- A JSON file applies on top of the defaults, nested (`{\"gpu\": {\"l1d\": {\"sets\": 32}}}`) or with "
         "dotted member names (`{\"gpu.l1d.sets\": 32}`); members starting with `$` (`\"$comment\"`) are ignored. "
         "Several files apply in order.\n"
      << "- `-p key=value` overrides apply last, in order; the value is parsed per the key's type (uint: decimal or "
         "0x hex; bool: true/false/1/0/yes/no/on/off; enum: one of the listed values).\n"
      << "- Every JSON input (configuration files, launch specs, sweep specs) is read one way "
         "(`models/common/json_input.h`): malformed JSON, nesting deeper than 64 levels, a member name over 256 bytes, "
         "a member given twice in one object and a number beyond a double's range are errors naming file:line:column; "
         "one key given twice in one file (nested and dotted, `{\"gpu\": {\"num_sms\": 4}, \"gpu.num_sms\": 8}`) is an "
         "error naming both spellings, while a later file or `-p` still overrides an earlier one.\n"
      << "- Errors name the file (with line:column for malformed JSON) or the `-p` argument and the key: unknown key "
         "(with the nearest valid key), wrong type, out-of-range value, value not in an enum (with the allowed "
         "values), and the cross-key rules below. The effective configuration (`Config::effective_json`) is written "
         "beside every result and loads back unchanged.\n"
      << "- `simtlm config describe` prints the same table as text; this file is regenerated by "
         "`scripts/gen_config_reference.sh`.\n\n"
      << "## Presets\n\n"
      << "| Preset | File | Modelled GPU |\n|---|---|---|\n";
  for (const auto& [name, cfg] : presets) {
    const auto file = nlohmann::json::parse(preset_json(name));
    const std::string what = file.value("$description", cfg.str("gpu.name"));
    out << "| " << name << " | `configs/" << name << ".json` | " << cell(what) << " |\n";
  }
  out << "\n## Keys\n";
  std::string section;
  for (const ConfigKey& k : schema) {
    const std::string s = section_of(k.path);
    if (s != section) {
      section = s;
      out << "\n### " << section << "\n\n"
          << "| Key | Type | Default | Unit | Range |";
      for (const auto& [name, cfg] : presets) out << " " << name << " |";
      out << " Description | Source |\n|---|---|---|---|---|";
      for (std::size_t i = 0; i < presets.size(); ++i) out << "---|";
      out << "---|---|\n";
    }
    std::string range = range_or_values(k);
    if (!k.planned.empty()) range += " (not built yet: " + join(k.planned, ", ") + ")";
    out << "| `" << k.path << "` | " << to_string(k.type) << " | " << cell(shown(k.default_value)) << " | "
        << cell(k.unit) << " | " << cell(range) << " |";
    for (const auto& [name, cfg] : presets) out << " " << cell(shown(cfg.value(k.path))) << " |";
    out << " " << cell(k.description) << " | " << cell(k.source) << " |\n";
  }
  out << "\n## Cross-key rules (Config::validate)\n\n";
  for (const char* rule : kValidationRules) out << "- " << rule << "\n";
  out << "\n## Decisions\n\nWhere the sources disagree or are silent:\n\n";
  int n = 1;
  for (const char* d : kDecisions) out << n++ << ". " << d << "\n";
  return out.str();
}

}  // namespace simtlm
