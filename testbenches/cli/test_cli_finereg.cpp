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

// The energy report has FineReg's components only with a switching
// allocator, and charges them from its movement: FineReg's PCRF and vector
// cache (FINEREGP) and register movement (SWITCHP); Reg+DRAM's off-chip
// contexts (SWITCHP, no FINEREGP); nothing under the baseline.
TEST_F(CliFineReg, EnergyChargesTheSwitchingOnlyWhereItHappens) {
  auto dynamic = [&](const std::string& out, std::vector<std::string> keys) {
    keys.push_back("gpu.power.enabled=true");
    return run_stats("gaussian", out, keys)["timing"]["energy"]["total"]["dynamic_j"];
  };
  const nlohmann::json base = dynamic("e_base", {"gpu.sm.regfile.alloc_policy=baseline"});
  EXPECT_FALSE(base.contains("FINEREGP"));
  EXPECT_FALSE(base.contains("SWITCHP"));
  const nlohmann::json fr = dynamic("e_fr", {});
  EXPECT_GT(fr["FINEREGP"].get<double>(), 0.0);
  EXPECT_GT(fr["SWITCHP"].get<double>(), 0.0);
  const nlohmann::json rd = dynamic("e_rd", {"gpu.sm.regfile.alloc_policy=regdram", "gpu.sm.registers=8192"});
  EXPECT_EQ(rd["FINEREGP"].get<double>(), 0.0);
  EXPECT_GT(rd["SWITCHP"].get<double>(), 0.0);
}

}  // namespace
}  // namespace simtlm::test
