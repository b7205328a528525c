// `simtlm run`: option validation (exit 2 with a precise message), a real run
// with its summary, and the --out/--stats result files.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(CliTest, RunUnknownWorkloadListsTheAvailableOnes) {
  CliResult r = run({"run", "nosuch"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown workload 'nosuch'"));
  EXPECT_THAT(r.err, HasSubstr("sgemm"));
  EXPECT_TRUE(r.out.empty());
}

TEST_F(CliTest, RunBadSize) {
  CliResult r = run({"run", "vectorAdd", "--size", "huge"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown --size 'huge' (expected small or default)"));
}

TEST_F(CliTest, RunBadParameterForm) {
  CliResult r = run({"run", "vectorAdd", "-p", "gpu.num_sms"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("-p 'gpu.num_sms': expected key=value"));
  r = run({"run", "vectorAdd", "-p", "=3"});
  EXPECT_EQ(r.code, 2);
}

TEST_F(CliTest, RunMissingConfigFile) {
  CliResult r = run({"run", "vectorAdd", "--config", "no_such_config.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("config file 'no_such_config.json' not found"));
}

TEST_F(CliTest, RunConfigFileMustBeJsonObject) {
  write("broken.json", "{\"gpu\": ");
  CliResult r = run({"run", "vectorAdd", "--config", "broken.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("broken.json:1:"));
  EXPECT_THAT(r.err, HasSubstr("malformed JSON"));
  write("array.json", "[1, 2]");
  r = run({"run", "vectorAdd", "--config", "array.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("must be a JSON object"));
}

TEST_F(CliTest, RunBadBackendAndBadConfigKey) {
  CliResult r = run({"run", "vectorAdd", "--backend", "quantum"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown backend 'quantum'"));
  write("cfg.json", "{}");
  r = run({"run", "vectorAdd", "--backend", "timing", "--config", "cfg.json", "-p", "gpu.num_smz=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("gpu.num_smz"));
  EXPECT_THAT(r.err, HasSubstr("gpu.num_sms"));
}

TEST_F(CliTest, RunBadNumbers) {
  for (const char* w : {"0", "65", "abc", "0x", "1.5"}) {
    CliResult r = run({"run", "vectorAdd", "--warp-size", w});
    EXPECT_EQ(r.code, 2) << w;
    EXPECT_THAT(r.err, HasSubstr("--warp-size must be an integer in 1..64")) << w;
  }
  CliResult r = run({"run", "vectorAdd", "--warp-size=-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--warp-size must be an integer in 1..64"));
  r = run({"run", "vectorAdd", "--seed", "-5"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--seed"));
  EXPECT_EQ(run({"run", "vectorAdd", "extra"}).code, 2);
}

TEST_F(CliTest, RunSmallWorkloadPassesAndPrintsSummary) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "--seed", "7", "--backend", "functional"});
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* field : {"workload", "vectorAdd", "backend", "functional", "size", "small",
                            "launches", "CTAs", "warp instructions", "thread instructions",
                            "host time", "simulation rate", "PASS"})
    EXPECT_THAT(r.out, HasSubstr(field));
}

// offchip_accesses (the SPU study's I/O measure, element granularity): vectorAdd
// of 4133 elements reads two and writes one global float per element, on
// both backends; the summary says it too.
TEST_F(CliTest, OffchipAccessesCountGlobalElementsOnBothBackends) {
  for (const char* backend : {"functional", "timing"}) {
    CliResult r = run({"run", "vectorAdd", "--size", "small", "--stats", "--backend", backend});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json stats = nlohmann::json::parse(r.out);
    EXPECT_EQ(stats["offchip_accesses"].get<uint64_t>(), 3u * 4133) << backend;
    EXPECT_EQ(stats["per_launch"][0]["offchip_accesses"].get<uint64_t>(), 3u * 4133) << backend;
    EXPECT_THAT(r.err, HasSubstr("off-chip accesses")) << backend;
  }
}

// SPU passes and the faces virtual IUs moved, in stats.json and the summary
// (docs/spu.md, "Passes"): 64^3 on a 1 x 1 SPU runs 2 x 2 passes; the east
// IU (k = 3) spills 2 faces in each of passes (0,0) and (0,1), the south one
// (k = 2) in (0,0) and (1,0); west (1) and north (0) restore them. A run
// without SPU launches has none of these members (its file is unchanged).
TEST_F(CliTest, SpuPassesAndVirtualIuFacesAreInStatsJson) {
  CliResult r = run({"run", "spu_stencil", "--arg", "n=64", "--arg", "k=64", "--stats", "--backend", "functional",
                     "-p", "sim.platform=spu", "-p", "spu.grid_size=1", "-p", "gpu.num_sms=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json stats = nlohmann::json::parse(r.out);
  EXPECT_EQ(stats["spu_passes"].get<uint64_t>(), 4u);
  EXPECT_EQ(stats["viu_spills"].get<uint64_t>(), 8u);
  EXPECT_EQ(stats["viu_restores"].get<uint64_t>(), 8u);
  EXPECT_EQ(stats["per_launch"][0]["viu_spills"], nlohmann::json::array({0, 0, 4, 4}));
  EXPECT_EQ(stats["per_launch"][0]["viu_restores"], nlohmann::json::array({4, 4, 0, 0}));
  EXPECT_THAT(r.err, HasSubstr("virtual IUs spilled 8 and restored 8 faces"));
  r = run({"run", "vectorAdd", "--size", "small", "--stats", "--backend", "functional"});
  ASSERT_EQ(r.code, 0) << r.err;
  stats = nlohmann::json::parse(r.out);
  EXPECT_FALSE(stats.contains("spu_passes"));
  EXPECT_FALSE(stats["per_launch"][0].contains("viu_spills"));
}

// Run arguments: given ones are in stats.json; a bad one is exit 2 naming it.
TEST_F(CliTest, RunArgumentsReachTheWorkloadOrAreUsageErrors) {
  CliResult r = run({"run", "spu_stencil", "--size", "small", "--arg", "n=40", "--arg", "method=atomic", "--stats",
                     "--backend", "functional"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json stats = nlohmann::json::parse(r.out);
  EXPECT_EQ(stats["args"], nlohmann::json::array({"n=40", "method=atomic"}));
  EXPECT_EQ(stats["per_launch"][0]["kernel"], "spu_stencil_gpu");
  EXPECT_THAT(stats["check_detail"].get<std::string>(), HasSubstr("40x40x40"));
  r = run({"run", "spu_stencil", "--size", "small", "--arg", "n=abc", "--backend", "functional"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--arg n=abc"));
  r = run({"run", "vectorAdd", "--size", "small", "--arg", "x=1", "--backend", "functional"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("takes no run argument 'x' (it takes none)"));
  // Without --arg the files do not mention arguments.
  r = run({"run", "vectorAdd", "--size", "small", "--stats", "--backend", "functional"});
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("args"));
}

TEST_F(CliTest, RunWritesResultFilesAndStatsJson) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "--warp-size", "16", "--out",
                     "results/a", "--stats", "-p", "gpu.num_sms=4", "--backend", "functional"});
  ASSERT_EQ(r.code, 0) << r.err;
  // --stats: JSON on stdout, the readable summary on stderr.
  nlohmann::json stdout_json = nlohmann::json::parse(r.out);
  EXPECT_THAT(r.err, HasSubstr("PASS"));
  nlohmann::json stats = nlohmann::json::parse(read_text(path("results/a/stats.json")));
  EXPECT_EQ(stats, stdout_json);
  EXPECT_EQ(stats["workload"], "vectorAdd");
  EXPECT_EQ(stats["backend"], "functional");
  EXPECT_EQ(stats["size"], "small");
  EXPECT_EQ(stats["warp_size"], 16);
  EXPECT_EQ(stats["result"], "PASS");
  EXPECT_GE(stats["launches"].get<int>(), 1);
  EXPECT_GT(stats["ctas"].get<uint64_t>(), 0u);
  EXPECT_GT(stats["warp_instructions"].get<uint64_t>(), 0u);
  EXPECT_GE(stats["thread_instructions"].get<uint64_t>(), stats["warp_instructions"].get<uint64_t>());
  // No wall-clock values: identical runs give identical stats.json.
  EXPECT_FALSE(stats.contains("host_seconds"));
  EXPECT_FALSE(stats.contains("warp_instructions_per_second"));
  EXPECT_EQ(stats["per_launch"].size(), stats["launches"].get<size_t>());
  EXPECT_THAT(read_text(path("results/a/summary.txt")), HasSubstr("PASS"));
  nlohmann::json options = nlohmann::json::parse(read_text(path("results/a/options.json")));
  EXPECT_EQ(options["params"]["gpu.num_sms"], "4");
  EXPECT_EQ(options["warp_size"], 16);
  nlohmann::json config = nlohmann::json::parse(read_text(path("results/a/config.json")));
  EXPECT_EQ(config["gpu"]["num_sms"], 4);
  EXPECT_EQ(config["gpu"]["sm"]["warp_size"], 16);
  // Only the four result files, no temporaries.
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(path("results/a"))) {
    ++files;
    EXPECT_THAT(e.path().filename().string(), Not(HasSubstr(".tmp")));
  }
  EXPECT_EQ(files, 4);
}

TEST_F(CliTest, RunFailedValidationLeavesNoResultFiles) {
  CliResult r = run({"run", "vectorAdd", "--size", "huge", "--out", "res"});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(std::filesystem::exists(path("res/stats.json")));
}

// Issue "Hardening": a reused --out folder kept the previous run's files, so a
// failed run left an old stats.json and a run without --trace an old trace.
TEST_F(CliTest, AReusedOutFolderHoldsOnlyTheLastRunsResults) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "--out", "res", "--trace", "vcd"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(path("res/trace.vcd")));
  write("res/notes.txt", "mine");  // not ours: kept
  r = run({"run", "vectorAdd", "--size", "small", "--out", "res"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(path("res/stats.json")));
  EXPECT_FALSE(std::filesystem::exists(path("res/trace.vcd")));
  // A run that fails at launch leaves no stats.json of the run before it.
  r = run({"run", "vectorAdd", "--size", "default", "--out", "res", "-p", "gpu.global_memory_bytes=1048576"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path("res/stats.json")));
  EXPECT_FALSE(std::filesystem::exists(path("res/summary.txt")));
  EXPECT_TRUE(std::filesystem::exists(path("res/notes.txt")));
}

TEST_F(CliTest, RunIsDeterministic) {
  CliResult a = run({"run", "vectorAdd", "--size", "small", "--stats", "--backend", "functional"});
  CliResult b = run({"run", "vectorAdd", "--size", "small", "--stats", "--backend", "functional"});
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  for (const char* k : {"ctas", "warp_instructions", "thread_instructions", "check_detail"})
    EXPECT_EQ(ja[k], jb[k]) << k;
}

}  // namespace
}  // namespace simtlm::test
