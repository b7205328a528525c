// Every validation error: one Error(Config) whose message names the origin
// (file or -p argument) and the key, with the specifics checked.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "simtlm/config.h"

namespace {

using simtlm::Config;

// Runs `f`, expects one simtlm::Error of `kind`, and returns its message.
std::string error_of(const std::function<void()>& f, simtlm::ErrorKind kind = simtlm::ErrorKind::Config) {
  try {
    f();
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no simtlm::Error thrown";
  return std::string();
}

void expect_contains(const std::string& message, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(message.find(p), std::string::npos) << "missing '" << p << "' in: " << message;
}

std::string load(const std::string& json, const std::string& origin = "study.json") {
  return error_of([&] {
    Config c;
    c.load_string(json, origin);
  });
}

std::string override_error(const std::string& assignment) {
  return error_of([&] {
    Config c;
    c.apply_override(assignment);
  });
}

std::string validate_error(const std::vector<std::string>& overrides) {
  return error_of([&] {
    Config c;
    for (const std::string& o : overrides) c.apply_override(o);
    c.validate();
  });
}

// The sync-wait reformation values are built (they were planned values,
// rejected as not built); a value outside the list is an error naming the
// key and the values there are.
TEST(ConfigErrors, VwsReformValuesIncludeTheSyncVariants) {
  for (const char* value : {"gpu.vws.reform=sync10", "gpu.vws.reform=sync50", "gpu.vws.reform=sync100"}) {
    Config c;
    EXPECT_NO_THROW(c.apply_override(value)) << value;
  }
  Config c;
  try {
    c.apply_override("gpu.vws.reform=sync20");
    FAIL() << "sync20 accepted";
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Config);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("gpu.vws.reform"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sync100"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("not built yet"), std::string::npos) << msg;
  }
}

TEST(ConfigErrors, UnknownKeyInFileSuggestsNearestKey) {
  const std::string m = load(R"({"gpu": {"l1d": {"sest": 32}}})");
  expect_contains(m, {"study.json: ", "key 'gpu.l1d.sest' is unknown", "did you mean 'gpu.l1d.sets'?"});
}

TEST(ConfigErrors, UnknownKeyInOverrideSuggestsNearestKey) {
  const std::string m = override_error("gpu.sm.warpsize=16");
  expect_contains(m, {"-p gpu.sm.warpsize=16: ", "key 'gpu.sm.warpsize' is unknown", "did you mean 'gpu.sm.warp_size'?"});
}

TEST(ConfigErrors, MisspeltGroupSuggestsKeyInsideIt) {
  const std::string m = load(R"({"gpu": {"l1": {"sets": 32}}})");
  expect_contains(m, {"key 'gpu.l1.sets' is unknown", "did you mean 'gpu.l1d.sets'?"});
}

TEST(ConfigErrors, MissingPrefixSuggestsFullKey) {
  const std::string m = override_error("l1d.sets=64");
  expect_contains(m, {"key 'l1d.sets' is unknown", "did you mean 'gpu.l1d.sets'?"});
}

TEST(ConfigErrors, FarFetchedKeyPointsToDescribe) {
  const std::string m = override_error("completely.unrelated.thing=1");
  expect_contains(m, {"key 'completely.unrelated.thing' is unknown", "simtlm config describe"});
  EXPECT_EQ(m.find("did you mean"), std::string::npos) << m;
}

TEST(ConfigErrors, WrongJsonTypeNamesExpectedAndActual) {
  expect_contains(load(R"({"gpu": {"num_sms": "15"}})"),
                  {"study.json: ", "key 'gpu.num_sms' expects an unsigned integer, got string \"15\""});
  expect_contains(load(R"({"gpu": {"l1d": {"sets": 32.5}}})"),
                  {"key 'gpu.l1d.sets' expects an unsigned integer, got number 32.5"});
  expect_contains(load(R"({"gpu": {"l1d": {"enabled": 1}}})"),
                  {"key 'gpu.l1d.enabled' expects a boolean (true/false), got number 1"});
  expect_contains(load(R"({"gpu": {"clocks": {"core_mhz": "fast"}}})"),
                  {"key 'gpu.clocks.core_mhz' expects a number, got string \"fast\""});
  expect_contains(load(R"({"gpu": {"sm": {"scheduler": {"policy": 2}}}})"),
                  {"key 'gpu.sm.scheduler.policy' expects a string (one of lrr, gto", "got number 2"});
  expect_contains(load(R"({"gpu": {"num_sms": {"x": 1}}})"), {"key 'gpu.num_sms' expects", "got an object"});
  expect_contains(load(R"({"gpu": {"num_sms": null}})"), {"key 'gpu.num_sms' expects", "got null"});
}

TEST(ConfigErrors, ScalarGivenForAGroup) {
  const std::string m = load(R"({"gpu": {"l1d": 16384}})");
  expect_contains(m, {"key 'gpu.l1d' is a group of keys", "gpu.l1d.enabled", "needs a JSON object", "number 16384"});
  const std::string p = override_error("gpu.l1d=4");
  expect_contains(p, {"-p gpu.l1d=4", "key 'gpu.l1d' is a group of keys"});
}

TEST(ConfigErrors, WrongTextTypeInOverride) {
  expect_contains(override_error("gpu.l1d.sets=lots"),
                  {"-p gpu.l1d.sets=lots: ", "key 'gpu.l1d.sets' expects an unsigned integer, got 'lots'"});
  expect_contains(override_error("gpu.l1d.sets=32k"), {"expects an unsigned integer, got '32k'"});
  expect_contains(override_error("gpu.l1d.enabled=maybe"),
                  {"key 'gpu.l1d.enabled' expects a boolean (true/false), got 'maybe'"});
  expect_contains(override_error("gpu.clocks.core_mhz=7OO"), {"key 'gpu.clocks.core_mhz' expects a number, got '7OO'"});
  expect_contains(override_error("gpu.clocks.core_mhz=nan"), {"expects a number, got 'nan'"});
  expect_contains(override_error("sim.trace.sm=two"), {"key 'sim.trace.sm' expects an integer, got 'two'"});
}

TEST(ConfigErrors, OutOfRangeNamesRangeAndUnit) {
  expect_contains(load(R"({"gpu": {"sm": {"warp_size": 128}}})"),
                  {"study.json: ", "key 'gpu.sm.warp_size' = 128 is out of range [1, 64] (threads)"});
  expect_contains(override_error("gpu.sm.warp_size=0"), {"-p gpu.sm.warp_size=0: ", "= 0 is out of range [1, 64]"});
  expect_contains(override_error("gpu.num_sms=-2"), {"key 'gpu.num_sms' = -2 is out of range [1, 1024]"});
  expect_contains(load(R"({"gpu": {"num_sms": -2}})"), {"key 'gpu.num_sms' = -2 is out of range [1, 1024]"});
  expect_contains(override_error("gpu.clocks.core_mhz=0"), {"key 'gpu.clocks.core_mhz' = 0.0 is out of range", "(MHz)"});
  expect_contains(override_error("gpu.sm.regfile.sharing_threshold=1.5"),
                  {"key 'gpu.sm.regfile.sharing_threshold' = 1.5 is out of range [0.01, 1.0]"});
  expect_contains(override_error("sim.trace.sm=-5"), {"key 'sim.trace.sm' = -5 is out of range [-1, 1023]"});
  expect_contains(override_error("sim.seed=99999999999999999999"), {"key 'sim.seed'", "out of range"});
}

TEST(ConfigErrors, BadEnumListsAllowedValues) {
  const std::string m = override_error("gpu.sm.scheduler.policy=gtoo");
  expect_contains(m, {"-p gpu.sm.scheduler.policy=gtoo: ", "key 'gpu.sm.scheduler.policy' = 'gtoo' is not an allowed value",
                      "allowed: lrr, gto, two_level", "did you mean 'gto'?"});
  const std::string j = load(R"({"gpu": {"l1d": {"write_policy": "write_back"}}})");
  expect_contains(j, {"study.json: ", "'write_back' is not an allowed value; allowed: write_evict, write_through"});
}

TEST(ConfigErrors, MalformedJsonGivesFileLineColumn) {
  const std::string m = load("{\n  \"gpu\": {\n    \"num_sms\": 15,\n  }\n}\n", "configs/broken.json");
  expect_contains(m, {"configs/broken.json:4:3: malformed JSON: ", "expected string literal"});
  EXPECT_EQ(m.find("[json.exception"), std::string::npos) << m;
  const std::string t = load("{\"gpu\": tru}", "x.json");
  expect_contains(t, {"x.json:1:12: malformed JSON: ", "invalid literal"});
}

TEST(ConfigErrors, TopLevelMustBeAnObject) {
  expect_contains(load("[1, 2]", "list.json"), {"list.json: ", "top level must be a JSON object", "got an array"});
}

TEST(ConfigErrors, MissingFileIsAnInputError) {
  const std::string m = error_of(
      [] {
        Config c;
        c.load_file("/nonexistent/dir/preset.json");
      },
      simtlm::ErrorKind::Input);
  expect_contains(m, {"/nonexistent/dir/preset.json", "cannot read"});
}

TEST(ConfigErrors, OverrideWithoutEquals) {
  expect_contains(override_error("gpu.num_sms"), {"-p 'gpu.num_sms': expected key=value"});
  expect_contains(override_error("=3"), {"expected key=value"});
}

TEST(ConfigErrors, CacheSizeKeyMustMatchGeometry) {
  const std::string m = validate_error({"gpu.l1d.size_bytes=16384", "gpu.l1d.sets=64"});
  expect_contains(m, {"invalid configuration: gpu.l1d.size_bytes = 16384 does not match gpu.l1d.sets x gpu.l1d.ways x "
                      "gpu.l1d.line_bytes = 64 x 4 x 128 = 32768",
                      "gpu.l1d.sets = 64 from -p", "gpu.l1d.ways = 4 from default"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.l2.size_bytes=65536");
    c.validate();
  });
  expect_contains(validate_error({"gpu.l2.size_bytes=786432"}), {"gpu.l2.size_bytes = 786432 does not match"});
}

TEST(ConfigErrors, GeometryMustBePowersOfTwoAndSectorsFit) {
  expect_contains(validate_error({"gpu.l1d.sets=48"}), {"gpu.l1d.sets must be a power of two", "gpu.l1d.sets = 48 from -p"});
  expect_contains(validate_error({"gpu.l2.sector_bytes=256"}), {"gpu.l2.sector_bytes must not exceed gpu.l2.line_bytes"});
  expect_contains(validate_error({"gpu.sm.icache.line_bytes=96"}), {"gpu.sm.icache.line_bytes must be a power of two"});
}

TEST(ConfigErrors, L1AndL2MustAgreeOnLineAndSector) {
  expect_contains(validate_error({"gpu.l1d.line_bytes=64", "gpu.l1d.sets=64"}),
                  {"the L1D and L2 line sizes must be equal", "gpu.l1d.line_bytes = 64 from -p",
                   "gpu.l2.line_bytes = 128 from default"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.l1d.enabled=false");
    c.apply_override("gpu.l1d.line_bytes=64");
    c.validate();
  });
}

TEST(ConfigErrors, SharedMemoryPlusL1MustFitUnifiedArray) {
  const std::string m = validate_error({"gpu.l1d.sets=64", "gpu.l1d.ways=6"});  // 48 KB L1 + 48 KB shared
  expect_contains(m, {"shared memory (49152 B) plus L1D (49152 B) exceed gpu.sm.unified_l1_smem_bytes (65536 B)"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.sm.unified_l1_smem_bytes=0");
    c.apply_override("gpu.l1d.sets=64");
    c.validate();
  });
}

TEST(ConfigErrors, WarpGeometryRules) {
  expect_contains(validate_error({"gpu.sm.warp_size=40"}), {"gpu.sm.max_threads must be a multiple of gpu.sm.warp_size",
                                                            "gpu.sm.warp_size = 40 from -p"});
  expect_contains(validate_error({"gpu.sm.max_threads=64", "gpu.sm.schedulers=4"}),
                  {"gpu.sm.schedulers exceeds the SM's warps (max_threads / warp_size = 2)"});
  expect_contains(validate_error({"gpu.sm.registers=32760"}),
                  {"gpu.sm.registers must be a multiple of gpu.sm.regfile.banks"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.sm.warp_size=64");
    c.apply_override("gpu.sm.warp_size=4");
    c.validate();
  });
}

TEST(ConfigErrors, MechanismValuesNotBuiltYetAreRejectedNamingTheKey) {
  // The schema knows the seeds' mechanisms, but a value whose mechanism is not
  // built is a load-time error, never accepted and ignored.
  expect_contains(validate_error({"gpu.sm.regfile.power.policy=greener", "gpu.sm.regfile.power.sleep_leakage_ratio=0.01"}),
                  {"gpu.sm.regfile.power.sleep_leakage_ratio", "gpu.sm.regfile.power.off_leakage_ratio"});
  expect_contains(validate_error({"gpu.sm.regfile.power.window=65"}), {"gpu.sm.regfile.power.window"});
  expect_contains(validate_error({"gpu.sm.scheduler.swl.warp_limit=49"}), {"swl.warp_limit exceeds the SM's warps (48)"});
}

TEST(ConfigErrors, DawsProfileKeysBelongToTheirMode) {
  // A profile read or written by nobody would be a key that does nothing.
  expect_contains(validate_error({"gpu.sm.scheduler.policy=daws", "gpu.sm.scheduler.daws.mode=profiled"}),
                  {"gpu.sm.scheduler.daws.mode", "gpu.sm.scheduler.daws.profile", "name the file"});
  expect_contains(validate_error({"gpu.sm.scheduler.daws.profile=p.txt"}),
                  {"gpu.sm.scheduler.daws.profile is read by policy daws in mode profiled only"});
  expect_contains(validate_error({"gpu.sm.scheduler.policy=daws", "gpu.sm.scheduler.daws.mode=profiled",
                                  "gpu.sm.scheduler.daws.profile=p.txt", "gpu.sm.scheduler.daws.profile_out=q.txt"}),
                  {"gpu.sm.scheduler.daws.profile_out is written by policy daws in mode detected only"});
  expect_contains(validate_error({"gpu.sm.scheduler.policy=daws", "gpu.l1d.enabled=false"}),
                  {"gpu.l1d.enabled", "policy daws"});
  expect_contains(validate_error({"gpu.sm.scheduler.daws.ilrd_entries=60"}),
                  {"gpu.sm.scheduler.daws.ilrd_entries", "gpu.sm.scheduler.daws.ilrd_ways"});
  Config c;
  c.apply_override("gpu.sm.scheduler.policy=daws");
  c.apply_override("gpu.sm.scheduler.daws.profile_out=q.txt");
  EXPECT_NO_THROW(c.validate());
}

TEST(ConfigErrors, WarpLimitBelongsToSwl) {
  // swl without a limit would be gto; a limit with another policy would do nothing.
  expect_contains(validate_error({"gpu.sm.scheduler.policy=swl"}),
                  {"gpu.sm.scheduler.policy", "gpu.sm.scheduler.swl.warp_limit", "policy swl needs"});
  expect_contains(validate_error({"gpu.sm.scheduler.swl.warp_limit=4"}),
                  {"gpu.sm.scheduler.swl.warp_limit is used by policy swl only"});
  expect_contains(validate_error({"gpu.sm.scheduler.policy=ccws", "gpu.l1d.enabled=false"}),
                  {"gpu.l1d.enabled", "policy ccws"});
  Config c;
  c.apply_override("gpu.sm.scheduler.policy=swl");
  c.apply_override("gpu.sm.scheduler.swl.warp_limit=4");
  EXPECT_NO_THROW(c.validate());
}

TEST(ConfigErrors, OwnerWarpFirstNeedsSharing) {
  // OWF orders warps by the ownership of shared resources: without a sharing
  // allocator it has nothing to order by, which is a configuration error.
  expect_contains(validate_error({"gpu.sm.scheduler.policy=owf"}),
                  {"gpu.sm.scheduler.policy", "gpu.sm.regfile.alloc_policy", "owf", "needs register or scratchpad sharing"});
  Config c;
  c.apply_override("gpu.sm.scheduler.policy=owf");
  c.apply_override("gpu.sm.regfile.alloc_policy=sharing");
  EXPECT_NO_THROW(c.validate());
}

TEST(ConfigErrors, ReorderingAndDynamicWarpExecutionNeedRegisterSharing) {
  // Both act on register sharing only: without it they would be accepted and
  // do nothing.
  expect_contains(validate_error({"gpu.sm.regfile.sharing_reorder=true"}),
                  {"gpu.sm.regfile.sharing_reorder", "gpu.sm.regfile.alloc_policy = sharing"});
  expect_contains(validate_error({"gpu.sm.regfile.sharing_dyn.enabled=true", "gpu.sm.smem.alloc_policy=sharing"}),
                  {"gpu.sm.regfile.sharing_dyn.enabled", "gpu.sm.regfile.alloc_policy = sharing"});
  // Dyn is defined for register sharing alone.
  expect_contains(validate_error({"gpu.sm.regfile.sharing_dyn.enabled=true", "gpu.sm.regfile.alloc_policy=sharing",
                                  "gpu.sm.smem.alloc_policy=sharing"}),
                  {"gpu.sm.regfile.sharing_dyn.enabled", "gpu.sm.smem.alloc_policy", "register sharing alone"});
  Config c;
  c.apply_override("gpu.sm.regfile.alloc_policy=sharing");
  c.apply_override("gpu.sm.regfile.sharing_reorder=true");
  c.apply_override("gpu.sm.regfile.sharing_dyn.enabled=true");
  EXPECT_NO_THROW(c.validate());
}

TEST(ConfigErrors, DramTimingAndGeometryRules) {
  expect_contains(validate_error({"gpu.dram.timing.tRC=30"}),
                  {"gpu.dram.timing.tRC must be at least tRAS + tRP", "gpu.dram.timing.tRC = 30 from -p",
                   "gpu.dram.timing.tRAS = 28 from default"});
  expect_contains(validate_error({"gpu.dram.bank_groups=3"}), {"gpu.dram.banks must be a multiple of gpu.dram.bank_groups"});
  expect_contains(validate_error({"gpu.dram.timing.tCCDL=1"}), {"tCCDL must be at least tCCD"});
  expect_contains(validate_error({"gpu.dram.row_bytes=32768", "gpu.dram.burst_length=6"}),
                  {"gpu.dram.row_bytes must be a multiple of one burst"});
  expect_contains(validate_error({"gpu.dram.bank_interleave_bytes=8192"}),
                  {"gpu.dram.bank_interleave_bytes must lie between one burst (64 B) and gpu.dram.row_bytes",
                   "gpu.dram.row_bytes = 4096 from default"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.dram.bank_groups=1");
    c.apply_override("gpu.dram.timing.tCCDL=0");
    c.apply_override("gpu.dram.timing.tRTPL=0");
    c.validate();
  });
}

TEST(ConfigErrors, InterconnectBufferMustHoldAPacket) {
  expect_contains(validate_error({"gpu.noc.buffer_flits=4"}),
                  {"gpu.noc.buffer_flits cannot hold the largest packet (header + line = 5 flits)"});
  EXPECT_NO_THROW({
    Config c;
    c.apply_override("gpu.noc.buffer_flits=4");
    c.apply_override("gpu.noc.topology=ideal");
    c.validate();
  });
}

TEST(ConfigErrors, TracedSmMustExist) {
  expect_contains(validate_error({"sim.trace.sm=15"}), {"sim.trace.sm names an SM that does not exist",
                                                        "gpu.num_sms = 15 from default"});
}

TEST(ConfigErrors, CrossKeyErrorNamesTheFileThatSetTheKey) {
  const std::string m = error_of([] {
    Config c;
    c.load_string(R"({"gpu": {"l1d": {"sets": 64, "ways": 6}}})", "configs/prefer_l1.json");
    c.validate();
  });
  expect_contains(m, {"gpu.l1d.sets = 64 from configs/prefer_l1.json", "gpu.sm.shared_memory_bytes = 49152 from default"});
}

TEST(ConfigErrors, LoadStopsAtTheFirstErrorInFileOrder) {
  // Members are checked in file order, not alphabetically.
  const std::string m = load(R"({"gpu": {"num_sms": 0, "l1d": {"sets": "x"}}})");
  expect_contains(m, {"gpu.num_sms"});
  EXPECT_EQ(m.find("gpu.l1d.sets"), std::string::npos) << m;
}

}  // namespace

namespace {

// gpu.vws.* belong to the vws platform: set with another platform, each is an
// error naming the key; on the vws platform the SM's shape must fit the mode.
TEST(ConfigErrors, VwsKeysNeedTheVwsPlatform) {
  for (const char* o : {"gpu.vws.mode=slices", "gpu.vws.slices=4", "gpu.vws.slice_width=8",
                        "gpu.vws.fetches_per_cycle=2", "gpu.vws.coalesce_same_cycle=false", "gpu.vws.mode=mixed",
                        "gpu.vws.gangs_per_cycle=1", "gpu.vws.gang_order=lrr", "gpu.vws.split_memory=group",
                        "gpu.vws.reform=opportunistic", "gpu.vws.reform=sync50", "gpu.vws.l0_bytes=0"}) {
    const std::string key = std::string(o).substr(0, std::string(o).find('='));
    expect_contains(validate_error({o}), {key, "is used by sim.platform = vws only", "sim.platform = gpu"});
  }
}

TEST(ConfigErrors, VwsPlatformChecksTheSmShape) {
  const std::vector<std::string> ws32 = {"sim.platform=vws", "gpu.sm.schedulers=1", "gpu.sm.max_threads=1024"};
  Config ok;
  for (const std::string& o : ws32) ok.apply_override(o);
  EXPECT_NO_THROW(ok.validate());
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = ws32;
    all.insert(all.end(), extra.begin(), extra.end());
    return validate_error(all);
  };
  expect_contains(with({"gpu.vws.mode=slices"}),
                  {"gpu.sm.warp_size must be gpu.vws.slice_width = 4 in mode slices", "gpu.sm.warp_size = 32"});
  expect_contains(with({"gpu.sm.warp_size=16"}), {"gpu.vws.slices x gpu.vws.slice_width = 32 in mode ganged"});
  expect_contains(with({"gpu.sm.schedulers=2"}), {"gpu.sm.schedulers must be 1", "gpu.sm.schedulers = 2"});
  expect_contains(with({"gpu.vws.fetches_per_cycle=2"}), {"gpu.vws.fetches_per_cycle", "1 when ganged"});
  expect_contains(with({"gpu.vws.coalesce_same_cycle=false"}), {"gpu.vws.coalesce_same_cycle", "gpu.vws.mode = ganged"});
  expect_contains(with({"gpu.vws.mode=slices", "gpu.sm.warp_size=4", "gpu.vws.fetches_per_cycle=9"}),
                  {"at most one fetch per slice", "gpu.vws.slices = 8"});
  expect_contains(with({"gpu.vws.slices=16", "gpu.vws.slice_width=8"}), {"must not exceed 64"});
  expect_contains(with({"gpu.vws.mode=slices", "gpu.sm.warp_size=4", "gpu.sm.max_threads=1028"}),
                  {"whole original gangs", "gpu.sm.max_threads = 1028"});
}

// Mixed mode (the warp ganging unit): its keys only in mixed mode, the
// slice-wide warp, gangs per cycle within slices / 2, no CTA switching.
TEST(ConfigErrors, VwsMixedModeKeys) {
  const std::vector<std::string> mixed = {"sim.platform=vws", "gpu.sm.schedulers=1", "gpu.sm.max_threads=1024",
                                          "gpu.vws.mode=mixed", "gpu.sm.warp_size=4"};
  Config ok;
  for (const std::string& o : mixed) ok.apply_override(o);
  EXPECT_NO_THROW(ok.validate());
  auto with = [&](std::vector<std::string> base, std::vector<std::string> extra) {
    base.insert(base.end(), extra.begin(), extra.end());
    return validate_error(base);
  };
  const std::vector<std::string> slices = {"sim.platform=vws", "gpu.sm.schedulers=1", "gpu.sm.max_threads=1024",
                                           "gpu.vws.mode=slices", "gpu.sm.warp_size=4"};
  for (const char* o : {"gpu.vws.gangs_per_cycle=1", "gpu.vws.gang_order=gto", "gpu.vws.split_memory=impatient",
                        "gpu.vws.reform=opportunistic", "gpu.vws.reform=sync10", "gpu.vws.l0_bytes=64"}) {
    const std::string key = std::string(o).substr(0, std::string(o).find('='));
    expect_contains(with(slices, {o}), {key, "is used by gpu.vws.mode = mixed only"});
  }
  expect_contains(with(mixed, {"gpu.sm.warp_size=32"}), {"gpu.sm.warp_size must be gpu.vws.slice_width = 4 in mode mixed"});
  expect_contains(with(mixed, {"gpu.vws.gangs_per_cycle=5"}), {"gpu.vws.gangs_per_cycle", "at most gpu.vws.slices / 2"});
  expect_contains(with(mixed, {"gpu.vws.l0_bytes=100"}), {"gpu.vws.l0_bytes", "multiple of 8"});
  for (const char* o : {"gpu.vws.reform=sync100", "gpu.vws.l0_bytes=0", "gpu.vws.l0_bytes=32"}) {
    Config c;
    for (const std::string& m : mixed) c.apply_override(m);
    c.apply_override(o);
    EXPECT_NO_THROW(c.validate()) << o;
  }
  // (FineReg's own 32-lane rule or mixed mode's: either names the policy.)
  expect_contains(with(mixed, {"gpu.sm.regfile.alloc_policy=finereg", "gpu.sm.registers=65536"}),
                  {"gpu.sm.regfile.alloc_policy = finereg"});
}

}  // namespace
