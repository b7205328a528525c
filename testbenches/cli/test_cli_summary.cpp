// The readable timing summary against the statistics the same run writes to
// stats.json: every figure of a multi-launch run scoped to its heading (the
// all-launch block, one line per kernel name, one line per launch), the
// simulated time, SIMD efficiency, cache lines that add up, integer counters
// in JSON, demangled names and column layouts that fit long names.
#include <gmock/gmock.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_harness.h"

using namespace simtlm::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The lines of the section headed `heading` (up to the next unindented line).
std::vector<std::string> section(const std::string& text, const std::string& heading) {
  std::vector<std::string> out;
  bool in = false;
  for (const std::string& l : lines_of(text)) {
    if (!l.empty() && l[0] != ' ') {
      in = l == heading;
      continue;
    }
    if (in) out.push_back(l);
  }
  return out;
}

uint64_t u(const nlohmann::json& j) { return j.get<uint64_t>(); }

class SummaryTest : public CliTest {
 protected:
  // gaussian --size small: 72 launches of two kernels whose occupancy differs.
  void SetUp() override {
    CliTest::SetUp();
    result_ = run({"run", "gaussian", "--size", "small", "--out", "res"});
    ASSERT_EQ(result_.code, 0) << result_.err;
    stats_ = nlohmann::json::parse(read_text(path("res/stats.json")));
  }
  const nlohmann::json& window(size_t launch) const {
    return stats_["timing"]["kernels"][u(stats_["per_launch"][launch]["timing_kernel_index"])]["stats"];
  }
  CliResult result_;
  nlohmann::json stats_;
};

// The all-launch maximum occupancy is the maximum over every launch (it came
// from the last launch only: "max 1 CTAs, 1 warps" where fan1 reaches 16
// warps and fan2 6 CTAs).
TEST_F(SummaryTest, AllLaunchOccupancyMaximumCoversEveryLaunch) {
  uint64_t ctas = 0, warps = 0;
  for (size_t i = 0; i < stats_["per_launch"].size(); ++i) {
    ctas = std::max(ctas, u(window(i)["gpu.occupancy.max_ctas_per_sm"]));
    warps = std::max(warps, u(window(i)["gpu.occupancy.max_warps_per_sm"]));
  }
  ASSERT_GT(ctas, 1u);
  EXPECT_EQ(u(stats_["timing"]["total"]["gpu.occupancy.run_max_ctas_per_sm"]), ctas);
  EXPECT_EQ(u(stats_["timing"]["total"]["gpu.occupancy.run_max_warps_per_sm"]), warps);
  EXPECT_THAT(result_.out, HasSubstr("max " + std::to_string(ctas) + " CTAs, " + std::to_string(warps) +
                                     " warps on one SM"));
}

// One line per kernel name: its launches, summed cycles and instructions, the
// largest per-launch occupancy; then a line per launch with --per-launch.
TEST_F(SummaryTest, PerKernelAndPerLaunchLines) {
  struct Sum {
    uint64_t launches = 0, cycles = 0, instructions = 0, max_warps = 0;
  };
  std::map<std::string, Sum> expect;
  for (size_t i = 0; i < stats_["per_launch"].size(); ++i) {
    const nlohmann::json& l = stats_["per_launch"][i];
    Sum& s = expect[l["kernel"].get<std::string>()];
    ++s.launches;
    s.cycles += u(l["cycles"]);
    s.instructions += u(l["warp_instructions"]);
    s.max_warps = std::max(s.max_warps, u(window(i)["gpu.occupancy.max_warps_per_sm"]));
  }
  ASSERT_EQ(expect.size(), 2u);
  const std::vector<std::string> table = section(result_.out, "timing per kernel");
  ASSERT_EQ(table.size(), 3u) << result_.out;  // header + two kernels
  const std::vector<std::string> header = words_of(table[0]);
  ASSERT_GE(header.size(), 2u);
  EXPECT_EQ(header[0], "launches");
  EXPECT_EQ(header[1], "kernel");
  for (size_t r = 1; r < table.size(); ++r) {
    const std::vector<std::string> w = words_of(table[r]);
    ASSERT_GE(w.size(), 9u) << table[r];
    ASSERT_TRUE(expect.count(w[1])) << table[r];
    const Sum& s = expect[w[1]];
    EXPECT_EQ(w[0], std::to_string(s.launches)) << table[r];
    EXPECT_EQ(w[2], std::to_string(s.cycles)) << table[r];
    EXPECT_EQ(w[5], std::to_string(s.instructions)) << table[r];  // w[3..4]: "25.169 µs"
    EXPECT_EQ(w[9], std::to_string(s.max_warps)) << table[r];     // w[7..8]: "8.7 %"
  }
  // No per-launch lines unless asked for.
  EXPECT_THAT(result_.out, Not(HasSubstr("timing per launch")));
  CliResult p = run({"run", "gaussian", "--size", "small", "--per-launch"});
  ASSERT_EQ(p.code, 0) << p.err;
  const std::vector<std::string> launches = section(p.out, "timing per launch");
  ASSERT_EQ(launches.size(), 1 + stats_["per_launch"].size()) << p.out;
  for (size_t i = 0; i < stats_["per_launch"].size(); ++i) {
    const std::vector<std::string> w = words_of(launches[1 + i]);
    ASSERT_GE(w.size(), 3u);
    EXPECT_EQ(w[0], std::to_string(i));
    EXPECT_EQ(w[1], stats_["per_launch"][i]["kernel"].get<std::string>());
    EXPECT_EQ(w[2], std::to_string(u(stats_["per_launch"][i]["cycles"])));
  }
}

// Simulated time at the configured core clock beside the cycles, and the clocks.
TEST_F(SummaryTest, SimulatedTimeAndClocks) {
  const uint64_t cycles = u(stats_["cycles"]);
  char us[64];
  std::snprintf(us, sizeof us, "%.3f", static_cast<double>(cycles) / 700.0);  // gtx480: 700 MHz core
  EXPECT_THAT(result_.out, HasSubstr(std::to_string(cycles) + " (" + us + " \u00b5s at the 700 MHz core clock)"));
  EXPECT_THAT(result_.out, HasSubstr("core 700 MHz, interconnect 700 MHz, L2 700 MHz, DRAM 924 MHz"));
}

// The active-lane histogram counts every issued warp instruction once, at its
// number of active lanes: its sum is the warp instructions, its lane-weighted
// sum the thread instructions; the efficiency is their ratio over 32 lanes.
TEST_F(SummaryTest, SimdEfficiencyHistogram) {
  const nlohmann::json& total = stats_["timing"]["total"];
  uint64_t warp = 0, thread = 0;
  for (unsigned sm = 0; sm < 15; ++sm) {
    const nlohmann::json& h = total["gpu.sm[" + std::to_string(sm) + "].active_lanes"];
    ASSERT_EQ(h.size(), 33u);
    for (size_t lanes = 0; lanes < h.size(); ++lanes) {
      warp += u(h[lanes]);
      thread += lanes * u(h[lanes]);
    }
  }
  EXPECT_EQ(warp, u(stats_["warp_instructions"]));
  EXPECT_EQ(thread, u(stats_["thread_instructions"]));
  EXPECT_DOUBLE_EQ(total["gpu.simd_efficiency"].get<double>(), static_cast<double>(thread) / (32.0 * warp));
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f %%", 100.0 * thread / (32.0 * warp));
  EXPECT_THAT(result_.out, HasSubstr(std::string("SIMD efficiency         ") + pct));
  EXPECT_THAT(result_.out, HasSubstr("active lanes            1-4 "));
}

// Each cache's accesses are its reads, writes and atomics; the hit rate is
// named a read hit rate; reservation fails are explained.
TEST_F(SummaryTest, CacheLinesAddUp) {
  const nlohmann::json& total = stats_["timing"]["total"];
  for (const char* level : {"l1d_total", "l2_total"}) {
    const std::string p = std::string("gpu.") + level + ".";
    EXPECT_EQ(u(total[p + "accesses"]), u(total[p + "reads"]) + u(total[p + "writes"]) + u(total[p + "atomics"]))
        << level;
    const std::string label = level == std::string("l1d_total") ? "L1D" : "L2";
    EXPECT_THAT(result_.out,
                HasSubstr(label + std::string(label.size() < 24 ? 24 - label.size() : 1, ' ') +
                          std::to_string(u(total[p + "accesses"])) + " accesses: " +
                          std::to_string(u(total[p + "reads"])) + " reads, " +
                          std::to_string(u(total[p + "writes"])) + " writes"));
    EXPECT_THAT(result_.out, HasSubstr("writes: " + std::to_string(u(total[p + "write_hits"])) + " hits, " +
                                       std::to_string(u(total[p + "write_misses"])) + " misses"));
  }
  EXPECT_THAT(result_.out, HasSubstr("(read hit rate "));
  EXPECT_THAT(result_.out, Not(HasSubstr("(hit rate")));
  EXPECT_THAT(result_.out, HasSubstr("reservation fails = cycles a lookup could not proceed"));
}

// Sums of integer counters are JSON integers, ratios stay floating.
TEST_F(SummaryTest, IntegerCountersAreIntegersInStatsJson) {
  const nlohmann::json& total = stats_["timing"]["total"];
  for (const char* k : {"gpu.warp_instructions", "gpu.l1d_total.hits", "gpu.l2_total.accesses",
                        "gpu.dram_total.reads", "gpu.issue.slots", "gpu.occupancy.max_ctas_per_sm"}) {
    EXPECT_TRUE(total[k].is_number_unsigned()) << k << " = " << total[k].dump();
  }
  for (const char* k : {"gpu.ipc", "gpu.l1d_total.hit_rate", "gpu.dram_total.peak_gbps"})
    EXPECT_TRUE(total[k].is_number_float()) << k << " = " << total[k].dump();
  EXPECT_THAT(read_text(path("res/stats.json")), Not(HasSubstr("\"gpu.l1d_total.hits\": " +
                                                               std::to_string(u(total["gpu.l1d_total.hits"])) +
                                                               ".0")));
}

TEST_F(CliTest, PtxReportShowsDemangledNamesAndFitsLongParameterNames) {
  CliResult r = run({"ptx", SIMTLM_SOURCE_DIR "/testbenches/data/nvcc/regcount_kernels_sm75.ptx"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kernel _Z12matmul_tiledPKfS0_Pfi  ("));
  EXPECT_THAT(r.out, HasSubstr("  demangled           matmul_tiled(float const*, float const*, float*, int)\n"));
  // The 33-character parameter names keep two spaces before their type.
  EXPECT_THAT(r.out, HasSubstr("_Z12matmul_tiledPKfS0_Pfi_param_0  .u64"));
}

TEST_F(CliTest, ListColumnsLineUpWhateverTheNameLengths) {
  CliResult r = run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Configuration lines: the description column starts at the same place,
  // after at least two spaces.
  std::vector<size_t> starts;
  bool configs = false;
  for (const std::string& l : lines_of(r.out)) {
    if (l.rfind("Configurations", 0) == 0) configs = true;
    if (!configs || l.rfind("  ", 0) != 0 || l.rfind("      ", 0) == 0) continue;
    const size_t gap = l.find("  ", 2);
    ASSERT_NE(gap, std::string::npos) << l;
    starts.push_back(l.find_first_not_of(' ', gap));
  }
  ASSERT_GE(starts.size(), 2u);
  EXPECT_EQ(std::count(starts.begin(), starts.end(), starts.front()), static_cast<long>(starts.size())) << r.out;
  // Workload lines are wrapped to 100 columns.
  for (const std::string& l : lines_of(r.out)) {
    if (l.rfind("Configurations", 0) == 0) break;
    EXPECT_LE(l.size(), 100u) << l;
  }
}

}  // namespace

namespace {

// Every global/local load transaction is timed once, at the level that
// supplied its data; the L1D-hit loads are the L1D's read hits (no atomics
// here), each histogram holds its level's loads, and an L1D hit is faster
// than a load the L2 supplied.
TEST_F(SummaryTest, LoadLatencyPerLevel) {
  const nlohmann::json& total = stats_["timing"]["total"];
  uint64_t loads = 0;
  for (unsigned sm = 0; sm < 15; ++sm) loads += u(total["gpu.sm[" + std::to_string(sm) + "].load_transactions"]);
  uint64_t counted = 0;
  for (const char* level : {"l1_hit", "l2_hit", "dram"}) {
    const uint64_t n = u(total[std::string("gpu.load_latency.count_") + level]);
    counted += n;
    uint64_t in_histogram = 0, sum = 0;
    for (unsigned sm = 0; sm < 15; ++sm) {
      const std::string p = "gpu.sm[" + std::to_string(sm) + "].load_latency_";
      for (const auto& x : total[p + "histogram_" + level]) in_histogram += u(x);
      sum += u(total[p + "sum_" + level]);
    }
    EXPECT_EQ(in_histogram, n) << level;
    ASSERT_GT(n, 0u) << level;
    EXPECT_DOUBLE_EQ(total[std::string("gpu.load_latency.avg_") + level].get<double>(),
                     static_cast<double>(sum) / static_cast<double>(n));
  }
  EXPECT_EQ(counted, loads);
  EXPECT_EQ(u(total["gpu.load_latency.count_l1_hit"]), u(total["gpu.l1d_total.hits"]));
  EXPECT_LT(total["gpu.load_latency.avg_l1_hit"].get<double>(), total["gpu.load_latency.avg_l2_hit"].get<double>());
  char avg[32];
  std::snprintf(avg, sizeof avg, "%.1f", total["gpu.load_latency.avg_l1_hit"].get<double>());
  EXPECT_THAT(result_.out, HasSubstr(std::string("load latency            L1D hit ") + avg + " cycles (" +
                                     std::to_string(u(total["gpu.load_latency.count_l1_hit"])) + " loads)"));
}

}  // namespace

namespace {

// A C++ kernel's launch summary names it as launched and by its signature,
// here and in the kernel table (two launches of the same spec are not
// possible in one command, so the table is asked for with --per-launch).
TEST_F(CliTest, LaunchSummaryShowsTheDemangledKernelName) {
  nlohmann::json spec = {{"grid", 2},
                         {"block", 64},
                         {"args", {{{"buffer", "a"}}, {{"buffer", "b"}}, {{"buffer", "c"}}, {{"type", "s32"}, {"value", 128}}}},
                         {"buffers",
                          {{"a", {{"size_bytes", 512}, {"init", {{"random", 1}, {"type", "f32"}}}}},
                           {"b", {{"size_bytes", 512}, {"init", {{"random", 2}, {"type", "f32"}}}}},
                           {"c", {{"size_bytes", 512}}}}}};
  write_text(path("spec.json"), spec.dump());
  CliResult r = run({"ptx", SIMTLM_SOURCE_DIR "/testbenches/data/nvcc/basic_kernels_sm75.ptx", "--kernel",
                     "_Z6vecaddPKfS0_Pfi", "--launch", "spec.json", "--per-launch"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("_Z6vecaddPKfS0_Pfi (vecadd(float const*, float const*, float*, int))"));
  const std::vector<std::string> table = section(r.out, "timing per launch");
  ASSERT_GE(table.size(), 3u) << r.out;
  EXPECT_EQ(words_of(table[1]).at(1), "vecadd");
  EXPECT_THAT(table[2], HasSubstr("vecadd = vecadd(float const*, float const*, float*, int) (_Z6vecaddPKfS0_Pfi)"));
}

}  // namespace
