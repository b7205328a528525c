// Locality instrumentation end to end (seed note 002 §2.1, §14.1 item 7):
// an L1D trace written by a run and replayed under LRU gives the model's own
// miss rate within 0.1 percentage point on every SM (Rogers' SAGCS
// validation), Belady's replay never misses more than LRU, the locality
// classes add up to the L1D's own counters, and without the keys nothing of
// this appears in the statistics.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

double sum_matching(const nlohmann::json& stats, const std::regex& name) {
  double s = 0;
  for (const auto& [k, v] : stats.items()) {
    if (v.is_number() && std::regex_match(k, name)) s += v.get<double>();
  }
  return s;
}

TEST_F(CliTest, L1dTraceReplaysWithinATenthOfAPointAndLocalityClassesAddUp) {
  CliResult r = run({"run", "gcmark", "--size", "small", "--config", source("configs/gtx285_ccws.json"), "-p",
                     "gpu.l1d.locality_stats=true", "--trace", "l1d", "--out", "out"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run({"l1d-replay", "out/l1d_trace.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(at most ([0-9.]+) points on one SM)"))) << r.out;
  EXPECT_LE(std::stod(m[1]), 0.1) << r.out;
  std::smatch lru, opt;
  ASSERT_TRUE(std::regex_search(r.out, lru, std::regex(R"(lru +([0-9]+) misses)")));
  ASSERT_TRUE(std::regex_search(r.out, opt, std::regex(R"(belady +([0-9]+) misses)")));
  EXPECT_LE(std::stoull(opt[1]), std::stoull(lru[1]));
  EXPECT_GT(std::stoull(lru[1]), 0u);

  const nlohmann::json stats = nlohmann::json::parse(read_text(path("out/stats.json")))["timing"]["total"];
  const double hits = sum_matching(stats, std::regex(R"(gpu\.sm\[\d+\]\.l1d\.hits)"));
  const double misses = sum_matching(stats, std::regex(R"(gpu\.sm\[\d+\]\.l1d\.misses)"));
  EXPECT_GT(hits, 0);
  EXPECT_EQ(sum_matching(stats, std::regex(R"(gpu\.sm\[\d+\]\.l1d_locality\.hits_(intra|inter)_warp)")), hits);
  EXPECT_EQ(sum_matching(stats, std::regex(R"(gpu\.sm\[\d+\]\.l1d_locality\.misses_(compulsory|intra_warp|inter_warp))")),
            misses);
}

TEST_F(CliTest, LocalityStatisticsAndCcwsCountersAreOffByDefault) {
  CliResult r = run({"run", "vectorAdd", "--size", "small", "--config", source("configs/gtx285_ccws.json"), "--out",
                     "out"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string stats = read_text(path("out/stats.json"));
  EXPECT_EQ(stats.find("l1d_locality"), std::string::npos);
  EXPECT_EQ(stats.find("ccws"), std::string::npos);
}

TEST_F(CliTest, CcwsRunReportsVictimTagHitsAndStorage) {
  CliResult r = run({"run", "gcmark", "--size", "small", "--config", source("configs/gtx285_ccws.json"), "-p",
                     "gpu.sm.scheduler.policy=ccws"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 512 x 41 bits of victim tags + 256 x 5 owner bits + 32 x 10 score bits.
  EXPECT_THAT(r.out + r.err, HasSubstr("storage 22592 bits per SM"));
  EXPECT_THAT(r.out + r.err, HasSubstr("VTA hits"));
}

TEST_F(CliTest, DawsProfileWrittenByADetectedRunDrivesAProfiledRun) {
  // Detected DAWS learns spmv's loop footprints and writes them; profiled
  // DAWS reads them back; a profile without the kernel is an error naming
  // the file and the kernel.
  const std::string cfg = source("configs/gtx285_ccws.json");
  CliResult r = run({"run", "spmv", "--size", "small", "--config", cfg, "-p", "gpu.sm.scheduler.policy=daws", "-p",
                     "gpu.sm.scheduler.daws.profile_out=" + path("prof.txt").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("DAWS"));
  const std::string prof = read_text(path("prof.txt"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(prof, m, std::regex(R"(kernel (\S+) instructions [0-9]+\nloop [0-9]+ diverged)")))
      << prof;
  const std::string kernel = m[1];
  r = run({"run", "spmv", "--size", "small", "--config", cfg, "-p", "gpu.sm.scheduler.policy=daws", "-p",
           "gpu.sm.scheduler.daws.mode=profiled", "-p", "gpu.sm.scheduler.daws.profile=" + path("prof.txt").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string other = write("other.txt", "kernel not_spmv instructions 3\n");
  r = run({"run", "spmv", "--size", "small", "--config", cfg, "-p", "gpu.sm.scheduler.policy=daws", "-p",
           "gpu.sm.scheduler.daws.mode=profiled", "-p", "gpu.sm.scheduler.daws.profile=" + other});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("DAWS profile '" + other + "' has no kernel '" + kernel + "'"));
}

TEST_F(CliTest, DawsWithoutLoopsOfLocalityTimesExactlyAsGto) {
  // nw has loops, but none with intra-warp locality: detected DAWS never
  // predicts a footprint, throttles nothing, and every cycle and L1D access is
  // GTO's (seed note 002 §15.4).
  const std::string cfg = source("configs/gtx285_ccws.json");
  CliResult r = run({"run", "nw", "--size", "small", "--config", cfg, "--out", "gto"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run({"run", "nw", "--size", "small", "--config", cfg, "-p", "gpu.sm.scheduler.policy=daws", "--out", "daws"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json g = nlohmann::json::parse(read_text(path("gto/stats.json")))["timing"]["total"];
  const nlohmann::json d = nlohmann::json::parse(read_text(path("daws/stats.json")))["timing"]["total"];
  EXPECT_GT(sum_matching(d, std::regex(R"(gpu\.sm\[\d+\]\.scheduler\.daws\.loop_begins)")), 0);
  EXPECT_EQ(sum_matching(d, std::regex(R"(gpu\.sm\[\d+\]\.scheduler\.daws\.blocked_warp_cycles)")), 0);
  for (const char* k : {"gpu.cycles", "gpu.warp_instructions"}) EXPECT_EQ(g.at(k), d.at(k)) << k;
  for (const char* k : {R"(gpu\.sm\[\d+\]\.l1d\.hits)", R"(gpu\.sm\[\d+\]\.l1d\.misses)"}) {
    EXPECT_EQ(sum_matching(g, std::regex(k)), sum_matching(d, std::regex(k))) << k;
  }
}

TEST_F(CliTest, L1dReplayRejectsAFileThatIsNotATrace) {
  const std::string bad = write("bad.txt", "hello\n");
  CliResult r = run({"l1d-replay", bad});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.txt:1: not an L1D trace"));
  const std::string rec = write("rec.txt", "# simtlm l1d trace 1 sms=1 sets=32 ways=8 line_bytes=128 set_index=linear "
                                           "write_policy=write_evict\n0 5 1 Q h 80\n");
  r = run({"l1d-replay", rec});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("rec.txt:2: bad record"));
}

}  // namespace
}  // namespace simtlm::test
