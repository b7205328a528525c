// Presets: the built-in defaults and both shipped presets, checked against the
// numbers of the issue text and the seed notes (an independent source from the
// schema table), and the configs/*.json files (the presets' source, embedded at
// build time) against the schema and the built-in presets.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "simtlm/config.h"

namespace {

using simtlm::Config;

std::string preset_path(const std::string& name) {
  return std::string(SIMTLM_SOURCE_DIR) + "/configs/" + name + ".json";
}

// Numbers common to both Fermi presets (GPGPU-Sim 3.x GTX480 / TeslaC2050,
// Jatala Table 2.3, seed notes 000 §3.1 and 003 §2.2).
void expect_fermi_common(const Config& c) {
  EXPECT_EQ(c.u64("gpu.sm.warp_size"), 32u);
  EXPECT_EQ(c.u64("gpu.sm.max_threads"), 1536u);
  EXPECT_EQ(c.u64("gpu.sm.max_threads") / c.u64("gpu.sm.warp_size"), 48u);
  EXPECT_EQ(c.u64("gpu.sm.max_ctas"), 8u);
  EXPECT_EQ(c.u64("gpu.sm.registers"), 32768u);
  EXPECT_EQ(c.u64("gpu.sm.shared_memory_bytes"), 48u * 1024);
  EXPECT_EQ(c.u64("gpu.sm.schedulers"), 2u);
  EXPECT_EQ(c.u64("gpu.sm.regfile.banks"), 16u);
  EXPECT_EQ(c.u64("gpu.sm.regfile.collector_units"), 6u);
  EXPECT_EQ(c.u64("gpu.sm.regfile.collector_units_sfu"), 8u);
  EXPECT_EQ(c.u64("gpu.sm.smem.banks"), 32u);
  // L1D 32 sets x 4 ways x 128 B = 16 KB.
  EXPECT_TRUE(c.boolean("gpu.l1d.enabled"));
  EXPECT_EQ(c.u64("gpu.l1d.sets"), 32u);
  EXPECT_EQ(c.u64("gpu.l1d.ways"), 4u);
  EXPECT_EQ(c.u64("gpu.l1d.line_bytes"), 128u);
  EXPECT_EQ(c.u64("gpu.l1d.sector_bytes"), 32u);
  EXPECT_EQ(c.u64("gpu.l1d.sets") * c.u64("gpu.l1d.ways") * c.u64("gpu.l1d.line_bytes"), 16u * 1024);
  EXPECT_EQ(c.str("gpu.l1d.write_policy"), "write_evict");
  // 6 channels x 2 sub-partitions, 64 sets x 8 ways x 128 B = 64 KB each, 768 KB total.
  EXPECT_EQ(c.u64("gpu.dram.channels"), 6u);
  EXPECT_EQ(c.u64("gpu.l2.sub_partitions_per_channel"), 2u);
  EXPECT_EQ(c.u64("gpu.l2.sets"), 64u);
  EXPECT_EQ(c.u64("gpu.l2.ways"), 8u);
  EXPECT_EQ(c.u64("gpu.l2.line_bytes"), 128u);
  EXPECT_EQ(c.u64("gpu.l2.sector_bytes"), 32u);
  const std::uint64_t slice = c.u64("gpu.l2.sets") * c.u64("gpu.l2.ways") * c.u64("gpu.l2.line_bytes");
  EXPECT_EQ(slice, 64u * 1024);
  EXPECT_EQ(slice * c.u64("gpu.dram.channels") * c.u64("gpu.l2.sub_partitions_per_channel"), 768u * 1024);
  // GDDR5: nbk=16 tCCD=2 tRRD=6 tRCD=12 tRAS=28 tRP=12 tRC=40 tCL=12 tWL=4 tCDLR=5 tWR=12, 4 bank groups,
  // tCCDL=3 tRTPL=2, 4-byte bus x 2 chips, burst 8, QDR.
  EXPECT_EQ(c.u64("gpu.dram.banks"), 16u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tCCD"), 2u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRRD"), 6u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRCD"), 12u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRAS"), 28u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRP"), 12u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRC"), 40u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tCL"), 12u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tWL"), 4u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tCDLR"), 5u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tWR"), 12u);
  EXPECT_EQ(c.u64("gpu.dram.bank_groups"), 4u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tCCDL"), 3u);
  EXPECT_EQ(c.u64("gpu.dram.timing.tRTPL"), 2u);
  EXPECT_EQ(c.u64("gpu.dram.bus_width_bytes"), 4u);
  EXPECT_EQ(c.u64("gpu.dram.chips_per_channel"), 2u);
  EXPECT_EQ(c.u64("gpu.dram.burst_length"), 8u);
  EXPECT_EQ(c.u64("gpu.dram.data_rate"), 4u);
  EXPECT_EQ(c.u64("gpu.l1d.mshr_merge"), 8u);
  EXPECT_EQ(c.u64("gpu.l1d.miss_queue_entries"), 8u);
  EXPECT_EQ(c.u64("gpu.l2.mshr_merge"), 4u);
  EXPECT_EQ(c.u64("gpu.l2.miss_queue_entries"), 4u);
  EXPECT_EQ(c.str("gpu.dram.scheduler"), "frfcfs");
  // int / fp latencies ADD,MAX,MUL,MAD,DIV.
  const char* ops[] = {"add", "max", "mul", "mad", "div"};
  const std::uint64_t int_lat[] = {4, 13, 4, 5, 145};
  const std::uint64_t fp_lat[] = {4, 13, 4, 5, 39};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(c.u64(std::string("gpu.sm.op.int.") + ops[i] + ".latency"), int_lat[i]) << ops[i];
    EXPECT_EQ(c.u64(std::string("gpu.sm.op.fp.") + ops[i] + ".latency"), fp_lat[i]) << ops[i];
  }
  // rop latency 120 and dram latency 100 as fixed pipeline latencies.
  EXPECT_EQ(c.u64("gpu.l2.hit_latency"), 120u);
  EXPECT_EQ(c.u64("gpu.dram.fixed_latency"), 100u);
  c.validate();
}

// Memory-side queue depths (L1D MSHRs, L2 MSHRs, icnt->L2 and L2->icnt
// queues, DRAM scheduler queue).
void expect_queue_depths(const Config& c, uint64_t l1d_mshrs, uint64_t l2_mshrs, uint64_t partition_queue,
                         uint64_t dram_queue) {
  EXPECT_EQ(c.u64("gpu.l1d.mshrs"), l1d_mshrs);
  EXPECT_EQ(c.u64("gpu.l2.mshrs"), l2_mshrs);
  EXPECT_EQ(c.u64("gpu.l2.request_queue_entries"), partition_queue);
  EXPECT_EQ(c.u64("gpu.l2.response_queue_entries"), partition_queue);
  EXPECT_EQ(c.u64("gpu.dram.queue_size"), dram_queue);
}

TEST(ConfigPresets, DefaultsAreGtx480) {
  const Config c;
  expect_fermi_common(c);
  // GPGPU-Sim 4.x configs/tested-cfgs/SM2_GTX480: dl1 S:64:8, dl2 A:256:4,
  // -gpgpu_dram_partition_queues 64:64:64:64, -gpgpu_frfcfs_dram_sched_queue_size 64.
  expect_queue_depths(c, 64, 256, 64, 64);
  EXPECT_EQ(c.u64("gpu.num_sms"), 15u);
  EXPECT_EQ(c.str("gpu.sm.scheduler.policy"), "gto");
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.core_mhz"), 700.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.noc_mhz"), 700.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.l2_mhz"), 700.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.dram_mhz"), 924.0);
  EXPECT_EQ(c.origin("gpu.num_sms"), "default");
  EXPECT_TRUE(c == Config::preset("gtx480"));
}

TEST(ConfigPresets, TeslaC2050MatchesJatalaTable23) {
  const Config c = Config::preset("tesla_c2050");
  expect_fermi_common(c);
  // GPGPU-Sim 3.x TeslaC2050: dl1 A:32:8, dl2 A:32:4, default partition queues
  // 8:8:8:8, FR-FCFS queue 16 (seed note 000 §3.1).
  expect_queue_depths(c, 32, 32, 8, 16);
  EXPECT_EQ(c.u64("gpu.num_sms"), 14u);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.core_mhz"), 575.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.noc_mhz"), 575.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.l2_mhz"), 575.0);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.dram_mhz"), 750.0);
  EXPECT_EQ(c.str("gpu.sm.scheduler.policy"), "lrr");  // Jatala's baseline Unshared-LRR
  EXPECT_DOUBLE_EQ(c.f64("gpu.sm.regfile.sharing_threshold"), 0.1);
  EXPECT_EQ(c.str("gpu.name"), "Tesla C2050");
}

TEST(ConfigPresets, PresetFilesMatchBuiltInPresets) {
  for (const std::string& name : simtlm::config_preset_names()) {
    Config from_file;
    from_file.load_file(preset_path(name));
    from_file.validate();
    EXPECT_TRUE(from_file == Config::preset(name))
        << name << ": the embedded preset differs from configs/" << name << ".json (rebuild)";
    EXPECT_EQ(from_file.origin("gpu.num_sms"), preset_path(name));
  }
}

TEST(ConfigPresets, Gtx480FileLoadsOnTopOfC2050) {
  Config c = Config::preset("tesla_c2050");
  c.load_file(preset_path("gtx480"));
  EXPECT_TRUE(c == Config());
}

TEST(ConfigPresets, UnknownPresetNameSuggests) {
  try {
    Config::preset("gtx48");
    FAIL() << "no error";
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("'gtx48'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'gtx480'"), std::string::npos) << e.what();
  }
}

// Each preset file names every key of the schema and nothing else, so that a
// new key's value is chosen for every preset (not inherited silently).
TEST(ConfigPresets, PresetFilesNameEveryKey) {
  std::set<std::string> schema;
  for (const simtlm::ConfigKey& k : simtlm::config_schema()) schema.insert(k.path);
  for (const std::string& name : simtlm::config_preset_names()) {
    std::set<std::string> named;
    const nlohmann::json flat = nlohmann::json::parse(Config::preset_json(name)).flatten();
    for (const auto& item : flat.items()) {
      std::string key = item.key().substr(1);
      if (key.empty() || key[0] == '$') continue;
      std::replace(key.begin(), key.end(), '/', '.');
      named.insert(key);
    }
    for (const std::string& k : schema) EXPECT_EQ(named.count(k), 1u) << "configs/" << name << ".json lacks " << k;
    for (const std::string& k : named) EXPECT_EQ(schema.count(k), 1u) << "configs/" << name << ".json: unknown " << k;
  }
}

TEST(ConfigPresets, SomePresetDiffersFromTheDefaults) {
  // The non-default preset is read from its file: the C2050 has 14 SMs where
  // the built-in (gtx480) default is 15.
  EXPECT_EQ(Config::preset("tesla_c2050").u64("gpu.num_sms"), 14u);
  EXPECT_EQ(Config().u64("gpu.num_sms"), 15u);
  EXPECT_EQ(Config::preset("tesla_c2050").origin("gpu.num_sms"), "preset tesla_c2050");
}

TEST(ConfigPresets, EveryKeyHasSourceUnitRangeAndBothPresetValuesOfItsType) {
  for (const simtlm::ConfigKey& k : simtlm::config_schema()) {
    EXPECT_FALSE(k.description.empty()) << k.path;
    EXPECT_FALSE(k.source.empty()) << k.path;
    for (const std::string& name : simtlm::config_preset_names()) {
      EXPECT_EQ(k.default_value.index(), Config::preset(name).value(k.path).index()) << name << " " << k.path;
    }
    if (k.type == simtlm::ConfigType::Enum) {
      EXPECT_FALSE(k.allowed.empty()) << k.path;
    }
    if (k.type == simtlm::ConfigType::UInt || k.type == simtlm::ConfigType::Int ||
        k.type == simtlm::ConfigType::Double) {
      EXPECT_EQ(k.min.index(), k.default_value.index()) << k.path;
      EXPECT_EQ(k.max.index(), k.default_value.index()) << k.path;
    }
  }
  // Both presets pass their own range and cross-key checks.
  for (const std::string& name : simtlm::config_preset_names()) {
    Config c;
    c.load_string(Config::preset_json(name), name);
    EXPECT_NO_THROW(c.validate()) << name;
  }
}

TEST(ConfigPresets, SchemaCoversTheRequiredKeys) {
  const char* required[] = {
      "gpu.num_sms", "gpu.sm.warp_size", "gpu.sm.max_threads", "gpu.sm.max_ctas", "gpu.sm.registers",
      "gpu.sm.register_alloc_granularity", "gpu.sm.shared_memory_bytes", "gpu.sm.schedulers",
      "gpu.sm.scheduler.policy", "gpu.sm.scheduler.two_level.active_set_size", "gpu.sm.regfile.banks",
      "gpu.sm.regfile.collector_units", "gpu.sm.smem.banks", "gpu.sm.smem.latency", "gpu.sm.icache.sets",
      "gpu.sm.ibuffer_entries", "gpu.sm.exec.sp.count", "gpu.sm.exec.sfu.latency", "gpu.sm.exec.dp.initiation_interval",
      "gpu.sm.exec.int.count", "gpu.sm.exec.ldst.count", "gpu.l1d.enabled", "gpu.l1d.sets", "gpu.l1d.ways",
      "gpu.l1d.line_bytes", "gpu.l1d.sector_bytes", "gpu.l1d.mshrs", "gpu.l1d.mshr_merge", "gpu.l1d.hit_latency",
      "gpu.l1d.write_policy", "gpu.l1d.allocate_on", "gpu.const_cache.sets", "gpu.noc.topology", "gpu.noc.latency",
      "gpu.noc.flit_bytes", "gpu.noc.port_bandwidth_flits", "gpu.noc.buffer_flits",
      "gpu.l2.sub_partitions_per_channel", "gpu.l2.sets", "gpu.l2.ways", "gpu.l2.line_bytes", "gpu.l2.sector_bytes",
      "gpu.l2.mshrs", "gpu.l2.hit_latency", "gpu.l2.slice_hash", "gpu.dram.channels", "gpu.dram.banks",
      "gpu.dram.bank_groups", "gpu.dram.bus_width_bytes", "gpu.dram.chips_per_channel", "gpu.dram.burst_length",
      "gpu.dram.data_rate", "gpu.dram.queue_size", "gpu.dram.scheduler", "gpu.dram.row_bytes",
      "gpu.dram.timing.tCL", "gpu.dram.timing.tWL", "gpu.dram.timing.tRCD", "gpu.dram.timing.tRP",
      "gpu.dram.timing.tRAS", "gpu.dram.timing.tRC", "gpu.dram.timing.tRRD", "gpu.dram.timing.tCCD",
      "gpu.dram.timing.tCCDL", "gpu.dram.timing.tWR", "gpu.dram.timing.tWTR", "gpu.dram.timing.tCDLR",
      "gpu.dram.timing.tRTP", "gpu.dram.timing.tRTPL", "gpu.dram.timing.tRTW", "gpu.dram.bank_interleave_bytes", "gpu.clocks.core_mhz", "gpu.clocks.noc_mhz",
      "gpu.clocks.l2_mhz", "gpu.clocks.dram_mhz", "sim.watchdog_cycles", "sim.seed"};
  for (const char* key : required) EXPECT_NE(simtlm::find_config_key(key), nullptr) << key;
}

}  // namespace
