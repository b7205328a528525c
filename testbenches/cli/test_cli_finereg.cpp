// FineReg with the whole register file as ACRF, no PCRF and resident limits
// equal to the active ones is the baseline (seed note 004 §7 invariant 15):
// same cycles and instructions in every launch as alloc_policy = baseline on
// the same machine (two runs of the CLI: one timing device per process).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

class CliFineReg : public CliTest {
 protected:
  nlohmann::json run_stats(const std::string& workload, const std::string& out, std::vector<std::string> keys) {
    std::vector<std::string> args = {"run", workload, "--size", "small", "--config",
                                     source("configs/gtx980_finereg.json"), "-p", "gpu.num_sms=2", "--out", out};
    for (const std::string& k : keys) {
      args.push_back("-p");
      args.push_back(k);
    }
    const CliResult r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(read_text(path(out) / "stats.json"));
  }
};

TEST_F(CliFineReg, WholeRegisterFileAsAcrfIsTheBaseline) {
  for (const char* w : {"vectorAdd", "hotspot"}) {
    const nlohmann::json base = run_stats(w, std::string(w) + "_base", {"gpu.sm.regfile.alloc_policy=baseline"});
    const nlohmann::json fr = run_stats(
        w, std::string(w) + "_fr",
        {"gpu.sm.regfile.finereg.acrf_bytes=262144", "gpu.sm.regfile.finereg.pcrf_bytes=0",
         "gpu.sm.regfile.finereg.max_resident_ctas=32", "gpu.sm.regfile.finereg.max_resident_warps=64"});
    EXPECT_EQ(base["cycles"], fr["cycles"]) << w;
    EXPECT_EQ(base["warp_instructions"], fr["warp_instructions"]) << w;
    ASSERT_EQ(base["per_launch"].size(), fr["per_launch"].size());
    for (size_t i = 0; i < base["per_launch"].size(); ++i) {
      EXPECT_EQ(base["per_launch"][i]["cycles"], fr["per_launch"][i]["cycles"]) << w << " launch " << i;
    }
  }
}

}  // namespace
}  // namespace simtlm::test
