// The timing backend through the `simtlm` program: it is the default,
// identical runs give byte-identical stats.json, --out writes the effective
// configuration, --trace writes a VCD and a Perfetto timeline, and
// `simtlm config describe` lists the keys.
#include <gmock/gmock.h>

#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"
#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, TimingIsTheDefaultBackendAndPrintsTimingSummary) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "-p", "gpu.num_sms=4"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* field : {"backend", "timing", "cycles", "IPC", "issue slots", "occupancy", "L1D", "L2",
                            "DRAM bandwidth", "PASS"})
    EXPECT_THAT(r.out, HasSubstr(field));
}

TEST_F(CliTest, TimingStatsJsonIsDeterministic) {
  for (const char* w : {"vectorAdd", "bfs"}) {
    const std::string a = std::string("a_") + w, b = std::string("b_") + w;
    CliResult ra = run({"run", w, "--size", "small", "-p", "gpu.num_sms=4", "--out", a});
    CliResult rb = run({"run", w, "--size", "small", "-p", "gpu.num_sms=4", "--out", b});
    ASSERT_EQ(ra.code, 0) << ra.err;
    ASSERT_EQ(rb.code, 0) << rb.err;
    const std::string sa = read_text(path(a + "/stats.json")), sb = read_text(path(b + "/stats.json"));
    EXPECT_FALSE(sa.empty());
    EXPECT_EQ(sa, sb) << w;
    nlohmann::json j = nlohmann::json::parse(sa);
    EXPECT_EQ(j["backend"], "timing");
    EXPECT_GT(j["cycles"].get<uint64_t>(), 0u);
    ASSERT_TRUE(j.contains("timing"));
    EXPECT_EQ(j["timing"]["kernels"].size(), j["launches"].get<size_t>());
    EXPECT_TRUE(j["timing"]["total"].contains("gpu.ipc"));
    EXPECT_TRUE(j["timing"]["meta"].contains("gpu.dram_total.bandwidth_gbps"));
    // Each launch names its statistics window; the tree is stored once.
    const nlohmann::json& launch0 = j["per_launch"][0];
    EXPECT_FALSE(launch0.contains("backend_stats"));
    const nlohmann::json& window = j["timing"]["kernels"][launch0["timing_kernel_index"].get<size_t>()];
    EXPECT_EQ(window["index"], launch0["timing_kernel_index"]);
    EXPECT_EQ(window["kernel"], launch0["kernel"]);
    EXPECT_EQ(window["stats"]["gpu.cycles"], launch0["cycles"]);
    nlohmann::json cfg = nlohmann::json::parse(read_text(path(a + "/config.json")));
    EXPECT_EQ(cfg["gpu"]["num_sms"], 4);
    EXPECT_EQ(cfg["gpu"]["name"], "GTX480");
  }
}

TEST_F(CliTest, TracesAreWrittenIntoOutDir) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "-p", "gpu.num_sms=2", "--out", "t", "--trace", "vcd",
                     "--trace", "timeline"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string vcd = read_text(path("t/trace.vcd"));
  EXPECT_THAT(vcd, HasSubstr("$enddefinitions $end"));
  EXPECT_THAT(vcd, HasSubstr("resident_warps"));
  nlohmann::json tl = nlohmann::json::parse(read_text(path("t/timeline.json")));
  ASSERT_TRUE(tl.contains("traceEvents"));
  int ctas = 0, kernels = 0;
  for (const auto& e : tl["traceEvents"]) {
    if (e.value("cat", "") == "cta") ++ctas;
    if (e.value("cat", "") == "kernel") ++kernels;
  }
  EXPECT_GT(ctas, 0);
  EXPECT_GE(kernels, 1);
  EXPECT_EQ(run({"run", "vectorAdd", "--trace", "vcd"}).code, 2);  // needs --out
  EXPECT_EQ(run({"run", "vectorAdd", "--out", "x", "--trace", "gif"}).code, 2);
}

TEST_F(CliTest, TracesOfAManyLaunchRunAreCompleteAndInTimeOrder) {
  // gaussian: two launches per pivot. The files are appended after every
  // launch; in the end they must hold every launch and every CTA.
  CliResult r = run({"run", "gaussian", "--size", "small", "-p", "gpu.num_sms=2", "--out", "g", "--trace", "vcd",
                     "--trace", "timeline"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(path("g/stats.json")));
  const uint64_t launches = stats["launches"].get<uint64_t>(), ctas = stats["ctas"].get<uint64_t>();
  ASSERT_GT(launches, 10u);
  const nlohmann::json tl = nlohmann::json::parse(read_text(path("g/timeline.json")));
  uint64_t kernel_events = 0, cta_events = 0;
  for (const auto& e : tl["traceEvents"]) {
    if (e.value("cat", "") == "kernel") ++kernel_events;
    if (e.value("cat", "") == "cta") ++cta_events;
  }
  EXPECT_EQ(kernel_events, launches);
  EXPECT_EQ(cta_events, ctas);
  EXPECT_EQ(tl["displayTimeUnit"], "ns");
  // VCD: timestamps never go back, the header appears once, and every SM ends empty.
  const std::string vcd = read_text(path("g/trace.vcd"));
  EXPECT_EQ(vcd.find("$enddefinitions"), vcd.rfind("$enddefinitions"));
  std::istringstream lines(vcd);
  std::string line;
  uint64_t last_ps = 0;
  std::map<std::string, std::string> value;  // signal id -> last value
  while (std::getline(lines, line)) {
    if (line.size() > 1 && line[0] == '#') {
      const uint64_t ps = std::stoull(line.substr(1));
      EXPECT_GE(ps, last_ps) << line;
      last_ps = ps;
    } else if (line.size() > 1 && line[0] == 'b') {
      const size_t space = line.find(' ');
      value[line.substr(space + 1)] = line.substr(1, space - 1);
    }
  }
  ASSERT_EQ(value.size(), 4u);  // two SMs, two signals each
  for (const auto& [id, v] : value) EXPECT_EQ(v, "0") << "signal " << id;
}

TEST_F(CliTest, ConfigErrorsExitTwo) {
  CliResult r = run({"run", "vectorAdd", "-p", "gpu.l1d.sets=3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("gpu.l1d.sets"));
  r = run({"run", "vectorAdd", "-p", "gpu.dram.tRC=10"});  // tRC < tRAS + tRP
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("tRC"));
}

TEST_F(CliTest, ConfigDescribeListsKeys) {
  CliResult r = run({"config", "describe"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu.l1d.sets"));
  r = run({"config", "describe", "--markdown"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| `gpu.num_sms` |"));
  EXPECT_EQ(run({"config", "explain"}).code, 2);
}

TEST_F(CliTest, DeadlockExitsThree) {
  write("dl.ptx", kDeadlockPtx);
  write("spec.json", R"({"grid": 1, "block": 64, "args": [], "buffers": {}})");
  CliResult r = run({"ptx", "dl.ptx", "--launch", "spec.json", "-p", "sim.watchdog_cycles=1000", "-p",
                     "gpu.num_sms=1"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("deadlock"));
}

}  // namespace
}  // namespace simtlm::test
