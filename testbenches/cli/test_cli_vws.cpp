// The vws platform's ganged-only mode is the baseline GPU (seed note 002
// §15.5: gang-only mode = WS32): the same workload on preset vws_ws32 and on
// the same configuration with sim.platform = gpu gives identical timing
// statistics (two processes: one SystemC elaboration each).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

TEST_F(CliTest, VwsGangedModeEqualsTheBaselineGpu) {
  const std::string preset = source("configs/vws_ws32.json");
  for (const char* workload : {"vectorAdd", "bfs"}) {
    SCOPED_TRACE(workload);
    const CliResult v = run({"run", workload, "--size", "small", "--config", preset, "-p", "gpu.num_sms=2", "--out", "v"});
    ASSERT_EQ(v.code, 0) << v.err;
    const CliResult g = run({"run", workload, "--size", "small", "--config", preset, "-p", "gpu.num_sms=2", "-p",
                             "sim.platform=gpu", "--out", "g"});
    ASSERT_EQ(g.code, 0) << g.err;
    const nlohmann::json sv = nlohmann::json::parse(read_text(path("v/stats.json")));
    const nlohmann::json sg = nlohmann::json::parse(read_text(path("g/stats.json")));
    ASSERT_TRUE(sv.contains("timing"));
    EXPECT_GT(sv["timing"]["total"]["gpu.cycles"].get<double>(), 0.0);
    EXPECT_TRUE(sv["timing"] == sg["timing"]) << "ganged vws and gpu timing statistics differ";
    EXPECT_EQ(sv["result"], "PASS");
  }
}

}  // namespace
}  // namespace simtlm::test
