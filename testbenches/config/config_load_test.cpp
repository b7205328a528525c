// Loading JSON (nested and dotted), -p overrides of every type, origins,
// effective_json round trip and the typed accessors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "simtlm/config.h"

namespace {

using simtlm::Config;

TEST(ConfigLoad, NestedObjectsSetKeys) {
  Config c;
  c.load_string(R"({"gpu": {"l1d": {"sets": 64, "ways": 6}, "sm": {"scheduler": {"policy": "lrr"}}}})", "study.json");
  EXPECT_EQ(c.u64("gpu.l1d.sets"), 64u);
  EXPECT_EQ(c.u64("gpu.l1d.ways"), 6u);
  EXPECT_EQ(c.str("gpu.sm.scheduler.policy"), "lrr");
  EXPECT_EQ(c.origin("gpu.l1d.sets"), "study.json");
  EXPECT_EQ(c.origin("gpu.l1d.line_bytes"), "default");
}

TEST(ConfigLoad, DottedMemberNamesAndCommentsAreAccepted) {
  Config c;
  c.load_string(R"({"$comment": "48 KB L1, 16 KB shared", "gpu.l1d.sets": 64, "gpu": {"l1d.ways": 6,
                    "$comment": "nested comments too"}, "gpu.sm.shared_memory_bytes": 16384})",
                "alt.json");
  EXPECT_EQ(c.u64("gpu.l1d.sets"), 64u);
  EXPECT_EQ(c.u64("gpu.l1d.ways"), 6u);
  EXPECT_EQ(c.u64("gpu.sm.shared_memory_bytes"), 16384u);
  EXPECT_NO_THROW(c.validate());  // 16 KB shared + 48 KB L1 = the 64 KB unified array
}

TEST(ConfigLoad, FilesApplyInOrder) {
  const std::string a = testing::TempDir() + "/simtlm_cfg_a.json";
  const std::string b = testing::TempDir() + "/simtlm_cfg_b.json";
  std::ofstream(a) << R"({"gpu": {"num_sms": 4, "l1d": {"sets": 16}}})";
  std::ofstream(b) << R"({"gpu": {"num_sms": 8}})";
  const Config c = simtlm::load_config({a, b}, {"gpu.l1d.ways=2"});
  EXPECT_EQ(c.u64("gpu.num_sms"), 8u);
  EXPECT_EQ(c.origin("gpu.num_sms"), b);
  EXPECT_EQ(c.u64("gpu.l1d.sets"), 16u);
  EXPECT_EQ(c.origin("gpu.l1d.sets"), a);
  EXPECT_EQ(c.u64("gpu.l1d.ways"), 2u);
  EXPECT_EQ(c.origin("gpu.l1d.ways"), "-p");
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(ConfigOverride, UnsignedDecimalAndHex) {
  Config c;
  c.apply_override("gpu.num_sms=30");
  EXPECT_EQ(c.u64("gpu.num_sms"), 30u);
  c.apply_override("gpu.l1d.sets = 0x40");
  EXPECT_EQ(c.u32("gpu.l1d.sets"), 64u);
  c.apply_override("sim.seed=18446744073709551615");
  EXPECT_EQ(c.u64("sim.seed"), 18446744073709551615ull);
}

TEST(ConfigOverride, SignedInteger) {
  Config c;
  c.apply_override("sim.trace.sm=3");
  EXPECT_EQ(c.i64("sim.trace.sm"), 3);
  c.apply_override("sim.trace.sm=-1");
  EXPECT_EQ(c.i64("sim.trace.sm"), -1);
}

TEST(ConfigOverride, Double) {
  Config c;
  c.apply_override("gpu.clocks.core_mhz=1400.5");
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.core_mhz"), 1400.5);
  c.apply_override("gpu.sm.regfile.sharing_threshold=0.5");
  EXPECT_DOUBLE_EQ(c.f64("gpu.sm.regfile.sharing_threshold"), 0.5);
  c.apply_override("gpu.clocks.dram_mhz=1e3");
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.dram_mhz"), 1000.0);
}

TEST(ConfigOverride, BooleanSpellings) {
  Config c;
  const std::pair<const char*, bool> cases[] = {{"false", false}, {"true", true}, {"0", false}, {"1", true},
                                                {"no", false},    {"yes", true},  {"OFF", false}, {"On", true}};
  for (const auto& [text, expected] : cases) {
    c.apply_override(std::string("gpu.l1d.enabled=") + text);
    EXPECT_EQ(c.boolean("gpu.l1d.enabled"), expected) << text;
  }
}

TEST(ConfigOverride, StringAndEnum) {
  Config c;
  c.apply_override("gpu.name=My GPU");
  EXPECT_EQ(c.str("gpu.name"), "My GPU");
  c.apply_override("sim.trace.vcd_file=\"out/occupancy.vcd\"");
  EXPECT_EQ(c.str("sim.trace.vcd_file"), "out/occupancy.vcd");
  c.apply_override("gpu.sm.scheduler.policy=two_level");
  EXPECT_EQ(c.str("gpu.sm.scheduler.policy"), "two_level");
  c.apply_override("gpu.l2.slice_hash=xor");
  EXPECT_EQ(c.str("gpu.l2.slice_hash"), "xor");
  c.apply_override("gpu.name=");  // empty string is a valid string value
  EXPECT_EQ(c.str("gpu.name"), "");
}

TEST(ConfigOverride, LaterOverrideWinsAndSetNamesOrigin) {
  Config c;
  c.apply_override("gpu.num_sms=4");
  c.apply_override("gpu.num_sms=5");
  EXPECT_EQ(c.u64("gpu.num_sms"), 5u);
  c.set("gpu.num_sms", "6", "sweep.csv:3");
  EXPECT_EQ(c.u64("gpu.num_sms"), 6u);
  EXPECT_EQ(c.origin("gpu.num_sms"), "sweep.csv:3");
}

TEST(ConfigEffective, RoundTripReproducesTheConfig) {
  Config c = Config::preset("tesla_c2050");
  c.apply_override("gpu.l1d.sets=64");
  c.apply_override("gpu.l1d.ways=6");
  c.apply_override("gpu.sm.shared_memory_bytes=16384");
  c.apply_override("gpu.clocks.core_mhz=612.75");
  c.apply_override("gpu.sm.regfile.sharing_threshold=0.3");
  c.apply_override("sim.trace.sm=-1");
  c.apply_override("gpu.l1d.enabled=false");
  c.apply_override("gpu.name=round trip");
  const std::string text = c.effective_json();
  Config back;
  back.load_string(text, "effective.json");
  EXPECT_TRUE(back == c);
  EXPECT_EQ(back.effective_json(), text);
  EXPECT_DOUBLE_EQ(back.f64("gpu.sm.regfile.sharing_threshold"), 0.3);
}

TEST(ConfigEffective, ListsEveryKeyNestedInTableOrder) {
  const Config c;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(c.effective_json());
  std::size_t leaves = 0;
  for (const simtlm::ConfigKey& k : simtlm::config_schema()) {
    const nlohmann::ordered_json::json_pointer ptr("/" + [&] {
      std::string p = k.path;
      for (char& ch : p) {
        if (ch == '.') ch = '/';
      }
      return p;
    }());
    ASSERT_TRUE(j.contains(ptr)) << k.path;
    EXPECT_FALSE(j.at(ptr).is_object()) << k.path;
    ++leaves;
  }
  EXPECT_EQ(leaves, simtlm::config_schema().size());
  EXPECT_EQ(j.begin().key(), "sim");  // table order, not alphabetical
  EXPECT_EQ(j["gpu"]["l1d"]["sets"].get<unsigned>(), 32u);
  EXPECT_TRUE(j["gpu"]["clocks"]["core_mhz"].is_number_float());
}

TEST(ConfigEffective, SummaryListsChangedKeysWithOrigin) {
  Config c;
  EXPECT_NE(c.summary().find("(none)"), std::string::npos);
  c.apply_override("gpu.l1d.sets=64");
  const std::string s = c.summary();
  EXPECT_NE(s.find("gpu.l1d.sets"), std::string::npos) << s;
  EXPECT_NE(s.find("64"), std::string::npos) << s;
  EXPECT_NE(s.find("(-p)"), std::string::npos) << s;
  EXPECT_EQ(s.find("gpu.l1d.ways"), std::string::npos) << s;
}

TEST(ConfigAccessors, TypedAccessorsMatchTypes) {
  const Config c;
  EXPECT_EQ(c.u32("gpu.sm.warp_size"), 32u);
  EXPECT_EQ(c.i64("sim.trace.sm"), -1);
  EXPECT_DOUBLE_EQ(c.f64("gpu.clocks.core_mhz"), 700.0);
  EXPECT_TRUE(c.boolean("gpu.l2.enabled"));
  EXPECT_EQ(c.str("gpu.l1d.write_policy"), "write_evict");  // enum read as string
  EXPECT_EQ(c.str("gpu.name"), "GTX480");
  EXPECT_EQ(std::get<std::uint64_t>(c.value("gpu.num_sms")), 15u);
}

TEST(ConfigAccessors, UnknownKeyOrWrongTypeIsAnInternalError) {
  const Config c;
  try {
    c.u64("gpu.l1d.set");
    FAIL() << "no error";
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("did you mean 'gpu.l1d.sets'"), std::string::npos) << e.what();
  }
  try {
    c.f64("gpu.l1d.sets");
    FAIL() << "no error";
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("uint"), std::string::npos) << e.what();
  }
}

TEST(ConfigAccessors, U32RejectsValuesThatDoNotFit) {
  Config c;
  c.apply_override("sim.seed=4294967296");
  try {
    c.u32("sim.seed");
    FAIL() << "no error";
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("sim.seed"), std::string::npos) << e.what();
  }
}

}  // namespace
